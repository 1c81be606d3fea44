/**
 * Vercel production without Upstash Redis: the quota is per function instance. The build (its
 * prebuild check) and the first request that spends the quota say so, once; with Upstash, neither does.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { perInstanceQuotaWarning } from '../../lib/quota/quota.ts'
import { parseConfig } from '../../lib/env.ts'
import { projectRoot } from '../../harness/paths.ts'
import { ensureSiteBuild, isolatedEnv, SITE_BUILDS } from '../../harness/site-build.ts'
import { runVercelFunction, VercelOutput, type RunningFunction } from '../../harness/vercel-output.ts'

const PRODUCTION = SITE_BUILDS.vercel
const WARNING = perInstanceQuotaWarning(parseConfig(PRODUCTION)) as string

let run: RunningFunction | undefined

afterEach(async () => {
  await run?.stop()
  run = undefined
})

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1
}

describe('Vercel production without Upstash', () => {
  it('the build warns that the quota is per instance', () => {
    expect(WARNING).toMatch(/^\[quota\] Warning: Vercel production without Upstash Redis .* the quota is per instance/)
    const build = spawnSync(process.execPath, [path.join(projectRoot, 'scripts/prebuild.ts')], {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { ...isolatedEnv(), ...PRODUCTION },
    })
    expect(build.status).toBe(0)
    expect(occurrences(build.stderr, WARNING)).toBe(1)
  })

  it('the first request that spends the quota logs the warning, once (the agent API function of vercel build)', async () => {
    const projectDir = ensureSiteBuild('vercel')
    const agentApi = new VercelOutput(projectDir).functions().get('/api/agent/v1/[[...path]]') as string
    // GET /mcp is refused before the quota is consulted: the function is up, nothing spent yet.
    run = await runVercelFunction(agentApi, projectDir, PRODUCTION, '/mcp')
    expect(run.output()).not.toContain(WARNING)
    for (let i = 0; i < 3; i += 1) {
      const health = await fetch(`${run.origin}/api/agent/v1/health`, { headers: { 'x-real-ip': '203.0.113.20' } })
      expect(health.status).toBe(200)
    }
    expect(occurrences(run.output(), WARNING)).toBe(1)
  }, 300_000)

  it('with Upstash configured, neither warns', () => {
    const withUpstash = { ...PRODUCTION, UPSTASH_REDIS_REST_URL: 'https://redis.example', UPSTASH_REDIS_REST_TOKEN: 'token' }
    const build = spawnSync(process.execPath, [path.join(projectRoot, 'scripts/prebuild.ts')], {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { ...isolatedEnv(), ...withUpstash },
    })
    expect(build.status).toBe(0)
    expect(build.stderr).not.toContain('[quota]')
  })
})

describe('placeholder domains in a production build', () => {
  const prebuild = (cwd: string, env: Record<string, string>) =>
    spawnSync(process.execPath, [path.join(projectRoot, 'scripts/prebuild.ts')], { cwd, encoding: 'utf8', env: { ...isolatedEnv(), ...env } })
  const production = {
    ...PRODUCTION,
    UPSTASH_REDIS_REST_URL: 'https://redis.upstash.io',
    UPSTASH_REDIS_REST_TOKEN: 'token',
    APP_URL: 'https://app.cadence.io',
    CRON_SECRET: 'a-cron-secret-of-the-deployment',
  }

  it('are named with the files that hold them, and the build goes on', () => {
    const build = prebuild(projectRoot, production)
    expect(build.status).toBe(0)
    expect(build.stderr).toBe(
      '[content] Warning: this production build names placeholder domains (.example), which lead nowhere; set the real ones:\n' +
        '  cadence.example: BASE_URL, content/pages/contact.md\n',
    )
  })

  it('a local build may use them', () => {
    const build = prebuild(projectRoot, { BASE_URL: 'http://127.0.0.1:3000' })
    expect(build.status).toBe(0)
    expect(build.stderr).toBe('')
  })

  it('with real domains, nothing to warn about', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'placeholders-'))
    cpSync(path.join(projectRoot, 'content'), path.join(root, 'content'), { recursive: true })
    const contact = path.join(root, 'content/pages/contact.md')
    writeFileSync(contact, readFileSync(contact, 'utf8').replace('hello@cadence.example', 'hello@cadence.io'))
    const build = prebuild(root, { ...production, BASE_URL: 'https://cadence.io' })
    expect(build.status).toBe(0)
    expect(build.stderr).toBe('')
  })
})
