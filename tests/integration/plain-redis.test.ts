/**
 * Self-hosting on a plain Redis behind a REST layer that forwards commands unchanged, as Upstash's
 * serverless-redis-http (SRH) does — what docs/self-hosting.md promises: the rollout setting
 * is shared (npm run rollout reaches every instance), while Redis refuses the `allow-key-locking` flag
 * of the quota library's scripts, so each instance counts its quota itself, says so once, and never
 * answers a 5xx because of it.
 */
import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../../harness/paths.ts'
import { startRedis, type RunningRedis } from '../../harness/redis.ts'
import { isolatedEnv, startSite, type RunningSite } from '../../harness/site-server.ts'
import { startUpstashBridge, type UpstashBridge } from '../../harness/upstash-bridge.ts'

let redis: RunningRedis
let srh: UpstashBridge
let sites: RunningSite[] = []
let env: Record<string, string>

beforeAll(async () => {
  redis = await startRedis()
  srh = await startUpstashBridge({ redisPort: redis.port, keepScriptFlags: true })
  env = { UPSTASH_REDIS_REST_URL: srh.url, UPSTASH_REDIS_REST_TOKEN: srh.token, REDIS_KEY_PREFIX: `plain-redis-${process.pid}` }
  sites = await Promise.all([startSite(env), startSite(env)])
})

afterAll(async () => {
  await Promise.all(sites.map((site) => site.stop()))
  await srh?.stop()
  await redis?.dispose()
})

async function rollout(command: string): Promise<number> {
  return await new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'rollout', '--', command], {
      cwd: projectRoot,
      env: { ...isolatedEnv(), ...env, NODE_ENV: 'production' },
      stdio: 'ignore',
    })
    child.on('error', reject)
    child.on('exit', (code) => resolve(code ?? -1))
  })
}

async function statuses(): Promise<number[]> {
  return await Promise.all(sites.map(async (site) => (await site.fetch('/api/agent/v1/health')).status))
}

async function until(expected: number, deadlineMs: number): Promise<number[]> {
  const deadline = Date.now() + deadlineMs
  let seen = await statuses()
  while (!seen.every((status) => status === expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    seen = await statuses()
  }
  return seen
}

describe('plain Redis behind serverless-redis-http', () => {
  it('answers every request; each instance counts its own quota and logs why, once', async () => {
    for (let i = 0; i < 5; i += 1) expect(await statuses()).toEqual([200, 200])
    for (const site of sites) {
      const failures = site.output().match(/\[quota\] Upstash Redis failed \([^\n]*Unexpected flag in script shebang: allow-key-locking/g) ?? []
      expect(failures.length, site.output()).toBe(1)
    }
  })

  it('shares the rollout setting: npm run rollout reaches every instance within 5 s', async () => {
    expect(await rollout('disable')).toBe(0)
    expect(await until(503, 6_000)).toEqual([503, 503])
    expect(await rollout('enable')).toBe(0)
    expect(await until(200, 6_000)).toEqual([200, 200])
  })
})
