/**
 * Verified agents (Web Bot Auth) on the built site: keys made here, key directories on loopback
 * ports (trusted, slow, down, and one not trusted), and signed requests of every kind against
 * `npm start`, `next start` and the agent API's function of the `vercel build` output. The answer is
 * always the unsigned one; the access log says what the signature showed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  makeAgentKey,
  signRequest,
  startLoopbackDirectory,
  type AgentKey,
  type LoopbackDirectory,
  type SignOptions,
} from '../../harness/agent-signer.ts'
import { startRedis, type RunningRedis } from '../../harness/redis.ts'
import { ensureSiteBuild, SITE_BUILDS } from '../../harness/site-build.ts'
import { startUpstashBridge, type UpstashBridge } from '../../harness/upstash-bridge.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'
import { runVercelFunction, VercelOutput, type RunningFunction } from '../../harness/vercel-output.ts'
import { loopbackClientPool, type LoopbackClient, type SimpleResponse } from '../support/http-client.ts'
import { PROBLEM_CODES } from '../../lib/contract/problems.ts'
import { modernRequest } from '../support/mcp-http.ts'

const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36'
const HEALTH = '/api/agent/v1/health'

type Line = Record<string, unknown>

/** A server under test: how to send to it, its access log, and the authority it answers as. */
interface Target {
  send: (path: string, headers: Record<string, string>, init?: { method?: string; body?: string }) => Promise<SimpleResponse>
  lines: () => Line[]
  authority: string
}

/** Lines each target's log must have by now: a line can arrive after its answer (stdout is a pipe). */
const expectedLines = new WeakMap<Target, number>()

function accessLogLines(output: string): Line[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.type === 'agent_request')
}

