/**
 * Property-based tests (fast-check) against one started site, each request from its own simulated
 * client: arbitrary REST paths, methods, headers, cookies and JSON-RPC-ish bodies all get the
 * contract's defined answer (harness/contract-answers.ts) — never a 5xx, a trace or a hang.
 */
import { METHODS } from 'node:http'
import fc from 'fast-check'
import { encryptOverrides } from 'flags'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../../lib/contract/constants.ts'
import { ipv4Client, ipv6Client } from '../../scripts/soak/clients.ts'
import { rawExchange, type Outcome } from '../../harness/raw-exchange.ts'
import { mcpAnswerProblems, restAnswerProblems, type Answer } from '../../harness/contract-answers.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

const BASE = 'https://agents.example.com'
const FLAGS_SECRET = Buffer.alloc(32, 9).toString('base64url')
const API = '/api/agent/v1'
let site: RunningSite
/** A genuine Flags Explorer override switching the surface off for the request that carries it: 503s. */
let disablingCookie: string

beforeAll(async () => {
  site = await startSite({ BASE_URL: BASE, TRUST_PROXY: '127.0.0.1', FLAGS_SECRET })
  disablingCookie = `vercel-flag-overrides=${await encryptOverrides({ public_agent_access: false }, FLAGS_SECRET)}`
})
afterAll(async () => {
  await site?.stop()
})

// ------------------------------------------------------------------------------------------------
// Generators

/** A fresh simulated client per request (index-based, so collisions are rare and harmless). */
const clientArb = fc.oneof(
  fc.integer({ min: 10_000, max: 120_000 }).map(ipv4Client),
  fc.integer({ min: 10_000, max: 60_000 }).map((i) => ipv6Client(i)),
)

const percentEncode = (bytes: Uint8Array) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')

/** One path segment: contract words, dots, encoded slashes and bytes, invalid escapes, unicode, raw pchars. */
const segmentArb = fc.oneof(
  fc.constantFrom(
    'health',
    'capabilities',
    'resources',
    'product-overview',
    'developer-resources',
    'agent-boundaries',
    'PRODUCT-OVERVIEW',
    'v1',
    'v2',
  ),
  fc.constantFrom('.', '..', '%2e', '%2E', '%2e%2e', '.%2E', '', '%2f', '%2F', '%5c', '%00', '%', '%G1', '%e0%a4', '%C0%AE', '%ff', '%20', '+'),
  fc.string({ unit: 'grapheme', maxLength: 6 }).map(encodeURIComponent),
  fc.uint8Array({ maxLength: 6 }).map(percentEncode),
  fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=:@-]{0,12}$/),
  fc.constantFrom('product%2Doverview', '%70roduct-overview', 'agent-boundaries%2F', 'health;x=1'),
)
const queryArb = fc.option(fc.stringMatching(/^[A-Za-z0-9=&%._~/?-]{0,24}$/), { nil: undefined }).map((q) => (q === undefined ? '' : `?${q}`))
const pathArb = fc.oneof(
  // Anything: a handful of arbitrary segments.
  fc
    .tuple(fc.array(segmentArb, { maxLength: 6 }), queryArb, fc.boolean())
    .map(([segments, query, bare]) => `${API}${bare && segments.length === 0 ? '' : `/${segments.join('/')}`}${query}`),
  // One arbitrary resource id.
  fc.tuple(segmentArb, queryArb).map(([segment, query]) => `${API}/resources/${segment}${query}`),
  // An operation with a twist: dot segments, trailing slashes, parameters.
  fc
    .tuple(
      fc.constantFrom('/health', '/capabilities', '/resources', '/resources/product-overview', '/resources/agent-boundaries'),
      fc.constantFrom('', '', '', '/', '/.', '/..', '/%2e%2e/health', '/../resources', ';x', '%2F', '/x/..'),
      queryArb,
    )
    .map(([operation, twist, query]) => `${API}${operation}${twist}${query}`),
)

/** Header values: visible ASCII, sometimes obs-text (bytes 0x80–0xff), never CR/LF. */
const fieldValueArb = fc.string({
  unit: fc
    .oneof({ weight: 20, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) }, { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) })
    .map((c) => String.fromCharCode(c)),
  maxLength: 40,
})

const cookieArb = fc.oneof(
  fc.constant('vercel-flag-overrides=forged'),
  fc.constant('vercel-flag-overrides=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA'),
  fc.constant('vercel-flag-overrides=%7B%22public_agent_access%22%3Afalse%7D'),
  fc.constant('DISABLING'),
  fieldValueArb.map((v) => `vercel-flag-overrides=${v.replace(/;/g, '')}`),
  fieldValueArb,
)

