/**
 * The `public_agent_access` rollout against the built site: two `npm start` instances on one Upstash
 * Redis (real redis-server behind the REST bridge) follow `npm run rollout -- disable|enable` within
 * 5 s, REST answers 503 problem+json and back, static documents stay readable, a flag read costs no
 * request to Redis, and no cookie (forged or real Flags Explorer override) ever causes a 5xx.
 */
import { spawn } from 'node:child_process'
import { createAccessProof, encryptOverrides } from 'flags'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loopbackClientPool, type LoopbackClient, type SimpleResponse } from '../support/http-client.ts'
import { projectRoot } from '../../harness/paths.ts'
import { modernRequest } from '../support/mcp-http.ts'
import { startRedis, type RunningRedis } from '../../harness/redis.ts'
import { isolatedEnv, startSite, type RunningSite } from '../../harness/site-server.ts'
import { startUpstashBridge, type UpstashBridge } from '../../harness/upstash-bridge.ts'

const BASE = 'https://agents.example.com'
const HEALTH = '/api/agent/v1/health'
const FLAGS_SECRET = Buffer.alloc(32, 42).toString('base64url')
const STATIC_PATHS = ['/', '/robots.txt', '/openapi.json', '/llms.txt', '/developers.md']

let redis: RunningRedis
let bridge: UpstashBridge
let plain: RunningSite
let withSecret: RunningSite
let sharedEnv: Record<string, string>
const { client, closeAll: closeClients } = loopbackClientPool()

beforeAll(async () => {
  redis = await startRedis()
  bridge = await startUpstashBridge({ redisPort: redis.port })
  sharedEnv = {
    UPSTASH_REDIS_REST_URL: bridge.url,
    UPSTASH_REDIS_REST_TOKEN: bridge.token,
    REDIS_KEY_PREFIX: `rollout-test-${process.pid}`,
  }
  // Both start disabled by PUBLIC_AGENT_ACCESS: the shared setting is absent until the first command.
  ;[plain, withSecret] = await Promise.all([
    startSite({ ...sharedEnv, BASE_URL: BASE, PUBLIC_AGENT_ACCESS: 'false' }),
    startSite({ ...sharedEnv, BASE_URL: BASE, PUBLIC_AGENT_ACCESS: 'false', DISABLED_RETRY_AFTER_SECONDS: '120', FLAGS_SECRET }),
  ])
})

afterAll(async () => {
  closeClients()
  await Promise.all([plain?.stop(), withSecret?.stop()])
  await bridge?.stop()
  await redis?.dispose()
})

async function rollout(command: string): Promise<{ code: number; output: string; finishedAt: number }> {
  return await new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'rollout', '--', command], {
      cwd: projectRoot,
      env: { ...isolatedEnv(), ...sharedEnv, NODE_ENV: 'production', PUBLIC_AGENT_ACCESS: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code: code ?? -1, output: output.replace(/^npm warn .*\n/gm, ''), finishedAt: performance.now() }))
  })
}

function expectDisabled(response: SimpleResponse, retryAfter: string): void {
  expect(response.status, response.body).toBe(503)
  expect(response.headers['content-type']).toBe('application/problem+json')
  expect(response.headers['retry-after']).toBe(retryAfter)
  expect(response.headers['api-version']).toBe('2026-08-25')
  // Nothing was spent: no rate-limit headers on a 503.
  expect(response.headers['ratelimit-limit']).toBeUndefined()
  expect(response.headers.ratelimit).toBeUndefined()
  expect(JSON.parse(response.body)).toEqual({
    type: `${BASE}/problems/public_agent_access_disabled`,
    title: 'Public agent access is disabled',
    status: 503,
    code: 'public_agent_access_disabled',
    detail: 'The public agent surface is switched off by a platform rollout setting.',
    resolution:
      'Retry after the Retry-After delay (300 s by default); static discovery documents such as /openapi.json and /llms.txt remain readable.',
    instance: `${BASE}${HEALTH}`,
  })
}

