/**
 * Regressions of what the soak and the property tests found in `npm start`: TRACE (500), Upgrade
 * offers (no answer), a nested tool argument (-32603), a malformed initialize with an odd version
 * header (400 -32000), slow senders cut off up to 30 s late, stalled readers never. All fixed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IDLE_SOCKET_TIMEOUT_MS, SERVER_TIMEOUTS } from '../../lib/server/server-options.ts'
import { rawExchange, type Outcome } from '../../harness/raw-exchange.ts'
import { mcpAnswerProblems, restAnswerProblems } from '../../harness/contract-answers.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

const BASE = 'https://agents.example.com'
let site: RunningSite

beforeAll(async () => {
  site = await startSite()
})
afterAll(async () => {
  await site?.stop()
})

function send(payload: string, options: { expectAnswers?: number; head?: boolean } = {}): Promise<Outcome> {
  return rawExchange(site.port, { payload, expectAnswers: options.expectAnswers ?? 1, headMethods: [options.head ?? false] }, 10_000)
}

const host = () => `Host: 127.0.0.1:${site.port}\r\n`
const text = (outcome: Outcome, index = 0) => outcome.answers[index]?.body.toString('utf8') ?? ''
const answer = (outcome: Outcome, index = 0) => ({
  status: outcome.answers[index]?.status ?? 0,
  headers: outcome.answers[index]?.headers ?? {},
  body: text(outcome, index),
})

describe('TRACE (a method Fetch cannot represent) is refused with 405, never a 500', () => {
  it('on a REST path: the problem+json 405 of decisions.md', async () => {
    const outcome = await send(`TRACE /api/agent/v1/health HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`)
    expect(outcome.answers[0]?.status).toBe(405)
    expect(outcome.answers[0]?.headers.allow).toBe('GET, HEAD')
    expect(JSON.parse(text(outcome))).toMatchObject({ status: 405, code: 'method_not_allowed', instance: `${BASE}/api/agent/v1/health` })
    expect(restAnswerProblems({ method: 'TRACE', target: '/api/agent/v1/health', baseUrl: BASE }, answer(outcome))).toEqual([])
  })

  it('on /mcp: HTTP 405, JSON-RPC -31405, mcp_method_not_allowed, naming TRACE', async () => {
    const outcome = await send(`TRACE /mcp HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`)
    expect(outcome.answers[0]?.status).toBe(405)
    expect(outcome.answers[0]?.headers.allow).toBe('POST')
    const payload = JSON.parse(text(outcome))
    expect(payload).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -31405, data: { code: 'mcp_method_not_allowed' } } })
    expect(payload.error.data.detail).toMatch(/^TRACE is not served on the MCP endpoint\./)
    expect(mcpAnswerProblems({}, answer(outcome))).toEqual([])
  })

  it.each(['/', '/openapi.json', '/problems/rate_limit_exceeded', '/pricing', '/no-such-page'])('on %s: 405 with Allow: GET, HEAD', async (path) => {
    const outcome = await send(`TRACE ${path} HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`)
    expect(outcome.answers[0]?.status).toBe(405)
    expect(outcome.answers[0]?.headers.allow).toBe('GET, HEAD')
    expect(text(outcome)).toBe('Method not allowed: this address answers GET and HEAD.\n')
  })
})

describe('a request offering an Upgrade is answered as HTTP/1.1 (RFC 9110 §7.8), not dropped', () => {
  const h2c = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n'

  it('curl --http2 on REST gets the health document', async () => {
    const first = `GET /api/agent/v1/health HTTP/1.1\r\n${host()}${h2c}\r\n`
    const outcome = await rawExchange(site.port, { payload: first, expectAnswers: 1 }, 10_000)
    expect(outcome.end).toBe('answered')
    expect(outcome.answers[0]?.status).toBe(200)
    expect(JSON.parse(text(outcome))).toMatchObject({ status: 'ok', access: 'public_read_only' })
  })

  it('a WebSocket handshake on /mcp gets the MCP answer to the POST', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })
    const outcome = await send(
      `POST /mcp HTTP/1.1\r\n${host()}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
        `Content-Type: application/json\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    )
    expect(outcome.answers[0]?.status).toBe(200)
    expect(JSON.parse(text(outcome))).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })

  it.each(['/', '/openapi.json', '/pricing'])('%s with Upgrade: h2c gets its page', async (path) => {
    const outcome = await send(`GET ${path} HTTP/1.1\r\n${host()}${h2c}\r\n`)
    expect(outcome.end).toBe('answered')
    expect(outcome.answers[0]?.status).toBe(200)
    expect(text(outcome).length).toBeGreaterThan(100)
  })
})

describe('a deeply nested tool argument is a tool error, not an internal error', () => {
  const nested = `${'['.repeat(20_000)}${']'.repeat(20_000)}`
  const toolError = {
    content: [
      {
        type: 'text',
        text: 'The argument resourceId must be a string, not an array. Valid ids: product-overview, developer-resources, agent-boundaries. service.list_public_resources lists them.',
      },
    ],
    isError: true,
  }

  it.each([
    ['legacy', 'MCP-Protocol-Version: 2025-11-25\r\n', ''],
    [
      '2026-07-28',
      'MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: service.read_public_resource\r\n',
      ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}',
    ],
  ])('%s', async (_label, headers, meta) => {
    const body = `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"service.read_public_resource","arguments":{"resourceId":${nested}}${meta}}}`
    const outcome = await send(
      `POST /mcp HTTP/1.1\r\n${host()}Connection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${headers}Content-Length: ${body.length}\r\n\r\n${body}`,
    )
    expect(outcome.answers[0]?.status).toBe(200)
    expect(JSON.parse(text(outcome))).toMatchObject({ jsonrpc: '2.0', id: 'deep', result: toolError })
  })
})

describe('an initialize negotiates whatever MCP-Protocol-Version says, even when its params are malformed', () => {
  it.each(['2024-11-05', 'x', '2026-07-28', '2025-06-18'])(
    'header %s: the in-band -32602 of a malformed initialize (was 400 -32000 for unsupported values)',
    async (version) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize' })
      const outcome = await send(
        `POST /mcp HTTP/1.1\r\n${host()}Connection: close\r\nContent-Type: application/json\r\nAccept: application/json\r\nMCP-Protocol-Version: ${version}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      )
      expect(outcome.answers[0]?.status).toBe(200)
      expect(JSON.parse(text(outcome))).toMatchObject({
        jsonrpc: '2.0',
        id: 0,
        error: { code: -32602, message: 'Invalid params: params: Invalid input: expected object, received undefined' },
      })
      expect(mcpAnswerProblems({ body: JSON.parse(body) }, answer(outcome))).toEqual([])
    },
  )
})

// The next two groups mostly wait for the server's real timeouts (10, 15 and 30 s); they use
// separate connections, so they wait at the same time.
describe.concurrent('too-slow clients are cut off within their bound', () => {
  const [min, max] = [SERVER_TIMEOUTS.headersTimeout - 250, SERVER_TIMEOUTS.headersTimeout + SERVER_TIMEOUTS.connectionsCheckingInterval + 1_500]

  it(`senders: headers trickled or never sent get a 408 after ${min}–${max} ms (clients 3 s apart); a reader that stops is dropped within 2 × ${IDLE_SOCKET_TIMEOUT_MS} ms`, async () => {
    const slowHeaders = () =>
      rawExchange(
        site.port,
        { payload: `GET /api/agent/v1/health HTTP/1.1\r\n${host()}`, trickle: { bytes: 'X-Slow: drip\r\n', everyMs: 400 } },
        20_000,
      )
    const idle = () => rawExchange(site.port, { payload: '' }, 20_000)
    // About 6 MB of answers the server would otherwise keep for as long as the client likes.
    const stalledReader = rawExchange(
      site.port,
      { payload: `GET /openapi.json HTTP/1.1\r\n${host()}\r\n`.repeat(200), neverRead: true },
      2 * IDLE_SOCKET_TIMEOUT_MS + 5_000,
    )
    // With the old 30 s check interval, at most one of two cut-offs 3 s apart could land in its window.
    const first = [slowHeaders(), idle()]
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    const senders = await Promise.all([...first, slowHeaders()])
    for (const outcome of senders) {
      expect(outcome.answers[0]?.status).toBe(408)
      expect(outcome.elapsedMs).toBeGreaterThanOrEqual(min)
      expect(outcome.elapsedMs).toBeLessThanOrEqual(max)
    }
    const reader = await stalledReader
    expect(reader.end).toBe('closed')
    expect(reader.elapsedMs).toBeGreaterThanOrEqual(IDLE_SOCKET_TIMEOUT_MS - 250)
    expect(reader.elapsedMs).toBeLessThanOrEqual(2 * IDLE_SOCKET_TIMEOUT_MS + 1_500)
  }, 60_000)
})

describe.concurrent('request bodies are read only where a route takes one', () => {
  // Headers announcing 2 MB, then only 100 bytes: a server waiting for the body would answer only
  // when the request timeout cuts the sender off, 30 s later.
  const partialUpload = (target: string) =>
    `POST ${target} HTTP/1.1\r\n${host()}Content-Type: application/json\r\nContent-Length: 2097152\r\nConnection: close\r\n\r\n${' '.repeat(100)}`

  it.each(['/api/agent/v1/health', '/pricing', '/openapi.json'])('%s answers at once, without reading the announced body', async (target) => {
    const started = performance.now()
    const outcome = await send(partialUpload(target))
    expect(outcome.answers[0]?.status).toBe(405)
    expect(outcome.answers[0]?.headers.allow).toBe('GET, HEAD')
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  it('/mcp waits for the body it reads, until the server gives up on the stalled sender', async () => {
    const started = performance.now()
    const outcome = await rawExchange(site.port, { payload: partialUpload('/mcp'), expectAnswers: 1 }, 40_000)
    expect(performance.now() - started).toBeGreaterThan(IDLE_SOCKET_TIMEOUT_MS - 1_000)
    expect(outcome.answers.map((a) => a.status)).not.toContain(200)
    expect(outcome.answers.every((a) => a.status === 408)).toBe(true)
  }, 45_000)
})

describe('slow bodies hold what they sent (and one window), not the body budget they announce', () => {
  const mcpPost = (framing: string) =>
    `POST /mcp HTTP/1.1\r\n${host()}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `MCP-Protocol-Version: 2025-11-25\r\n${framing}Connection: close\r\n\r\n`
  // Chunked, so the length is the route's limit (2 MB) as far as the server knows: two of them once
  // reserved the whole 4 MiB budget for the 30 s of the request timeout.
  const trickled = () =>
    rawExchange(
      site.port,
      { payload: `${mcpPost('Transfer-Encoding: chunked\r\n')}1000\r\n{"jsonrpc":"2.0",`, trickle: { bytes: ' ', everyMs: 500 } },
      12_000,
    )

  it('while two chunked bodies trickle in to /mcp, a 100 KB body gets 400 -32700 and a 2 MB + 1 byte body 413 -31413', async () => {
    const slow = [trickled(), trickled()]
    await new Promise((resolve) => setTimeout(resolve, 500))
    const sized = (bytes: number, body: string) => rawExchange(site.port, { payload: `${mcpPost(`Content-Length: ${bytes}\r\n`)}${body}` }, 10_000)
    const [unparsable, tooLarge] = await Promise.all([
      sized(100_000, `{${' '.repeat(99_999)}`),
      sized(2 * 1024 * 1024 + 1, ' '.repeat(2 * 1024 * 1024 + 1)),
    ])
    for (const [outcome, status, code] of [
      [unparsable, 400, -32700],
      [tooLarge, 413, -31413],
    ] as const) {
      expect(outcome.end).toBe('answered')
      expect(outcome.answers[0]?.status).toBe(status)
      expect(JSON.parse(text(outcome)).error.code).toBe(code)
      expect(mcpAnswerProblems({}, answer(outcome))).toEqual([])
    }
    await Promise.all(slow)
  }, 20_000)
})