const headersArb = fc.record(
  {
    accept: fc.oneof(
      fc.constantFrom('application/json', 'text/markdown', '*/*', 'application/problem+json', 'text/html;q=0.9, */*;q=0.1'),
      fieldValueArb,
    ),
    origin: fc.oneof(fc.constantFrom('https://agent.example', 'null', BASE, 'http://localhost:3000'), fieldValueArb),
    cookie: cookieArb,
    'access-control-request-method': fc.oneof(fc.constantFrom('GET', 'POST', 'DELETE'), fieldValueArb),
    'access-control-request-headers': fc.constantFrom('content-type', 'x-custom, authorization'),
    'if-none-match': fc.oneof(fc.constant('*'), fieldValueArb),
    'mcp-protocol-version': fc.constantFrom(...MCP_SUPPORTED_PROTOCOL_VERSIONS, 'bogus'),
    'mcp-method': fieldValueArb,
    authorization: fc.constantFrom('Bearer x', 'Basic Zm9vOmJhcg=='),
    'x-extra': fieldValueArb,
  },
  { requiredKeys: [] },
)

// ------------------------------------------------------------------------------------------------
// Sending

interface Sent {
  method: string
  target: string
  headers: Record<string, string>
  disabled: boolean
  outcome: Outcome
  answer: Answer
}

