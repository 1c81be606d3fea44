/**
 * Property-based tests (fast-check) of the pieces every request goes through: negotiation, the MCP
 * endpoint in-process (its checks, the SDK's ladder, the error mapping), client identity, the token
 * bucket, the Node → Fetch adapter and the MCP tools. Each property holds for every generated input.
 */
import { METHODS } from 'node:http'
import type { IncomingMessage } from 'node:http'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildAgentCatalog } from '../../lib/agent/catalog.ts'
import { createClientAddressResolver } from '../../lib/client-address.ts'
import { loadContent } from '../../lib/content/parse.ts'
import { MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../../lib/contract/constants.ts'
import { parseConfig } from '../../lib/env.ts'
import { toAgentRequest } from '../../lib/http/node-adapter.ts'
import { parseAccept, prefersMarkdown, qualityOf } from '../../lib/http/negotiate.ts'
import { buildMcpCatalog } from '../../lib/mcp/catalog.ts'
import { handleMcpRequest } from '../../lib/agent-routes.ts'
import { canonicalIpAddress, quotaBucketKey } from '../../lib/net/ip-address.ts'
import { MemoryQuotaStore } from '../../lib/quota/memory-store.ts'
import { quotaHeaderValues } from '../../lib/quota/token-bucket.ts'
import { buildSite } from '../../lib/site-model.ts'
import { mcpAnswerProblems, type Answer } from '../../harness/contract-answers.ts'

const RUNS = { numRuns: 500 }

/** Header-ish text: mostly token and separator characters, some obs-text and controls. */
const headerText = fc.string({
  unit: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...'text/markdown,;q=0.5*"\\ html application json'.split('')) },
    { weight: 2, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)) },
  ),
  maxLength: 120,
})

describe('Accept negotiation (lib/http/negotiate.ts)', () => {
  it('never throws, and every parsed range is well-formed', () => {
    fc.assert(
      fc.property(fc.oneof(headerText, fc.string({ unit: 'grapheme', maxLength: 60 })), (accept) => {
        const ranges = parseAccept(accept)
        for (const range of ranges) {
          expect(range.q).toBeGreaterThanOrEqual(0)
          expect(range.q).toBeLessThanOrEqual(1)
          expect(range.type).toBe(range.type.toLowerCase())
          expect(range.subtype).toBe(range.subtype.toLowerCase())
          expect(range.type === '*' && range.subtype !== '*').toBe(false)
        }
        expect(typeof prefersMarkdown(accept)).toBe('boolean')
        const q = qualityOf(ranges, 'text/html')
        expect(q >= 0 && q <= 1).toBe(true)
      }),
      RUNS,
    )
  })

  const mediaRange = fc
    .record({
      type: fc.constantFrom('text/markdown', 'text/html', 'text/*', '*/*', 'application/json', 'text/plain'),
      q: fc.option(fc.constantFrom('0', '0.1', '0.5', '0.8', '0.999', '1', '1.0'), { nil: undefined }),
    })
    .map(({ type, q }) => (q === undefined ? type : `${type};q=${q}`))

  it('does not depend on the order of the media ranges', () => {
    fc.assert(
      fc.property(fc.array(mediaRange, { maxLength: 6 }), fc.nat(), (ranges, seed) => {
        const shuffled = [...ranges].sort((a, b) => ((a.length * 31 + seed) % 7) - ((b.length * 31 + seed) % 7))
        expect(prefersMarkdown(shuffled.join(', '))).toBe(prefersMarkdown(ranges.join(', ')))
      }),
      RUNS,
    )
  })

  it('is Markdown exactly when text/markdown is named with q > 0 and at least the q of text/html', () => {
    fc.assert(
      fc.property(fc.array(mediaRange, { maxLength: 6 }), (ranges) => {
        const q = (text: string) => (text.includes(';q=') ? Number(text.split(';q=')[1]) : 1)
        const named = ranges.filter((r) => r.startsWith('text/markdown')).map(q)
        const markdown = named.length ? Math.max(...named) : null
        const html = qualityOf(parseAccept(ranges.join(', ')), 'text/html')
        expect(prefersMarkdown(ranges.join(', '))).toBe(markdown !== null && markdown > 0 && markdown >= html)
      }),
      RUNS,
    )
  })
})