/** Polls both instances until each answers `status`; returns the milliseconds since `since`. */
async function untilBoth(status: number, since: number): Promise<number> {
  const c = client()
  const pending = new Set([plain, withSecret])
  while (pending.size > 0) {
    for (const site of [...pending]) {
      const response = await c.get(`${site.origin}${HEALTH}`)
      expect([200, 503]).toContain(response.status)
      if (response.status === status) pending.delete(site)
    }
    if (performance.now() - since > 8_000) break
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return performance.now() - since
}

function postDiscover(c: LoopbackClient, site: RunningSite): Promise<SimpleResponse> {
  const { headers, body } = modernRequest('server/discover')
  return c.request(`${site.origin}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) })
}

async function expectStaticReadable(): Promise<void> {
  const c = client()
  for (const site of [plain, withSecret]) {
    for (const path of STATIC_PATHS) expect((await c.get(`${site.origin}${path}`)).status, `${path}`).toBe(200)
  }
}

describe('rollout through the shared setting', () => {
  it('starts from PUBLIC_AGENT_ACCESS=false while the shared setting is absent', async () => {
    const c = client()
    expectDisabled(await c.get(`${plain.origin}${HEALTH}`), '300')
    expectDisabled(await c.get(`${withSecret.origin}${HEALTH}`), '120')
    await expectStaticReadable()
    const status = await rollout('status')
    expect(status.code).toBe(0)
    expect(status.output).toContain('public_agent_access: disabled (PUBLIC_AGENT_ACCESS of each instance)')
    expect(status.output).toContain(`shared setting ${sharedEnv.REDIS_KEY_PREFIX}:rollout:public_agent_access: not set`)
  })

  it('`npm run rollout -- enable` reaches both instances within 5 s', async () => {
    const result = await rollout('enable')
    expect(result.code, result.output).toBe(0)
    expect(result.output).toMatch(
      /^\[rollout\] \S+ public_agent_access: not set → enabled \(shared setting rollout-test-\d+:rollout:public_agent_access\) by \S+@\S+; every instance follows within 5 s\n$/,
    )
    expect(await untilBoth(200, result.finishedAt)).toBeLessThan(5_000)
    const c = client()
    const response = await c.get(`${plain.origin}${HEALTH}`)
    expect(response.status).toBe(200)
    expect(response.headers['ratelimit-remaining']).toBe('149')
  })

  it('`disable` → both answer 503 within 5 s, static documents stay readable; `enable` ends the 503s', async () => {
    const disabled = await rollout('disable')
    expect(disabled.code, disabled.output).toBe(0)
    expect(disabled.output).toContain('public_agent_access: enabled → disabled')
    expect(await untilBoth(503, disabled.finishedAt)).toBeLessThan(5_000)
    const c = client()
    for (const path of [HEALTH, '/api/agent/v1/capabilities', '/api/agent/v1/resources', '/api/agent/v1/resources/product-overview']) {
      const response = await c.get(`${plain.origin}${path}`)
      expect(response.status).toBe(503)
      expect(JSON.parse(response.body).code).toBe('public_agent_access_disabled')
    }
    expectDisabled(await c.get(`${plain.origin}${HEALTH}`), '300')
    for (const [site, retryAfter] of [
      [plain, 300],
      [withSecret, 120],
    ] as const) {
      const answer = await postDiscover(c, site)
      expect(answer.status).toBe(503)
      expect(answer.headers['retry-after']).toBe(String(retryAfter))
      expect(answer.headers['ratelimit-limit']).toBeUndefined()
      expect(JSON.parse(answer.body)).toMatchObject({
        jsonrpc: '2.0',
        id: 'req-1',
        error: { code: -31503, data: { code: 'public_agent_access_disabled', retryAfterSeconds: retryAfter } },
      })
    }
    await expectStaticReadable()

    const again = await rollout('disable')
    expect(again.output).toContain('public_agent_access already disabled')

    const enabled = await rollout('enable')
    expect(enabled.output).toContain('public_agent_access: disabled → enabled')
    expect(await untilBoth(200, enabled.finishedAt)).toBeLessThan(5_000)
    for (const site of [plain, withSecret]) {
      const answer = await postDiscover(c, site)
      expect(answer.status).toBe(200)
      expect(answer.headers['ratelimit-limit']).toBe('150')
    }
    await expectStaticReadable()
  })

  it('each instance logs every transition it observes, and status shows the history', async () => {
    for (const site of [plain, withSecret]) {
      const lines = site
        .output()
        .split('\n')
        .filter((line) => line.startsWith('[rollout] public_agent_access changed'))
      expect(lines).toEqual([
        '[rollout] public_agent_access changed: disabled → enabled (shared setting)',
        '[rollout] public_agent_access changed: enabled → disabled (shared setting)',
        '[rollout] public_agent_access changed: disabled → enabled (shared setting)',
      ])
    }
    const status = await rollout('status')
    expect(status.output).toContain('public_agent_access: enabled (shared setting)')
    const history = status.output.split('\n').filter((line) => / by \S+@\S+$/.test(line))
    expect(history.map((line) => line.replace(/^\s+\S+\s+/, '').replace(/\s+by .*$/, ''))).toEqual([
      'disabled → enabled',
      'enabled → disabled',
      'not set → enabled',
    ])
  })

  it('answers without a request to Redis for the flag: reads follow the refresh timer, not the traffic', async () => {
    const c = client()
    bridge.resetCounts()
    const started = performance.now()
    for (let i = 0; i < 60; i++) expect((await c.get(`${plain.origin}${HEALTH}`)).status).toBe(200)
    const seconds = (performance.now() - started) / 1000
    const counts = bridge.commandCounts()
    // One script call per request (fewer only if a stalled call sent the instance to its in-process store).
    const scripts = (counts.EVALSHA ?? 0) + (counts.EVAL ?? 0)
    expect(scripts).toBeLessThanOrEqual(60)
    expect(scripts).toBeGreaterThan(30)
    // One GET per instance every 2 s, whatever the number of requests.
    expect(counts.GET ?? 0).toBeLessThanOrEqual(2 * (Math.ceil(seconds / 2) + 1))
  })

  it('usage errors exit with 2', async () => {
    const result = await rollout('maybe')
    expect(result.code).toBe(2)
    expect(result.output).toContain('Usage: npm run rollout -- <disable|enable|status>')
  })
})

describe('cookies never cause a 5xx', () => {
  const forged = [
    'vercel-flag-overrides=forged',
    'vercel-flag-overrides=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA',
    'vercel-flag-overrides=%7B%22public_agent_access%22%3Afalse%7D; other=1',
    'vercel-flag-overrides=',
  ]

  it('forged override cookies are ignored without FLAGS_SECRET', async () => {
    const c = client()
    for (const cookie of forged) {
      const response = await c.get(`${plain.origin}${HEALTH}`, { Cookie: cookie })
      expect(response.status, cookie).toBe(200)
    }
    expect(plain.output()).not.toContain('Flags SDK failed')
  })

  it('forged override cookies are ignored with FLAGS_SECRET', async () => {
    const c = client()
    for (const cookie of forged) {
      const response = await c.get(`${withSecret.origin}${HEALTH}`, { Cookie: cookie })
      expect(response.status, cookie).toBe(200)
    }
  })

  it('a real Flags Explorer override (encrypted with FLAGS_SECRET) applies to that browser only', async () => {
    const c = client()
    const cookie = `vercel-flag-overrides=${await encryptOverrides({ public_agent_access: false }, FLAGS_SECRET)}`
    expectDisabled(await c.get(`${withSecret.origin}${HEALTH}`, { Cookie: cookie }), '120')
    expect((await c.get(`${withSecret.origin}${HEALTH}`)).status).toBe(200)
    // The same cookie on an instance without the secret cannot be read: ignored, not a 500.
    expect((await c.get(`${plain.origin}${HEALTH}`, { Cookie: cookie })).status).toBe(200)
  })

  it('the Flags Explorer endpoint lists the flag to the toolbar only', async () => {
    const c = client()
    const url = `${withSecret.origin}/.well-known/vercel/flags`
    const proof = await createAccessProof(FLAGS_SECRET)
    const ok = await c.get(url, { Authorization: `Bearer ${proof}` })
    expect(ok.status).toBe(200)
    expect(ok.headers['cache-control']).toBe('no-store')
    expect(JSON.parse(ok.body)).toEqual({
      definitions: {
        public_agent_access: {
          description:
            'The public agent surface (REST under /api/agent/v1 and POST /mcp). Disabled: 503 public_agent_access_disabled with Retry-After; static documents stay readable.',
          options: [
            { value: true, label: 'Enabled' },
            { value: false, label: 'Disabled' },
          ],
          declaredInCode: true,
        },
      },
      hints: [],
    })
    const rejected: Array<Record<string, string>> = [{}, { Authorization: 'Bearer forged' }, { Cookie: forged[0] as string }]
    for (const headers of rejected) {
      expect((await c.get(url, headers)).status).toBe(401)
    }
    const withoutSecret: Array<Record<string, string>> = [
      {},
      { Authorization: `Bearer ${proof}` },
      { Authorization: 'Bearer forged', Cookie: forged[1] as string },
    ]
    for (const headers of withoutSecret) {
      const response = await c.get(`${plain.origin}/.well-known/vercel/flags`, headers)
      expect(response.status).toBe(401)
      expect(response.body).toBe('null')
    }
  })
})