async function eventually<T>(read: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`not seen within ${timeoutMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Sends one request and returns its answer with the one access-log line it leaves. */
async function exchange(target: Target, path: string, headers: Record<string, string>, init?: { method?: string; body?: string }) {
  const index = expectedLines.get(target) ?? 0
  expectedLines.set(target, index + 1)
  const response = await target.send(path, headers, init)
  const line = await eventually(() => target.lines()[index], `the access-log line of ${path}`)
  return { response, line }
}

let trusted: LoopbackDirectory
let slow: LoopbackDirectory
let down: LoopbackDirectory
let untrusted: LoopbackDirectory
let trustedKey: AgentKey
const { client, closeAll: closeClients } = loopbackClientPool()

beforeAll(async () => {
  trustedKey = makeAgentKey()
  ;[trusted, slow, down, untrusted] = await Promise.all([
    startLoopbackDirectory([trustedKey, makeAgentKey()]),
    startLoopbackDirectory([makeAgentKey()], 'hold'),
    startLoopbackDirectory([makeAgentKey()], 'fail'),
    startLoopbackDirectory([makeAgentKey()]),
  ])
})

afterAll(async () => {
  closeClients()
  await Promise.all([trusted?.close(), slow?.close(), down?.close(), untrusted?.close()])
})

const directoriesSetting = () => ({ AGENT_SIGNATURE_DIRECTORIES: [trusted, slow, down].map((directory) => directory.origin).join(',') })

/** The signature headers of `key` for `target`, naming `directory` as Signature-Agent. */
const signedFor = (target: Target, key: AgentKey, directory: LoopbackDirectory, options: Partial<SignOptions> = {}) =>
  signRequest(key, { authority: target.authority, agent: directory.origin, ...options })

/** Sends signed requests (fresh signatures) until one is verified: the directory fetch has landed. Bounded. */
async function untilVerified(target: Target, sign: () => Record<string, string>): Promise<Line> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { line } = await exchange(target, HEALTH, { 'user-agent': BROWSER_UA, ...sign() })
    if (line.agent_signature === 'verified') return line
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('never verified')
}

const MALFORMED: Array<[string, (headers: Record<string, string>) => Record<string, string>]> = [
  ['a Signature-Input that is not a dictionary', (headers) => ({ ...headers, 'signature-input': '((("' })],
  ['a Signature that is not a byte sequence', (headers) => ({ ...headers, signature: 'sig1="not bytes"' })],
  ['a Signature-Agent that is not a structured field', (headers) => ({ ...headers, 'signature-agent': '"unterminated' })],
  ['a Signature-Agent alone', (headers) => ({ 'signature-agent': headers['signature-agent'] as string })],
  ['a Signature without its input', (headers) => ({ signature: headers.signature as string })],
  ['a 9 kB Signature-Input', (headers) => ({ ...headers, 'signature-input': `sig1=("@authority");x="${'a'.repeat(9000)}"` })],
  ['binary in Signature', (headers) => ({ ...headers, signature: 'sig1=:////:' })],
]

/**
 * The cases every server must get right, in order (the first signed request naming a directory finds
 * its keys not held yet). `staticStatus`: what the line of a prerendered answer says of its status
 * (npm start knows it; proxy.ts writes its line before the build's output answers).
 */
function signatureCases(name: string, makeTarget: () => Target, staticAnswers: { status: number | null } | null) {
  let made: Target | undefined
  // Lines the server wrote before the cases (a launcher's first request) are not theirs.
  const target = () => {
    if (!made) {
      made = makeTarget()
      expectedLines.set(made, made.lines().length)
    }
    return made
  }
  describe(name, () => {
    const browser = { 'user-agent': BROWSER_UA }
    const signed = (key: AgentKey, directory: LoopbackDirectory, options: Partial<SignOptions> = {}) => signedFor(target(), key, directory, options)

    it('an unsigned request is answered as always and logged unsigned, with no signer', async () => {
      const { response, line } = await exchange(target(), HEALTH, browser)
      expect(response.status).toBe(200)
      expect(line).toMatchObject({ route: HEALTH, agent_signature: 'unsigned', agent_signer: null, agent_class: 'other' })
    })

    it('the first request of a trusted signer gets the unsigned answer and is unverified; once its directory is held, verified, naming signer and agent class', async () => {
      const { response: unsigned } = await exchange(target(), HEALTH, browser)
      const first = await exchange(target(), HEALTH, { ...browser, ...signed(trustedKey, trusted) })
      expect([first.response.status, first.response.body]).toEqual([unsigned.status, unsigned.body])
      expect(first.line).toMatchObject({ agent_signature: 'unverified', agent_signer: null, agent_class: 'other' })
      const verified = await untilVerified(target(), () => signed(trustedKey, trusted))
      expect(verified).toMatchObject({
        route: HEALTH,
        status: 200,
        agent_signer: trusted.origin,
        agent_class: `signed:${new URL(trusted.origin).host}`,
      })
    })

    it('verifies the older single-string Signature-Agent and an MCP call', async () => {
      const { line } = await exchange(target(), HEALTH, { ...browser, ...signed(trustedKey, trusted, { form: 'string' }) })
      expect(line).toMatchObject({ agent_signature: 'verified', agent_signer: trusted.origin })
      const call = modernRequest('tools/list', {}, 'signed-1')
      const mcp = await exchange(
        target(),
        '/mcp',
        { ...call.headers, ...signed(trustedKey, trusted) },
        { method: 'POST', body: JSON.stringify(call.body) },
      )
      expect(mcp.response.status).toBe(200)
      expect(mcp.line).toMatchObject({ route: '/mcp', mcp_method: 'tools/list', agent_signature: 'verified', agent_signer: trusted.origin })
    })

    it('a signature without a nonce, reused, is verified each time it is sent: the agent is seen on every request', async () => {
      const headers = { ...browser, ...signed(trustedKey, trusted, { nonce: null }) }
      for (let i = 0; i < 3; i++) {
        const { response, line } = await exchange(target(), HEALTH, headers)
        expect(response.status).toBe(200)
        expect(line).toMatchObject({ route: HEALTH, agent_signature: 'verified', agent_signer: trusted.origin })
      }
    })

    it.each([
      ['a signature whose nonce was seen before', 'replay'],
      ['a signature covering no component (GHSA-x9cc-346q-g27m)', { components: [] }],
      ['a signature not covering @authority', { components: ['"signature-agent";key="sig1"'] }],
      ['a signature by another key under the trusted keyid', 'other-key'],
      ['an expired signature', { created: Math.floor(Date.now() / 1000) - 7200, lifetime: 60 }],
      ['a signature made for another site', { authority: 'elsewhere.example' }],
    ] as const)('%s gets the unsigned answer and is invalid', async (_, variant) => {
      const { response: unsigned } = await exchange(target(), HEALTH, browser)
      let headers: Record<string, string>
      if (variant === 'replay') {
        headers = signed(trustedKey, trusted)
        expect((await exchange(target(), HEALTH, { ...browser, ...headers })).line.agent_signature).toBe('verified')
      } else if (variant === 'other-key') {
        headers = signed(trustedKey, trusted, { signingKey: makeAgentKey().privateKey })
      } else {
        headers = signed(trustedKey, trusted, variant)
      }
      const { response, line } = await exchange(target(), HEALTH, { ...browser, ...headers })
      expect([response.status, response.body]).toEqual([unsigned.status, unsigned.body])
      expect(line).toMatchObject({ agent_signature: 'invalid', agent_signer: null, agent_class: 'other' })
    })

    it.each(MALFORMED)('%s gets the unsigned answer and is invalid', async (_, malformed) => {
      const { response: unsigned } = await exchange(target(), HEALTH, browser)
      const { response, line } = await exchange(target(), HEALTH, { ...browser, ...malformed(signed(trustedKey, trusted)) })
      expect([response.status, response.body]).toEqual([unsigned.status, unsigned.body])
      expect(line).toMatchObject({ agent_signature: 'invalid', agent_signer: null })
    })

    it('a signer that is not trusted is unverified, and its directory is never fetched', async () => {
      const key = untrusted.keys[0] as AgentKey
      for (let i = 0; i < 2; i++) {
        const { line } = await exchange(target(), HEALTH, { ...browser, ...signed(key, untrusted) })
        expect(line).toMatchObject({ agent_signature: 'unverified', agent_signer: null })
      }
      expect(untrusted.requests).toBe(0)
    })

    it('a trusted directory that is down leaves its signed requests unverified, answered as always', async () => {
      const key = down.keys[0] as AgentKey
      const before = down.requests
      const first = await exchange(target(), HEALTH, { ...browser, ...signed(key, down) })
      expect([first.response.status, first.line.agent_signature]).toEqual([200, 'unverified'])
      await eventually(() => (down.requests > before ? true : undefined), 'the fetch of the directory that is down')
      const again = await exchange(target(), HEALTH, { ...browser, ...signed(key, down) })
      expect([again.response.status, again.line.agent_signature]).toEqual([200, 'unverified'])
    })

    it('a slow directory never holds an answer: answered unverified while the directory has not answered, verified once it has', async () => {
      const key = slow.keys[0] as AgentKey
      const before = slow.requests
      const { response, line } = await exchange(target(), HEALTH, { ...browser, ...signed(key, slow) })
      expect([response.status, line.agent_signature]).toEqual([200, 'unverified'])
      // The directory has the fetch and holds its answer: the request above was answered without it.
      await eventually(() => (slow.requests === before + 1 ? true : undefined), 'the held directory fetch')
      slow.release()
      expect(await untilVerified(target(), () => signed(key, slow))).toMatchObject({ agent_signer: slow.origin })
    })

    if (staticAnswers) {
      it.each([
        ['a Markdown twin', '/pricing.md', {}, '/pricing.md'],
        ['a discovery document', '/openapi.json', {}, '/openapi.json'],
        ['a problem page', `/problems/${PROBLEM_CODES[0]}`, {}, '/problems/{code}'],
        ['a page asked for as Markdown', '/pricing', { accept: 'text/markdown' }, '/pricing'],
      ])('%s asked for with a signature is logged with its verdict; unsigned it leaves no line', async (_, path, headers, route) => {
        const unsigned = await target().send(path, { ...browser, ...headers })
        expect(unsigned.status).toBe(200)
        const { response, line } = await exchange(target(), path, { ...browser, ...headers, ...signed(trustedKey, trusted) })
        expect([response.status, response.body]).toEqual([unsigned.status, unsigned.body])
        // The line after the unsigned request is the signed one's: the unsigned request left none.
        expect(line).toMatchObject({
          method: 'GET',
          route,
          path,
          status: staticAnswers.status,
          agent_signature: 'verified',
          agent_signer: trusted.origin,
          agent_class: `signed:${new URL(trusted.origin).host}`,
          admission: null,
        })
        const malformed = await exchange(target(), path, { ...browser, ...headers, 'signature-input': '(((' })
        expect([malformed.response.status, malformed.response.body]).toEqual([unsigned.status, unsigned.body])
        expect(malformed.line).toMatchObject({ route, agent_signature: 'invalid' })
      })

      it('an HTML page view of a signed browser is not observed', async () => {
        await target().send('/pricing', { ...browser, accept: 'text/html', ...signed(trustedKey, trusted) })
        const { line } = await exchange(target(), HEALTH, browser)
        expect(line).toMatchObject({ route: HEALTH, agent_signature: 'unsigned' })
      })
    }
  })
}

/** A site started from the test build, every request from its own loopback client, to the site's own authority. */
function siteTarget(site: () => RunningSite, from: () => LoopbackClient, authority: string): Target {
  return {
    send: (path, headers, init = {}) => from().request(`${site().origin}${path}`, { ...init, headers: { host: authority, ...headers } }),
    lines: () => accessLogLines(site().output()),
    authority,
  }
}

describe('npm start and next start', () => {
  let npmStart: RunningSite
  let nextStart: RunningSite
  let npmClient: LoopbackClient
  let nextClient: LoopbackClient

  beforeAll(async () => {
    ;[npmStart, nextStart] = await Promise.all([startSite(directoriesSetting()), startSite(directoriesSetting(), { server: 'next-start' })])
    npmClient = client()
    nextClient = client()
  }, 120_000)

  afterAll(async () => {
    await Promise.all([npmStart?.stop(), nextStart?.stop()])
  })

  const authority = new URL(SITE_BUILDS.test.BASE_URL).host
  signatureCases(
    'npm start',
    () =>
      siteTarget(
        () => npmStart,
        () => npmClient,
        authority,
      ),
    { status: 200 },
  )
  signatureCases(
    'next start',
    () =>
      siteTarget(
        () => nextStart,
        () => nextClient,
        authority,
      ),
    { status: null },
  )
})

describe("the vercel build: the agent API's function, run by Vercel's launcher", () => {
  let run: RunningFunction
  let from: LoopbackClient
  const authority = SITE_BUILDS.vercel.VERCEL_PROJECT_PRODUCTION_URL

  beforeAll(async () => {
    const projectDir = ensureSiteBuild('vercel')
    const output = new VercelOutput(projectDir)
    run = await runVercelFunction(
      output.functions().get('/api/agent/v1/[[...path]]') as string,
      projectDir,
      { ...SITE_BUILDS.vercel, ...directoriesSetting() },
      HEALTH,
    )
    from = client()
  }, 60_000)

  afterAll(async () => {
    await run?.stop()
  })

  signatureCases(
    'REST and MCP',
    () => ({
      send: (path, headers, init = {}) =>
        from.request(`${run.origin}${path}`, { ...init, headers: { host: authority, 'x-real-ip': '203.0.113.40', ...headers } }),
      lines: () => accessLogLines(run.output()),
      authority,
    }),
    null,
  )
})

describe('two instances sharing Upstash', () => {
  let redis: RunningRedis
  let bridge: UpstashBridge
  let first: RunningSite
  let second: RunningSite
  let shared: LoopbackDirectory
  let from: LoopbackClient

  beforeAll(async () => {
    redis = await startRedis()
    bridge = await startUpstashBridge({ redisPort: redis.port })
    shared = await startLoopbackDirectory()
    const env = {
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: bridge.token,
      REDIS_KEY_PREFIX: `web-bot-auth-test-${process.pid}`,
      AGENT_SIGNATURE_DIRECTORIES: shared.origin,
    }
    ;[first, second] = await Promise.all([startSite(env), startSite(env)])
    from = client()
  }, 120_000)

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()])
    await Promise.all([bridge?.stop(), redis?.dispose(), shared?.close()])
  })

  const authority = new URL(SITE_BUILDS.test.BASE_URL).host
  const targets = new Map<() => RunningSite, Target>()
  const target = (site: () => RunningSite) =>
    targets.get(site) ??
    (targets
      .set(
        site,
        siteTarget(site, () => from, authority),
      )
      .get(site) as Target)
  const firstSite = () => first
  const secondSite = () => second

  it("share the signer's keys: the second instance verifies without fetching the directory again", async () => {
    const key = shared.keys[0] as AgentKey
    await untilVerified(target(firstSite), () => signedFor(target(firstSite), key, shared))
    expect(shared.requests).toBe(1)
    // The second instance's first request finds no keys in memory: it reads them from Upstash, not from the directory.
    const line = await untilVerified(target(secondSite), () => signedFor(target(secondSite), key, shared))
    expect(line).toMatchObject({ agent_signer: shared.origin })
    expect(shared.requests).toBe(1)
  })

  it('share the nonces seen: a signature verified by one instance is a replay at the other', async () => {
    const headers = {
      'user-agent': BROWSER_UA,
      ...signedFor(target(firstSite), shared.keys[0] as AgentKey, shared),
    }
    expect((await exchange(target(firstSite), HEALTH, headers)).line).toMatchObject({ agent_signature: 'verified' })
    const replayed = await exchange(target(secondSite), HEALTH, headers)
    expect(replayed.response.status).toBe(200)
    expect(replayed.line).toMatchObject({ agent_signature: 'invalid', agent_signer: null })
  })

  it('a signature without a nonce, reused, is verified by both instances', async () => {
    const headers = {
      'user-agent': BROWSER_UA,
      ...signedFor(target(firstSite), shared.keys[0] as AgentKey, shared, { nonce: null }),
    }
    expect((await exchange(target(firstSite), HEALTH, headers)).line).toMatchObject({ agent_signature: 'verified' })
    const reused = await exchange(target(secondSite), HEALTH, headers)
    expect(reused.response.status).toBe(200)
    expect(reused.line).toMatchObject({ agent_signature: 'verified', agent_signer: shared.origin })
  })
})