const methodArb = fc.oneof(
  fc.constantFrom(
    'server/discover',
    'resources/list',
    'resources/read',
    'tools/list',
    'tools/call',
    'initialize',
    'ping',
    'notifications/initialized',
    'subscriptions/listen',
    '__proto__',
  ),
  fc.string({ maxLength: 20 }),
)
const versionArb = fc.constantFrom(...MCP_SUPPORTED_PROTOCOL_VERSIONS, '2024-11-05', 'garbage', '')
const metaArb = fc.oneof(
  fc.record(
    {
      'io.modelcontextprotocol/protocolVersion': fc.oneof(versionArb, fc.jsonValue()),
      'io.modelcontextprotocol/clientCapabilities': fc.oneof(fc.constant({}), fc.jsonValue()),
      'io.modelcontextprotocol/clientInfo': fc.oneof(fc.constant({ name: 'p', version: '1' }), fc.jsonValue()),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
)
const messageArb = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '2.0', '1.0', 2),
    id: fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.double(), fc.constant(null), fc.jsonValue()),
    method: methodArb,
    params: fc.oneof(
      fc.record(
        { name: fc.string({ maxLength: 12 }), uri: fc.string({ maxLength: 12 }), arguments: fc.jsonValue(), _meta: metaArb },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    ),
  },
  { requiredKeys: [] },
)
const bodyArb = fc.oneof(
  { weight: 6, arbitrary: messageArb },
  { weight: 1, arbitrary: fc.array(messageArb, { maxLength: 25 }) },
  { weight: 1, arbitrary: fc.jsonValue() },
)
const mirroredArb = fc.record(
  {
    protocolVersion: fc.oneof(versionArb, headerText),
    method: fc.oneof(methodArb, headerText),
    name: fc.oneof(fc.string({ maxLength: 12 }), headerText),
  },
  { requiredKeys: [] },
)

/**
 * The MCP endpoint in-process (lib/mcp/handler.ts: the contract's checks before dispatch, the SDK's
 * classifier mapped onto the table, then the SDK), each request from its own client address so that the
 * quota never decides the answer.
 */
