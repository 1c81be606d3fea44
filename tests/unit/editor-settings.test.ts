/**
 * The visual editor's settings (lib/env.ts): GitHub mode with all five GitHub settings, an error naming
 * the missing ones for a partial set, and no editor outside `next dev` without them.
 */
import { describe, expect, it } from 'vitest'
import { ConfigError, editorMode, parseConfig } from '../../lib/env.ts'

const GITHUB = {
  KEYSTATIC_GITHUB_CLIENT_ID: 'Iv1.0123456789abcdef',
  KEYSTATIC_GITHUB_CLIENT_SECRET: 'client-secret',
  KEYSTATIC_SECRET: 'a-long-random-session-secret',
  NEXT_PUBLIC_KEYSTATIC_GITHUB_APP_SLUG: 'cadence-site-editor',
  KEYSTATIC_GITHUB_REPO: 'cadence/site',
}

describe('visual editor settings', () => {
  it('all five GitHub settings select GitHub mode, with the repository split into owner and name', () => {
    expect(editorMode(parseConfig(GITHUB))).toEqual({
      kind: 'github',
      github: {
        clientId: 'Iv1.0123456789abcdef',
        clientSecret: 'client-secret',
        secret: 'a-long-random-session-secret',
        appSlug: 'cadence-site-editor',
        repo: { owner: 'cadence', name: 'site' },
      },
    })
  })

  it('a partial set is an error naming the missing settings, never the secrets', () => {
    const { KEYSTATIC_SECRET: _secret, KEYSTATIC_GITHUB_REPO: _repo, ...partial } = GITHUB
    expect(() => parseConfig(partial)).toThrow(ConfigError)
    expect(() => parseConfig(partial)).toThrow(
      'Invalid setting KEYSTATIC_SECRET, KEYSTATIC_GITHUB_REPO: set every visual editor GitHub setting (KEYSTATIC_GITHUB_CLIENT_ID, KEYSTATIC_GITHUB_CLIENT_SECRET, KEYSTATIC_SECRET, NEXT_PUBLIC_KEYSTATIC_GITHUB_APP_SLUG, KEYSTATIC_GITHUB_REPO), or none',
    )
    expect(() => parseConfig(partial)).not.toThrow(/client-secret/)
  })

  it('a repository that is not owner/name is refused', () => {
    expect(() => parseConfig({ ...GITHUB, KEYSTATIC_GITHUB_REPO: 'https://github.com/cadence/site' })).toThrow(
      'Invalid setting KEYSTATIC_GITHUB_REPO: expected the repository as owner/name, e.g. cadence/site, got "https://github.com/cadence/site"',
    )
  })

  it('without them, a process that is not next dev has no editor', () => {
    // vitest runs with NODE_ENV=test: not `next dev`.
    expect(editorMode(parseConfig({}))).toBeNull()
  })
})
