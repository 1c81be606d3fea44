/**
 * Vercel production without Upstash Redis: the quota is per function instance. The build (its
 * prebuild check) and the first request that spends the quota say so, once; with Upstash, neither does.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { perInstanceQuotaWarning } from '../../lib/quota/quota.ts'
import { parseConfig } from '../../lib/env.ts'
import { projectRoot } from '../support/paths.ts'
import { isolatedEnv, startSite, type RunningSite } from '../support/site-server.ts'

const PRODUCTION = { VERCEL: '1', VERCEL_ENV: 'production', VERCEL_PROJECT_PRODUCTION_URL: 'agents.example.com' }
const WARNING = perInstanceQuotaWarning(parseConfig(PRODUCTION)) as string

let site: RunningSite | undefined

afterEach(async () => {
  await site?.stop()
  site = undefined
})

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1
}

describe('Vercel production without Upstash', () => {
  it('the build warns that the quota is per instance', () => {
    expect(WARNING).toMatch(/^\[quota\] Warning: Vercel production without Upstash Redis .* the quota is per instance/)
    const build = spawnSync(process.execPath, [path.join(projectRoot, 'scripts/prebuild.ts')], { cwd: projectRoot, encoding: 'utf8', env: { ...isolatedEnv(), ...PRODUCTION } })
    expect(build.status).toBe(0)
    expect(occurrences(build.stderr, WARNING)).toBe(1)
  })

  it('the first request that spends the quota logs the warning, once', async () => {
    site = await startSite(PRODUCTION)
    expect(site.output()).not.toContain(WARNING)
    for (let i = 0; i < 3; i += 1) expect((await site.fetch('/api/agent/v1/health')).status).toBe(200)
    expect(occurrences(site.output(), WARNING)).toBe(1)
  })

  it('with Upstash configured, neither warns', () => {
    const withUpstash = { ...PRODUCTION, UPSTASH_REDIS_REST_URL: 'https://redis.example', UPSTASH_REDIS_REST_TOKEN: 'token' }
    const build = spawnSync(process.execPath, [path.join(projectRoot, 'scripts/prebuild.ts')], { cwd: projectRoot, encoding: 'utf8', env: { ...isolatedEnv(), ...withUpstash } })
    expect(build.status).toBe(0)
    expect(build.stderr).not.toContain('[quota]')
  })
})