describe('the MCP endpoint (lib/mcp/handler.ts) over arbitrary bodies and mirrored headers', () => {
  process.env.BASE_URL = 'https://agents.example.com'
  let client = 0
  const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/
  async function post(body: unknown, mirrored: { protocolVersion?: string; method?: string; name?: string }, accept?: string): Promise<Answer> {
    client++
    const headers = new Headers({
      host: '127.0.0.1:3000',
      'content-type': 'application/json',
      'x-forwarded-for': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`,
    })
    const named = { 'mcp-protocol-version': mirrored.protocolVersion, 'mcp-method': mirrored.method, 'mcp-name': mirrored.name, accept }
    // What an HTTP client can send at all: field values without controls.
    for (const [name, value] of Object.entries(named)) if (value !== undefined && FIELD_VALUE.test(value)) headers.set(name, value)
    const response = await handleMcpRequest(
      new Request('http://127.0.0.1:3000/mcp', { method: 'POST', headers, body: JSON.stringify(body) ?? 'null' }),
    )
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() }
  }
  const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }

  it('answers with a status of the decisions table and a JSON-RPC body whose code fits it, id echoed or null, error.data.code where required', async () => {
    await fc.assert(
      fc.asyncProperty(bodyArb, mirroredArb, async (rawBody, mirrored) => {
        const body = JSON.parse(JSON.stringify(rawBody) ?? 'null')
        const answer = await post(body, mirrored)
        expect(
          mcpAnswerProblems({ body }, answer),
          `${JSON.stringify(mirrored)} ${JSON.stringify(body)?.slice(0, 300)} → ${answer.status} ${answer.body.slice(0, 300)}`,
        ).toEqual([])
      }),
      { numRuns: 2_000 },
    )
  }, 120_000)

  it('serves a well-formed 2026-07-28 request with agreeing headers, whatever its method and id: a result or an in-band error, or 404 -32601', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[a-z]{1,10}(\/[a-z]{1,10})?$/),
        fc.oneof(fc.string({ maxLength: 10 }), fc.integer()),
        async (method, id) => {
          fc.pre(
            method !== 'initialize' && !['tools/call', 'resources/read', 'prompts/get', 'tasks/get', 'tasks/update', 'tasks/cancel'].includes(method),
          )
          const answer = await post({ jsonrpc: '2.0', id, method, params: { _meta: envelope } }, { protocolVersion: '2026-07-28', method })
          const payload = JSON.parse(answer.body)
          expect(payload.id).toBe(id)
          if (answer.status === 404) expect(payload.error.code).toBe(-32601)
          else
            expect([answer.status, payload.error?.code ?? 'result']).toSatisfy(
              ([status, code]) => status === 200 && ['result', -32601, -32602].includes(code),
            )
        },
      ),
      RUNS,
    )
  }, 60_000)

  it('refuses a 2026-07-28 request whose Mcp-Method disagrees with the body: 400, -32020, id echoed, mcp_header_mismatch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-z/]{1,12}$/), fc.stringMatching(/^[a-z/]{1,12}$/), fc.integer(), async (method, header, id) => {
        fc.pre(method !== header && method !== 'initialize')
        const answer = await post({ jsonrpc: '2.0', id, method, params: { _meta: envelope } }, { protocolVersion: '2026-07-28', method: header })
        const { id: echoed, error } = JSON.parse(answer.body)
        expect([answer.status, echoed, error.code, error.data.code]).toEqual([400, id, -32020, 'mcp_header_mismatch'])
      }),
      RUNS,
    )
  }, 60_000)

  it('reads an Mcp-Name Base64 sentinel as the UTF-8 it encodes, whatever the string: never a mismatch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), async (uri) => {
        const name = `=?base64?${Buffer.from(uri, 'utf8').toString('base64')}?=`
        const answer = await post(
          { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri, _meta: envelope } },
          { protocolVersion: '2026-07-28', method: 'resources/read', name },
        )
        expect(answer.status).toBe(200)
        expect(JSON.parse(answer.body).error?.data?.code).toBe('agent_resource_not_found')
      }),
      RUNS,
    )
  }, 60_000)
})

describe('client identity (lib/client-address.ts, lib/net/ip-address.ts)', () => {
  const resolve = createClientAddressResolver(['127.0.0.1'])
  const address = fc.oneof(fc.ipV4(), fc.ipV6())

  it('never throws for any forwarded chain, and answers an address or "unknown"', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          headerText,
          fc.array(fc.oneof(address, headerText), { maxLength: 5 }).map((a) => a.join(',')),
        ),
        fc.option(address, { nil: undefined }),
        (chain, peer) => {
          const client = resolve(peer, chain)
          expect(client === 'unknown' || canonicalIpAddress(client) === client).toBe(true)
          expect(typeof quotaBucketKey(client)).toBe('string')
        },
      ),
      RUNS,
    )
  })

  it('behind the trusted proxy, the hop it appended decides; whatever the client put before it is ignored', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(address, headerText), { maxLength: 4 }), address, (spoofed, client) => {
        fc.pre(!['127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1'].includes(client))
        const canonical = canonicalIpAddress(client) as string
        fc.pre(canonical !== '127.0.0.1')
        expect(resolve('127.0.0.1', [...spoofed.map((s) => s.replace(/,/g, '')), client].join(', '))).toBe(canonical)
        expect(resolve('198.51.100.7', `${client}`)).toBe('198.51.100.7')
      }),
      RUNS,
    )
  })

  it('every IPv6 address of a /64 shares one bucket', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }),
        fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 }),
        (words, suffix) => {
          fc.pre(!(words[0] === 0 && words[1] === 0 && words[2] === 0 && words[3] === 0))
          const a = words.map((w) => w.toString(16)).join(':')
          const b = [...words.slice(0, 4), ...suffix].map((w) => w.toString(16)).join(':')
          expect(quotaBucketKey(a)).toBe(quotaBucketKey(b))
        },
      ),
      RUNS,
    )
  })
})

describe('the token bucket (lib/quota)', () => {
  it('admits at most 150 + one per 500 ms, and every answer has the header values of standards §1.4', () => {
    const gap = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 20 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 3_000 }) })
    fc.assert(
      fc.property(fc.array(gap, { minLength: 1, maxLength: 400 }), (gaps) => {
        const store = new MemoryQuotaStore()
        const start = 1_800_000_000_000
        let now = start
        let admitted = 0
        let refused = 0
        for (const gap of gaps) {
          now += gap
          const decision = store.consume('client', now)
          const values = quotaHeaderValues(decision, now)
          expect(values.limit).toBe(150)
          if (decision.allowed) {
            admitted++
            expect(values.remaining).toBeGreaterThanOrEqual(0)
            expect(values.remaining).toBeLessThanOrEqual(149)
            expect(values.reset).toBe(Math.ceil((150 - values.remaining) / 2))
            expect(values.retryAfter).toBeNull()
          } else {
            refused++
            expect([values.remaining, values.reset, values.retryAfter]).toEqual([0, 1, 1])
          }
          expect(admitted).toBeLessThanOrEqual(150 + Math.floor((now - start) / 500))
        }
        // The first 150 requests are never refused.
        if (gaps.length <= 150) expect(refused).toBe(0)
      }),
      { numRuns: 300 },
    )
  })
})

describe('the Node request as the handlers read it (lib/http/node-adapter.ts toAgentRequest)', () => {
  function nodeRequest(method: string, url: string, rawHeaders: string[]): IncomingMessage {
    return { method, url, rawHeaders } as unknown as IncomingMessage
  }
  // What Node's parser lets through in a field value: HTAB, visible ASCII, space and obs-text.
  const fieldValue = fc.string({
    unit: fc.oneof(fc.constant(9), fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })).map((c) => String.fromCharCode(c)),
    maxLength: 30,
  })

  it('keeps every method Node parses (TRACE included), the absolute URL and the delivery the server decided, and reads each header as a Fetch Headers of the same fields does', () => {
    const methods = METHODS.filter((m) => m !== 'CONNECT')
    fc.assert(
      fc.property(
        fc.constantFrom(...methods),
        fc.array(fc.tuple(fc.constantFrom('Accept', 'accept', 'X-Custom', 'Cookie', 'MCP-Method', 'mcp-method', 'Content-Length'), fieldValue), {
          maxLength: 8,
        }),
        fc.uint8Array({ maxLength: 64 }),
        (method, fields, body) => {
          const delivery = { clientAddress: '198.51.100.7', compressAnswer: true }
          const request = toAgentRequest(nodeRequest(method, '/api/agent/v1/health?x=1', fields.flat()), 'http://127.0.0.1:3000', body, delivery)
          expect(request.method).toBe(method)
          expect(request.clientAddress).toBe('198.51.100.7')
          expect(request.compressAnswer).toBe(true)
          expect(request.url).toBe('http://127.0.0.1:3000/api/agent/v1/health?x=1')
          expect(request.bytes).toBe(body)
          const fetchHeaders = new Headers()
          for (const [name, value] of fields) fetchHeaders.append(name, value)
          for (const name of ['accept', 'ACCEPT', 'x-custom', 'cookie', 'mcp-method', 'Mcp-Method', 'content-length', 'absent']) {
            expect(request.headers.get(name), name).toBe(fetchHeaders.get(name))
            expect(request.headers.has(name), name).toBe(fetchHeaders.has(name))
          }
          expect([...request.headers.keys()].sort()).toEqual([...fetchHeaders.keys()].sort())
        },
      ),
      RUNS,
    )
  })
})

describe('MCP tools (lib/mcp/catalog.ts)', () => {
  const site = buildSite(parseConfig({ BASE_URL: 'https://agents.example.com' }), loadContent())
  const mcp = buildMcpCatalog(site, buildAgentCatalog(site))

  it('answer any arguments with a result or a tool error, never by throwing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...mcp.tools.keys()), fc.oneof(fc.jsonValue(), fc.record({ resourceId: fc.jsonValue() })), (name, args) => {
        const result = mcp.tools.get(name)?.call(args)
        expect(result?.content?.[0]?.type).toBe('text')
        if (result?.isError) expect(typeof (result.content[0] as { text?: unknown }).text).toBe('string')
        else expect(typeof result?.structuredContent).toBe('object')
      }),
      RUNS,
    )
  })

  it('a deeply nested resourceId is a tool error naming the valid ids (it overflowed JSON.stringify)', () => {
    let nested: unknown = []
    for (let i = 0; i < 50_000; i++) nested = [nested]
    expect(mcp.tools.get('service.read_public_resource')?.call({ resourceId: nested })).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'The argument resourceId must be a string, not an array. Valid ids: product-overview, developer-resources, agent-boundaries. service.list_public_resources lists them.',
        },
      ],
    })
  })
})