/** Sends exact bytes (header values as latin1) on a fresh connection and reads one answer. */
async function send(method: string, target: string, headers: Record<string, string>, body?: string | Buffer): Promise<Sent> {
  const disabled = headers.cookie === 'DISABLING'
  const finalHeaders = { ...headers, ...(disabled ? { cookie: disablingCookie } : {}) }
  const lines = Object.entries(finalHeaders)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  const bytes = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8')
  const framing = body === undefined ? '' : `Content-Length: ${bytes.length}\r\n`
  const head = Buffer.from(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${site.port}\r\nConnection: close\r\n${lines}${framing}\r\n`, 'latin1')
  const outcome = await rawExchange(site.port, { payload: Buffer.concat([head, bytes]), headMethods: [method === 'HEAD'] }, 10_000)
  const first = outcome.answers[0]
  const answer: Answer = first
    ? { status: first.status, headers: first.headers, body: first.body.toString('utf8') }
    : { status: 0, headers: {}, body: '' }
  return { method, target, headers: finalHeaders, disabled, outcome, answer }
}

function describeSent(sent: Sent, body?: unknown): string {
  return `${sent.method} ${sent.target}\n${JSON.stringify(sent.headers).slice(0, 400)}\n${body === undefined ? '' : `${JSON.stringify(body)?.slice(0, 300)}\n`}→ ${sent.answer.status} ${JSON.stringify(sent.answer.headers).slice(0, 300)}\n${sent.answer.body.slice(0, 300)}`
}

const restMethodArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'HEAD') },
  { weight: 4, arbitrary: fc.constantFrom(...METHODS.filter((m) => m !== 'CONNECT')) },
)

/**
 * A method and headers. Preflights get a branch of their own: OPTIONS with both an Origin and an
 * Access-Control-Request-Method is otherwise about one request in three hundred.
 */
const restRequestArb = fc.oneof(
  { weight: 9, arbitrary: fc.tuple(restMethodArb, headersArb) },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('OPTIONS'),
      fc
        .tuple(headersArb, fc.constantFrom('https://agent.example', 'null'), fc.constantFrom('GET', 'POST', 'DELETE'))
        .map(([headers, origin, requested]) => ({ ...headers, origin, 'access-control-request-method': requested })),
    ),
  },
)

// ------------------------------------------------------------------------------------------------

/** What the generated requests reached, so a generator that stops covering the table fails the test. */
function tally(seen: Map<string, number>, key: string): void {
  seen.set(key, (seen.get(key) ?? 0) + 1)
}

describe('REST: any path under /api/agent/v1, any method, any headers', () => {
  it('answers with the contract: 200 body of its schema, or problem+json 404/405/429/503 with the exact code; 204 preflights', async () => {
    const seen = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(pathArb, restRequestArb, clientArb, async (target, [method, headers], client) => {
        const sent = await send(method, target, { ...headers, 'x-forwarded-for': client })
        expect(sent.outcome.end, describeSent(sent)).toBe('answered')
        const problems = restAnswerProblems({ method, target, headers: sent.headers, baseUrl: BASE, mayBeDisabled: sent.disabled }, sent.answer)
        expect(problems, describeSent(sent)).toEqual([])
        expect([200, 204, 404, 405, 429, 503]).toContain(sent.answer.status)
        if (sent.disabled && sent.answer.status !== 204) expect(sent.answer.status).toBe(503)
        tally(seen, sent.answer.status === 404 ? `404 ${JSON.parse(sent.answer.body || '{"code":"HEAD"}').code}` : String(sent.answer.status))
      }),
      { numRuns: 400 },
    )
    const reached = [...seen.keys()].sort()
    for (const key of ['200', '204', '404 agent_endpoint_not_found', '404 agent_resource_not_found', '405', '503'])
      expect(reached, JSON.stringify([...seen])).toContain(key)
  }, 120_000)

  it('a client past its burst gets the exact 429 on every path (CORS preflights spend nothing: 204)', async () => {
    const hot = ipv4Client(125_000)
    const drain = async () => {
      for (let i = 0; i < 200; i++) if ((await send('GET', `${API}/health`, { 'x-forwarded-for': hot })).answer.status === 429) return
    }
    let refused = 0
    let runs = 0
    await fc.assert(
      fc.asyncProperty(pathArb, fc.constantFrom('GET', 'HEAD', 'POST', 'DELETE', 'TRACE', 'OPTIONS'), headersArb, async (target, method, headers) => {
        const { cookie: _cookie, ...rest } = headers
        await drain()
        const sent = await send(method, target, { ...rest, 'x-forwarded-for': hot })
        runs++
        const preflight = method === 'OPTIONS' && rest['access-control-request-method'] !== undefined
        expect(restAnswerProblems({ method, target, headers: sent.headers, baseUrl: BASE }, sent.answer), describeSent(sent)).toEqual([])
        if (preflight) expect(sent.answer.status).toBe(204)
        else if (sent.answer.status === 429) refused++
        // Otherwise a token came back (one per 500 ms) between the drain and this request: it spent it.
        else expect(sent.answer.headers['ratelimit-remaining'], describeSent(sent)).toBe('0')
      }),
      { numRuns: 80 },
    )
    expect(refused).toBeGreaterThanOrEqual(runs * 0.5)
  }, 60_000)
})

// ------------------------------------------------------------------------------------------------
// MCP

const MODERN = '2026-07-28'
const toolNames = ['service.get_public_capabilities', 'service.list_public_resources', 'service.read_public_resource', 'service.nope']
const uris = ['service://public/product-overview', 'service://public/agent-boundaries', 'service://public/nope', 'file:///etc/passwd']
const mcpMethodArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'server/discover',
      'resources/list',
      'resources/read',
      'resources/templates/list',
      'tools/list',
      'tools/call',
      'initialize',
      'ping',
      'notifications/initialized',
      'notifications/cancelled',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'prompts/list',
      'subscriptions/listen',
      'logging/setLevel',
      'completion/complete',
      'tasks/get',
      '__proto__',
      'constructor',
      'toString',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 16 }) },
)
const envelopeArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .constantFrom(...MCP_SUPPORTED_PROTOCOL_VERSIONS)
      .map((v) => ({ 'io.modelcontextprotocol/protocolVersion': v, 'io.modelcontextprotocol/clientCapabilities': {} })),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        'io.modelcontextprotocol/protocolVersion': fc.oneof(fc.constantFrom(MODERN, '2025-11-25', '1999-01-01'), fc.jsonValue()),
        'io.modelcontextprotocol/clientCapabilities': fc.oneof(fc.constant({}), fc.jsonValue()),
        'io.modelcontextprotocol/clientInfo': fc.oneof(fc.constant({ name: 'p', version: '1' }), fc.jsonValue()),
        'io.modelcontextprotocol/logLevel': fc.constantFrom('info', 'loud'),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue() },
)
const paramsArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        name: fc.oneof(fc.constantFrom(...toolNames), fc.string({ maxLength: 12 })),
        uri: fc.oneof(fc.constantFrom(...uris), fc.string({ maxLength: 12 })),
        arguments: fc.oneof(fc.constantFrom({}, { resourceId: 'product-overview' }, { resourceId: 'nope' }), fc.jsonValue()),
        protocolVersion: fc.constantFrom(...MCP_SUPPORTED_PROTOCOL_VERSIONS, '2024-11-05'),
        capabilities: fc.constant({}),
        clientInfo: fc.constant({ name: 'p', version: '1' }),
        cursor: fc.oneof(fc.string({ maxLength: 8 }), fc.jsonValue()),
        _meta: envelopeArb,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue() },
)
const idArb = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 4, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.oneof(fc.double(), fc.constant(null), fc.jsonValue()) },
)
const messageArb = fc.record(
  { jsonrpc: fc.constantFrom('2.0', '2.0', '2.0', '1.0'), id: idArb, method: mcpMethodArb, params: paramsArb },
  { requiredKeys: ['jsonrpc', 'method'] },
)
/** A legacy batch that can succeed: requests and notifications with unique ids. */
const legacyBatchArb = fc
  .uniqueArray(fc.integer({ min: 1, max: 1_000 }), { minLength: 1, maxLength: 6 })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc.constantFrom(
          { jsonrpc: '2.0', id, method: 'ping' },
          { jsonrpc: '2.0', id, method: 'tools/list' },
          { jsonrpc: '2.0', method: 'notifications/initialized' },
        ),
      ),
    ),
  )
const bodyArb = fc.oneof(
  { weight: 12, arbitrary: messageArb },
  { weight: 1, arbitrary: fc.array(messageArb, { maxLength: 22 }) },
  { weight: 1, arbitrary: legacyBatchArb },
  { weight: 1, arbitrary: fc.jsonValue() },
)

/** A header value as sent: plain ASCII, else (for Mcp-Name) the Base64 sentinel, else left out. */
function headerFor(value: unknown, sentinel: boolean): string | undefined {
  if (typeof value !== 'string') return undefined
  if (/^[\x20-\x7e]*$/.test(value)) return value
  return sentinel ? `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=` : undefined
}

/** Mirrored headers: agreeing with the body, disagreeing, missing, or arbitrary. */
const mostly = <T>(usual: T, ...others: T[]) =>
  fc.oneof({ weight: 6, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...others) })
const mirrorArb = fc.record({
  version: mostly('body', 'none', MODERN, '2025-06-18', '2024-11-05', 'x'),
  method: mostly('body', 'none', 'tools/list', 'x'),
  name: mostly('body', 'none', 'service.nope'),
  contentType: mostly(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'text/plain',
    'none',
    'application/x-www-form-urlencoded',
  ),
  accept: mostly('application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*', 'none', 'text/html'),
  origin: mostly('none', BASE, 'https://evil.example', 'null', 'http://localhost'),
})

interface Mirror {
  version: string
  method: string
  name: string
  contentType: string
  accept: string
  origin: string
}

function mcpHeaders(body: unknown, mirror: Mirror): Record<string, string> {
  const message = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, any>) : {}
  const params = typeof message.params === 'object' && message.params !== null ? message.params : {}
  const metaVersion = params?._meta?.['io.modelcontextprotocol/protocolVersion']
  const headers: Record<string, string | undefined> = {
    'content-type': mirror.contentType === 'none' ? undefined : mirror.contentType,
    accept: mirror.accept === 'none' ? undefined : mirror.accept,
    origin: mirror.origin === 'none' ? undefined : mirror.origin,
    'mcp-protocol-version':
      mirror.version === 'none' ? undefined : mirror.version === 'body' ? headerFor(metaVersion ?? '2025-11-25', false) : mirror.version,
    'mcp-method': mirror.method === 'none' ? undefined : mirror.method === 'body' ? headerFor(message.method, false) : mirror.method,
    'mcp-name':
      mirror.name === 'none'
        ? undefined
        : mirror.name === 'body'
          ? headerFor(message.method === 'resources/read' ? params?.uri : params?.name, true)
          : mirror.name,
  }
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined))
}

describe('MCP: arbitrary JSON-RPC-ish bodies and headers on POST /mcp', () => {
  it('answers with a status of the decisions table, a JSON-RPC body whose code fits that status, id echoed or null, error.data.code where required', async () => {
    const seen = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(bodyArb, mirrorArb, clientArb, fc.option(cookieArb, { nil: undefined }), async (rawBody, mirror, client, cookie) => {
        const text = JSON.stringify(rawBody) ?? 'null'
        const body = JSON.parse(text)
        const headers = { ...mcpHeaders(body, mirror), 'x-forwarded-for': client, ...(cookie === undefined ? {} : { cookie }) }
        const sent = await send('POST', '/mcp', headers, text)
        expect(sent.outcome.end, describeSent(sent, body)).toBe('answered')
        expect(mcpAnswerProblems({ body, mayBeDisabled: sent.disabled }, sent.answer), describeSent(sent, body)).toEqual([])
        const payload = sent.answer.body ? JSON.parse(sent.answer.body) : null
        tally(seen, `${sent.answer.status} ${Array.isArray(payload) ? 'batch' : (payload?.error?.code ?? (payload ? 'result' : 'empty'))}`)
      }),
      { numRuns: 600 },
    )
    const reached = [...seen.keys()]
    const expected = [
      '200 result',
      '200 batch',
      '200 -32602',
      '202 empty',
      '400 -32600',
      '400 -32020',
      '400 -32602',
      '400 -32022',
      '403 -32600',
      '404 -32601',
      '415 -31415',
      '503 -31503',
    ]
    for (const key of expected) expect(reached, JSON.stringify([...seen].sort())).toContain(key)
  }, 180_000)

  it('a well-formed 2026-07-28 request with agreeing headers gets a result (or an in-band -32602) with its id', async () => {
    const served = fc.constantFrom(
      ['server/discover', {}],
      ['resources/list', {}],
      ['tools/list', {}],
      ['resources/read', { uri: 'service://public/product-overview' }],
      ['resources/read', { uri: 'service://public/nope' }],
      ['tools/call', { name: 'service.read_public_resource', arguments: { resourceId: 'agent-boundaries' } }],
      ['tools/call', { name: 'service.get_public_capabilities', arguments: {} }],
    ) as fc.Arbitrary<[string, Record<string, unknown>]>
    await fc.assert(
      fc.asyncProperty(served, fc.oneof(fc.string({ maxLength: 20 }), fc.integer()), clientArb, async ([method, params], id, client) => {
        const body = {
          jsonrpc: '2.0',
          id,
          method,
          params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } },
        }
        const name = (params.name ?? params.uri) as string | undefined
        const headers = {
          'content-type': 'application/json',
          accept: 'application/json',
          'mcp-protocol-version': MODERN,
          'mcp-method': method,
          ...(name ? { 'mcp-name': name } : {}),
          'x-forwarded-for': client,
        }
        const sent = await send('POST', '/mcp', headers, JSON.stringify(body))
        expect(sent.answer.status, describeSent(sent, body)).toBe(200)
        const payload = JSON.parse(sent.answer.body)
        expect(payload.id).toBe(id)
        if (name === 'service://public/nope')
          expect(payload.error).toMatchObject({ code: -32602, data: { code: 'agent_resource_not_found', uri: name } })
        else expect(payload.result).toBeTypeOf('object')
        expect(mcpAnswerProblems({ body }, sent.answer)).toEqual([])
      }),
      { numRuns: 100 },
    )
  }, 60_000)

  it('anything but JSON or a JSON-RPC object: -32700 or -32600 with a null id', async () => {
    const notRequest = fc.oneof(
      fc
        .string({ maxLength: 30 })
        .filter((s) => {
          try {
            JSON.parse(s)
            return false
          } catch {
            return true
          }
        })
        .map((s) => ({ text: s, code: -32700 })),
      fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.boolean(), fc.constant(null)).map((v) => ({ text: JSON.stringify(v), code: -32600 })),
    )
    await fc.assert(
      fc.asyncProperty(notRequest, clientArb, async ({ text, code }, client) => {
        const sent = await send(
          'POST',
          '/mcp',
          { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25', 'x-forwarded-for': client },
          text,
        )
        expect(sent.answer.status, describeSent(sent, text)).toBe(400)
        expect(JSON.parse(sent.answer.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } })
      }),
      { numRuns: 100 },
    )
  }, 60_000)

  it('any method but POST on /mcp: 405, Allow: POST, -31405 mcp_method_not_allowed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS.filter((m) => m !== 'POST' && m !== 'CONNECT')),
        headersArb,
        clientArb,
        async (method, headers, client) => {
          const { origin: _origin, ...rest } = headers
          const sent = await send(method, '/mcp', { ...rest, 'x-forwarded-for': client })
          expect(sent.answer.status, describeSent(sent)).toBe(405)
          expect(sent.answer.headers.allow).toBe('POST')
          if (method !== 'HEAD') {
            expect(JSON.parse(sent.answer.body)).toMatchObject({ id: null, error: { code: -31405, data: { code: 'mcp_method_not_allowed' } } })
            expect(mcpAnswerProblems({}, sent.answer), describeSent(sent)).toEqual([])
          }
        },
      ),
      { numRuns: 100 },
    )
  }, 60_000)
})
