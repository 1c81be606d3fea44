/**
 * What the soak sends: valid traffic of every kind, greedy clients, and the hostile and slow requests
 * of one table (HOSTILE_ROWS, SLOW_ROWS): each row a request, how it is sent, and the class of answer
 * it must get. Every answer is judged by the one oracle of right answers (harness/contract-answers.ts);
 * how an exchange must end (answer, cut-off, close) is the runner's (run.ts).
 */
import {
  API_BASE_PATH,
  DEFAULT_SERVICE_NAME,
  MCP_LEGACY_PROTOCOL_VERSIONS,
  MCP_PATH,
  MCP_PROTOCOL_VERSION,
  PUBLIC_RESOURCE_IDS,
  RESOURCE_ID_PARAMETER,
} from '../../lib/contract/constants.ts'
import { mcpToolName, operationPath } from '../../lib/contract/operations.ts'
import { prefersMarkdown } from '../../lib/http/negotiate.ts'
import { IDLE_SOCKET_TIMEOUT_MS, SERVER_TIMEOUTS, cutOffBoundMs } from '../../lib/server/server-options.ts'
import {
  type Answer,
  type AnswerClass,
  answerClass,
  answerProblems,
  CONTRACT_DOCUMENTS,
  CONTRACT_PROBLEM_CODES,
  documentAnswerProblems,
  homepageAnswerProblems,
  type JudgedRequest,
  mcpAnswerProblems,
  pageAnswerProblems,
} from '../../harness/contract-answers.ts'
import { forwardedForm, integer, pick, type ClientPool, type Random } from './clients.ts'
import type { Answered, HttpSpec, RawPlan } from './wire.ts'

export const VALID_CATEGORIES = ['rest', 'mcp-modern', 'mcp-legacy', 'documents', 'homepage', 'pages', 'pipelined'] as const
export const HOSTILE_CATEGORIES = ['bad-path', 'bad-body', 'header-flood', 'hostile-cookie', 'wrong-method', 'garbage'] as const
export const SLOW_CATEGORIES = ['slow-headers', 'idle-connection', 'slow-body', 'slow-reader'] as const
type HostileCategory = (typeof HOSTILE_CATEGORIES)[number]
export type SlowCategory = (typeof SLOW_CATEGORIES)[number]
export type Category = (typeof VALID_CATEGORIES)[number] | HostileCategory | SlowCategory | 'quota-greedy'

/** The longest any ordinary request may take before it counts as a hang. */
export const HANG_MS = 10_000
/** Requests with 2 MB bodies get longer. */
const BIG_BODY_HANG_MS = 20_000
/** Scheduling slack on a loaded 2-core machine, added to the server's cut-off bounds. */
export const CUT_OFF_SLACK_MS = 2_000

export interface SoakCase {
  category: Category
  label: string
  send: { kind: 'http'; spec: HttpSpec } | { kind: 'raw'; plan: RawPlan }
  boundMs: number
  /**
   * `answer`: every expected answer must arrive; `answer-or-close`: the server may also refuse by closing
   * (oversized headers it stops reading); `close`: the server closes at once without an answer (CONNECT);
   * `cut-off`: a too-slow client the server must cut off (408 or close) inside `cutOffWindow`.
   */
  expect: 'answer' | 'answer-or-close' | 'close' | 'cut-off'
  cutOffWindow?: readonly [number, number]
  /** Problems of the answers (empty: each is the contract's answer). */
  judge?: (answers: Answer[]) => string[]
  /** Answers of GETs with the same key must have byte-identical 200 bodies. */
  consistencyKey?: string
  /** False for exchanges that wait on purpose (a slow reader): left out of the latency figures. */
  timed?: boolean
  /** Called with a 200 answer (learns ETags for conditional requests). */
  learn?: (answer: Answered) => void
}

export interface CaseContext {
  port: number
  baseUrl: string
  random: Random
  pool: ClientPool
  /** ETags seen per path and variant, for conditional requests. */
  etags: Map<string, string>
  /** A 2 MB + 1 byte filler, built once. */
  bigFiller: Buffer
}

const MODERN = MCP_PROTOCOL_VERSION
const LEGACY = MCP_LEGACY_PROTOCOL_VERSIONS
const API = API_BASE_PATH
/** The valid operation paths; hostile paths below are written out, as an attacker would. */
const PATH = {
  health: operationPath('getAgentHealth'),
  capabilities: operationPath('getPublicCapabilities'),
  resources: operationPath('listPublicResources'),
  resource: (id: string) => operationPath('getPublicResource', { [RESOURCE_ID_PARAMETER]: id }),
}
/** The soak's site runs with the default SERVICE_NAME. */
const TOOL = {
  capabilities: mcpToolName(DEFAULT_SERVICE_NAME, 'getPublicCapabilities'),
  list: mcpToolName(DEFAULT_SERVICE_NAME, 'listPublicResources'),
  read: mcpToolName(DEFAULT_SERVICE_NAME, 'getPublicResource'),
}
const { rest, mcp, status } = answerClass

export function toAnswer(answered: Answered): Answer {
  return { status: answered.status, headers: answered.headers, body: answered.body.toString('utf8') }
}

const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
const short = (text: string) => (text.length > 50 ? `${text.slice(0, 50)}… (${text.length} chars)` : text)

function parsedJson(text: string | Buffer): unknown {
  try {
    return JSON.parse(text.toString())
  } catch {
    return undefined
  }
}

/** One answer, judged against its class. */
function judgeOne(request: JudgedRequest, expected: AnswerClass): (answers: Answer[]) => string[] {
  return (answers) => (answers[0] ? answerProblems(request, answers[0], expected) : ['no answer'])
}

function envelope(version = MODERN) {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'soak', version: '1.0.0' },
  }
}

/** A JSON-RPC request of the 2026-07-28 protocol: the `_meta` envelope in its params. */
const request = (method: string, params: Record<string, unknown> = {}, id: string | number = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: envelope() },
})
/** The header lines of a 2026-07-28 request: the version and the mirrored method and name. */
function mirrored(method: string, name?: string): string {
  return `MCP-Protocol-Version: ${MODERN}\r\nMcp-Method: ${method}\r\n${name ? `Mcp-Name: ${name}\r\n` : ''}`
}
const JSON_POST = 'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n'
const OLD = 'MCP-Protocol-Version: 2025-11-25\r\n'

// ------------------------------------------------------------------------------------------------
// The hostile and slow table

/** A value fixed in the row, or picked anew (from a list, or by a function of the soak's state) each time the row is sent. */
type Varies<T> = T | readonly T[] | ((ctx: CaseContext) => T)

/**
 * How a row's request is sent:
 * `whole`: its exact bytes at once, on a connection of its own (the default);
 * `client`: through the keep-alive client, framed by Content-Length; `chunked`: the same, body chunked;
 * `slow-headers`: the head never ends, a header line trickled every 400 ms;
 * `slow-body`: the head whole, the body trickled a byte every 500 ms;
 * `idle`: connect and send nothing; `unread`: sent whole, and the answers never read.
 */
type How = 'whole' | 'client' | 'chunked' | 'slow-headers' | 'slow-body' | 'idle' | 'unread'

interface Row {
  label: string
  method?: Varies<string>
  target?: Varies<string>
  /** Header lines as sent (each ending in CRLF), after Host, X-Forwarded-For and Connection. */
  headers?: Varies<string>
  /** The body; an object is sent as its JSON. */
  body?: Varies<string | Buffer | object | typeof BIG>
  /** The whole message instead of one built from the fields above (`{host}`, `{client}`: this site, a client's X-Forwarded-For line). */
  raw?: Varies<string | Buffer>
  how?: How
  /** The answer's class; `close`: no answer, the server closes; `cut-off`: a 408 or a close, within the cut-off window. */
  expect: AnswerClass | 'close' | 'cut-off'
  /** The server may also refuse by closing (a head it stops reading). */
  orClose?: boolean
  /** The head's bytes as written, one byte per character (obs-text); else UTF-8. */
  latin1?: boolean
  /** What the body says for the judge when it is too deep to parse here. */
  sent?: unknown
  /** Request count and how many repeats (pipelined, never read). */
  repeat?: number
}

/** The filler body: 2 MB + 1 bytes, one more than POST /mcp takes. */
const BIG: unique symbol = Symbol('2 MB + 1')
const API_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'QUERY', 'SEARCH', 'PURGE', 'TRACE', 'OPTIONS', 'MKCOL', 'LINK']
const FORGED_OVERRIDES = [
  'vercel-flag-overrides=forged',
  'vercel-flag-overrides=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA',
  'vercel-flag-overrides=%7B%22public_agent_access%22%3Afalse%7D',
  'vercel-flag-overrides=',
  `vercel-flag-overrides=${'A'.repeat(4_000)}`,
  'vercel-flag-overrides=a; vercel-flag-overrides=b',
  'vercel-flag-overrides="quoted"; x=%E0%A4%A',
]
const ODD_COOKIES = ['a', '=;=;=', '"x', ';;;', 'x=%', '__Host-x=1; __Secure-y=2', '\t=\t']
/** A hostile Cookie header line: a forged flag override, one big cookie, hundreds of cookies, or an odd one. */
function cookie({ random }: CaseContext): string {
  const r = random()
  const value =
    r < 0.5
      ? pick(random, FORGED_OVERRIDES)
      : r < 0.7
        ? `big=${'c'.repeat(integer(random, 4_000, 12_000))}`
        : r < 0.85
          ? Array.from({ length: integer(random, 100, 600) }, (_, i) => `c${i}=${i}`).join('; ')
          : pick(random, ODD_COOKIES)
  return `Cookie: ${value}\r\n`
}

const PATH_PIECES = [
  ...['health', 'capabilities', 'resources', 'product-overview', 'agent-boundaries', '.', '..', '%2e', '%2E%2e', '%2f', '%2F', '', ';', 'a=b'],
  ...[
    '%00',
    '%',
    '%G1',
    '%e0%a4',
    '%C0%AE',
    '%ff',
    '~',
    "!$&'()*+,",
    '@:',
    '%F0%9F%98%80',
    encodeURIComponent('ünïcødé'),
    encodeURIComponent('资源'),
  ],
  'x'.repeat(200),
]
/** A random path under the API: dot segments, encoded slashes and bytes, invalid escapes, unicode. */
function randomApiPath(random: Random): string {
  const segments = Array.from({ length: integer(random, 1, 8) }, () => pick(random, PATH_PIECES))
  const query = random() < 0.2 ? `?${pick(random, ['x=%', 'a=b&c', '%%', `q=${'z'.repeat(500)}`])}` : ''
  return `${API}/${segments.join('/')}${query}`
}
const lines = (count: number, line: (i: number) => string) => Array.from({ length: count }, (_, i) => line(i)).join('')
/** Rows sent through the keep-alive client (unless they say otherwise): the connection must serve on after the refusal. */
const viaClient = (rows: readonly Row[]): Row[] => rows.map((row) => ({ how: 'client', ...row }))
/** `status target` lines: one row each, a GET of the target that must get the status. */
const statusRows = (table: string): Row[] =>
  table
    .trim()
    .split(/\s*\n\s*/)
    .map((line) => ({ label: short(line.slice(4)), target: line.slice(4), expect: status(Number(line.slice(0, 3))) }))
const ping = { jsonrpc: '2.0', id: 7, method: 'ping' }
const EMPTY = 'Content-Length: 0\r\n'
const JSON_TYPE = 'Content-Type: application/json\r\n'
const WEBSOCKET = 'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'
const LONG_ACCEPT = Array.from({ length: 400 }, (_, i) => `text/x-${i};q=0.${i % 10}`)
  .join(', ')
  .slice(0, 8_000)
const truncated = (full: string, random: Random) => full.slice(0, integer(random, 1, full.length - 1))
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
const nestedArgument = (resourceId: unknown) => ({
  jsonrpc: '2.0',
  id: 9,
  method: 'tools/call',
  params: { name: TOOL.read, arguments: { resourceId } },
})
const LEGACY_2025_03 = 'MCP-Protocol-Version: 2025-03-26\r\n'

/** Hostile requests by category; one row of a category is picked per request, at random. */
const HOSTILE_ROWS: Record<HostileCategory, readonly Row[]> = {
  'bad-path': [
    {
      label: 'random API path',
      method: ({ random }) => (random() < 0.85 ? 'GET' : 'HEAD'),
      target: ({ random }) => randomApiPath(random),
      expect: rest(),
    },
    ...[
      '/resources/%2e%2e/health',
      '/%2fhealth',
      '/resources/%2Fproduct-overview',
      '//health',
      '/health/',
      '',
      '/',
      '/resources/../../../../etc/passwd',
    ]
      .concat(['/resources/%E0%A4%A', '/resources/%00', '/resources/product%2Doverview', '/health?x=%', '/resources/a|b', '/resources/"x"'])
      .concat(['/resources/{x}<y>', `/${'a/'.repeat(3000)}`, `/${'b'.repeat(15_000)}`])
      .map((path): Row => ({ label: `API ${short(`${API}${path}`)}`, target: `${API}${path}`, expect: rest() })),
    ...statusRows(`
      404 /%2e%2e/%2e%2e/etc/passwd
      400 /pricing/%
      400 /pricing%
      400 /_next/static/%
      400 /_next/%E0%A4%A
      308 //pricing
      308 ///
      308 /${PATH.health}
      308 ${API}\\health
      200 /?%
      400 /problems/%
      400 /problems/%E0
      404 /problems/nope
      400 /.well-known/%
      404 /${'a'.repeat(8000)}
      404 /pricing/${'%41'.repeat(2000)}
      400 /_next/image?url=%2F&w=64&q=75
      404 /_next/data/x/y.json
      404 /%00
      404 /.env
      404 /_next/static/chunks/../../../package.json
      404 /api
      404 /api/agent/v2/health
      200 *
      200 http://evil.example${PATH.health}`),
  ],
  'bad-body': viaClient([
    {
      label: 'truncated JSON',
      headers: OLD,
      body: ({ random }) => truncated(JSON.stringify(request('tools/list')), random),
      expect: mcp(400, -32700),
    },
    { label: 'invalid JSON', headers: OLD, body: ['{', 'nul', '{"jsonrpc":"2.0",}', "{'a':1}", '[1,]', '\u0000'], expect: mcp(400, -32700) },
    { label: 'invalid UTF-8', headers: OLD, body: Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]), expect: mcp(400, -32700) },
    { label: 'empty body', headers: OLD, body: '', expect: mcp(400, -32700) },
    {
      label: 'not a JSON-RPC request',
      headers: OLD,
      body: ['42', '"x"', 'null', 'true', {}, { ...ping, jsonrpc: '1.0' }, { ...ping, id: 1.5 }, { ...ping, method: 7 }],
      expect: mcp(400, -32600),
    },
    { label: '2 MB + 1 body', headers: OLD, body: BIG, expect: mcp(413, -31413) },
    { label: '2 MB + 1 chunked body', how: 'chunked', headers: OLD, body: BIG, expect: mcp(413, -31413) },
    {
      label: 'Content-Type',
      headers: ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'text/json'].map(
        (type) => `${OLD}Content-Type: ${type}\r\n`,
      ),
      body: ping,
      expect: mcp(415, -31415),
    },
    { label: 'batch of 21', headers: LEGACY_2025_03, body: [Array.from({ length: 21 }, (_, id) => ({ ...ping, id }))], expect: mcp(400, -32600) },
    { label: 'modern batch', headers: `MCP-Protocol-Version: ${MODERN}\r\n`, body: [[ping, { ...ping, id: 8 }]], expect: mcp(400, -32600) },
    { label: 'batch with a repeated id', headers: LEGACY_2025_03, body: [[ping, ping]], expect: mcp(400, -32600) },
    { label: 'empty batch', headers: OLD, body: [[]], expect: mcp(400, -32600) },
    { label: 'deeply nested array', headers: OLD, body: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, expect: mcp(400, -32600) },
    {
      // A nested resourceId once overflowed JSON.stringify (-32603).
      label: 'deeply nested tool argument',
      headers: OLD,
      body: ({ random }) => JSON.stringify(nestedArgument(0)).replace('"resourceId":0', `"resourceId":${nested(integer(random, 5_000, 50_000))}`),
      sent: nestedArgument([]),
      expect: mcp(200, undefined, /must be a string, not an array/),
    },
    { label: 'modern tools/list', headers: mirrored('resources/list'), body: request('tools/list'), expect: mcp(400, -32020) },
    {
      label: 'modern without _meta',
      headers: mirrored('tools/list'),
      body: { jsonrpc: '2.0', id: 'no-meta', method: 'tools/list', params: {} },
      expect: mcp(400, -32602),
    },
    { label: 'unsupported version', headers: 'MCP-Protocol-Version: 2099-01-01\r\n', body: ping, expect: mcp(400, -32022) },
    ...['prompts/list', 'logging/setLevel', 'subscriptions/listen', 'constructor', '__proto__', 'x'.repeat(300)].map(
      (method): Row => ({ label: `modern ${method.slice(0, 40)}`, headers: mirrored(method), body: request(method), expect: mcp(404, -32601) }),
    ),
    { label: 'huge id', headers: OLD, body: ({ random }) => ({ ...ping, id: 'i'.repeat(integer(random, 10_000, 1_000_000)) }), expect: mcp(200) },
    {
      label: 'POST 2 MB to the API',
      method: 'POST',
      target: [PATH.health, PATH.resource('product-overview'), `${API}/nope`],
      headers: 'Content-Type: application/json\r\n',
      body: BIG,
      expect: rest(),
    },
    // Prerendered pages take GET and HEAD only; npm start refuses a POST before Next sees it.
    {
      label: 'POST 2 MB to a page or document',
      method: 'POST',
      target: ['/', '/openapi.json', '/pricing', '/contact'],
      headers: ['application/json', 'application/x-www-form-urlencoded', 'text/plain'].map((type) => `Content-Type: ${type}\r\n`),
      body: BIG,
      expect: status(405),
    },
    {
      label: 'POST page with a forged Next-Action',
      method: 'POST',
      target: '/contact',
      headers: `Content-Type: text/plain;charset=UTF-8\r\nNext-Action: ${'f'.repeat(40)}\r\nAccept: text/x-component\r\n`,
      body: '["$K1"]',
      expect: status(405),
    },
  ]),
  'header-flood': [
    {
      label: 'hundreds of headers',
      target: PATH.health,
      headers: ({ random }) => lines(integer(random, 100, 900), (i) => `X-F${i}: v\r\n`),
      expect: rest(),
    },
    {
      label: 'thousands of headers (> 16 KiB)',
      target: PATH.health,
      headers: ({ random }) => lines(integer(random, 1_500, 3_000), (i) => `X-Flood-${i}: value\r\n`),
      expect: status(431),
      orClose: true,
    },
    {
      label: 'one 20-100 KB header value',
      target: [PATH.health, MCP_PATH, '/', '/pricing'],
      headers: ({ random }) => `X-Big: ${'a'.repeat(integer(random, 20_000, 100_000))}\r\n`,
      expect: status(431),
      orClose: true,
    },
    {
      label: '15 KB of headers (under the limit)',
      target: PATH.health,
      headers: lines(55, (i) => `X-Wide-${i}: ${'w'.repeat(250)}\r\n`),
      expect: rest(),
    },
    {
      label: '200 X-Forwarded-For lines',
      target: PATH.health,
      headers: (ctx) => lines(200, () => `X-Forwarded-For: ${ctx.pool.forwardedFor(ctx.random)}\r\n`),
      expect: rest(),
    },
    { label: '8 KB Accept on /', target: '/', headers: `Accept: ${LONG_ACCEPT}\r\n`, expect: status(200) },
    {
      label: '300 Mcp-Method lines',
      headers: `MCP-Protocol-Version: ${MODERN}\r\n${lines(300, () => 'Mcp-Method: tools/list\r\n')}`,
      latin1: true,
      body: request('tools/list'),
      expect: mcp(400, -32020),
    },
    {
      label: 'every token character in header names',
      target: PATH.health,
      headers: "!#$%&'*+-.^_`|~09AZaz: v\r\nX-Empty:\r\nX-Spaces:    padded   \r\n",
      expect: rest(),
    },
    {
      label: 'obs-text in Mcp-Method',
      headers: `MCP-Protocol-Version: ${MODERN}\r\nMcp-Method: tools/l\xefst\r\n`,
      latin1: true,
      body: request('tools/list', {}, 2),
      expect: mcp(400, -32020),
    },
    {
      label: 'obs-text in Accept and a cookie',
      target: PATH.health,
      headers: 'Accept: text/\xff\xfe\r\nCookie: caf\xe9=cr\xe8me\r\n',
      expect: rest(),
    },
  ],
  'hostile-cookie': viaClient([
    { label: 'REST with a hostile cookie', target: [PATH.health, PATH.resource('product-overview')], headers: cookie, expect: rest() },
    {
      label: 'MCP with a hostile cookie',
      headers: (ctx) => `${mirrored('tools/call', TOOL.capabilities)}${cookie(ctx)}`,
      body: request('tools/call', { name: TOOL.capabilities, arguments: {} }),
      expect: mcp(200),
    },
    ...statusRows('200 /\n200 /pricing\n200 /login\n200 /openapi.json\n401 /.well-known/vercel/flags').map((row) => ({
      ...row,
      label: `${row.target} with a hostile cookie`,
      headers: cookie,
    })),
  ]),
  'wrong-method': [
    {
      label: 'another method on the API',
      method: API_METHODS,
      target: [PATH.health, PATH.resource('product-overview'), PATH.resource('nope'), `${API}/nope`, API],
      headers: EMPTY,
      expect: rest(),
    },
    { label: 'GET /mcp (an event stream)', target: MCP_PATH, headers: 'Accept: text/event-stream\r\n', expect: mcp(405, -31405) },
    {
      label: 'another method on /mcp',
      method: ['DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND'],
      target: MCP_PATH,
      headers: EMPTY,
      expect: mcp(405, -31405),
    },
    {
      label: 'another method on a document',
      method: ['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE'],
      target: ['/', '/openapi.json', '/llms.txt', '/robots.txt', '/problems/method_not_allowed', '/.well-known/mcp.json'],
      headers: EMPTY,
      expect: status(405),
    },
    {
      label: 'another method on a page',
      method: ['POST', 'PUT', 'DELETE', 'TRACE', 'PROPFIND'],
      target: ['/pricing', '/login'],
      headers: EMPTY,
      expect: status(405),
    },
    // Refused on its method before its body is read: answered at once, not cut off when the body never comes.
    {
      label: 'POST to the API, its body still arriving',
      method: 'POST',
      target: PATH.health,
      headers: `${JSON_TYPE}Content-Length: 100000\r\n`,
      body: '{"jsonrpc":"2.0",',
      expect: rest(),
    },
    { label: 'CONNECT', raw: 'CONNECT {host} HTTP/1.1\r\nHost: {host}\r\n\r\n', expect: 'close' },
    { label: 'unknown method', method: ['FOO', 'get', 'TRACK', 'G\x00T', 'BREW'], target: PATH.health, expect: status(400), orClose: true },
  ],
  garbage: [
    {
      label: 'TLS ClientHello',
      raw: Buffer.from('16030100a5010000a10303000102030405060708090a0b0c0d0e0f', 'hex'),
      expect: status(400),
      orClose: true,
    },
    { label: 'HTTP/2 preface', raw: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', expect: status(400), orClose: true },
    ...(
      [
        ['header without a colon', `GET ${PATH.health} HTTP/1.1\r\n{head}Broken header\r\n\r\n`, 400],
        ['obs-fold', `GET ${PATH.health} HTTP/1.1\r\n{head}X-A: a\r\n folded\r\n\r\n`, 400],
        ['NUL in a header', `GET ${PATH.health} HTTP/1.1\r\n{head}X-A: a\u0000b\r\n\r\n`, 400],
        [
          'Content-Length with chunked',
          `POST /mcp HTTP/1.1\r\n{head}${JSON_TYPE}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
          400,
        ],
        ['two Content-Lengths', `POST /mcp HTTP/1.1\r\n{head}${JSON_TYPE}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`, 400],
        ['negative Content-Length', 'POST /mcp HTTP/1.1\r\n{head}Content-Length: -1\r\n\r\n{}', 400],
        ['bad chunk size', `POST /mcp HTTP/1.1\r\n{head}${JSON_TYPE}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, 400],
        ['unknown Transfer-Encoding', 'POST /mcp HTTP/1.1\r\n{head}Transfer-Encoding: bogus\r\n\r\n{}', 400],
        ['no Host', `GET ${PATH.health} HTTP/1.1\r\nConnection: close\r\n\r\n`, 400],
        ['HTTP/1.2', `GET ${PATH.health} HTTP/1.2\r\n{head}\r\n`, 400],
        ['tab in the target', `GET ${API}/he\talth HTTP/1.1\r\n{head}\r\n`, 400],
        ['raw UTF-8 in the target', 'GET /caf\u00e9 HTTP/1.1\r\n{head}\r\n', 400],
        ['Expect: tea', `GET ${PATH.health} HTTP/1.1\r\n{head}Expect: tea\r\n\r\n`, 417],
        [
          'Upgrade: websocket',
          `GET ${PATH.health} HTTP/1.1\r\nHost: {host}\r\n{client}Connection: Upgrade\r\nUpgrade: websocket\r\n${WEBSOCKET}\r\n`,
          200,
        ],
        [
          'Upgrade: h2c (curl --http2)',
          'GET /openapi.json HTTP/1.1\r\nHost: {host}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n',
          200,
        ],
        ['Upgrade on a page', 'GET /pricing HTTP/1.1\r\nHost: {host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n', 200],
        ['HTTP/1.0 without Host', `GET ${PATH.health} HTTP/1.0\r\n{client}\r\n`, 200],
      ] as const
    ).map(([label, raw, code]): Row => ({ label, raw, expect: status(code) })),
  ],
}

/** Slow clients by kind: each must be cut off by the server's timeouts (408, or a close). */
const SLOW_ROWS: Record<SlowCategory, readonly Row[]> = {
  'idle-connection': [{ label: 'connect and send nothing', how: 'idle', expect: 'cut-off' }],
  'slow-headers': [{ label: 'headers trickled', how: 'slow-headers', target: [PATH.health, MCP_PATH, '/', '/pricing'], expect: 'cut-off' }],
  // 300 pipelined requests for the 30 KB OpenAPI document, never read: about 9 MB, more than the
  // kernel's socket buffers take, so the server holds the rest until it gives up on the reader.
  'slow-reader': [{ label: 'pipelined /openapi.json, never read', how: 'unread', target: '/openapi.json', repeat: 300, expect: 'cut-off' }],
  'slow-body': [
    {
      label: 'body trickled',
      how: 'slow-body',
      method: 'POST',
      target: MCP_PATH,
      headers: ['Content-Type: application/json\r\nContent-Length: 100000\r\n', 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n'],
      expect: 'cut-off',
    },
  ],
}

function vary<T>(value: Varies<T>, ctx: CaseContext): T {
  if (typeof value === 'function') return (value as (ctx: CaseContext) => T)(ctx)
  return Array.isArray(value) ? pick(ctx.random, value as readonly T[]) : (value as T)
}

/** Header lines as an object, names lower-case (the judge's and node:http's form). */
function headerObject(text: string): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).replace(/^ /, '')
  }
  return headers
}

/**
 * When the server must cut off each kind of slow client, in ms after it connected: a sender within
 * its timeout plus one check interval; a reader that stopped within one to two idle timeouts (Node
 * re-arms the idle timer once while a write is pending).
 */
export function cutOffWindow(kind: SlowCategory): readonly [number, number] {
  if (kind === 'slow-reader') return [IDLE_SOCKET_TIMEOUT_MS - 250, 2 * IDLE_SOCKET_TIMEOUT_MS + CUT_OFF_SLACK_MS]
  const timeout = kind === 'slow-body' ? 'requestTimeout' : 'headersTimeout'
  return [SERVER_TIMEOUTS[timeout] - 250, cutOffBoundMs(timeout) + CUT_OFF_SLACK_MS]
}

/** A row as one exchange: its request built and sent as the row says, its answer judged by the oracle. */
function rowCase(ctx: CaseContext, category: HostileCategory | SlowCategory, row: Row): SoakCase {
  const how = row.how ?? 'whole'
  const host = `127.0.0.1:${ctx.port}`
  const client = ctx.pool.forwardedFor(ctx.random)
  const picked = row.body === undefined ? undefined : vary(row.body, ctx)
  // What is sent, and what the judge is told was sent: the parsed body (none for bytes that are no JSON).
  const [body, sent]: [string | Buffer | undefined, unknown] =
    picked === BIG
      ? [ctx.bigFiller, undefined]
      : Buffer.isBuffer(picked) || picked === undefined
        ? [picked, undefined]
        : typeof picked === 'string'
          ? [picked, picked.length <= 10_000 ? parsedJson(picked) : undefined]
          : [JSON.stringify(picked), picked]
  const isMcp = row.target === undefined
  const method = row.method === undefined ? (isMcp ? 'POST' : 'GET') : vary(row.method, ctx)
  const target = row.target === undefined ? MCP_PATH : vary(row.target, ctx)
  const rowLines = row.headers === undefined ? '' : vary(row.headers, ctx)
  const jsonPost = isMcp && body !== undefined ? (/^content-type:/im.test(rowLines) ? JSON_POST.replace(/^Content-Type: .*\r\n/, '') : JSON_POST) : ''
  const lines = `${jsonPost}${rowLines}`
  const headers: Record<string, string> = { ...headerObject(lines), 'x-forwarded-for': client }
  const judged: JudgedRequest = { method, target, headers, body: row.sent ?? sent, baseUrl: ctx.baseUrl }
  // A row that varies its request names the one sent, so a violation says which.
  const varies = [row.method, row.target].some((field) => Array.isArray(field) || typeof field === 'function')
  const label =
    row.label === 'Content-Type' ? `Content-Type ${headers['content-type']}` : varies ? `${row.label}: ${method} ${short(target)}` : row.label
  const size = body === undefined ? 0 : Buffer.byteLength(body)
  const base = { category, label, boundMs: size > 1_000_000 ? BIG_BODY_HANG_MS : HANG_MS }
  const judge = typeof row.expect === 'string' ? undefined : judgeOne(judged, row.expect)
  const expect: SoakCase['expect'] = row.expect === 'close' ? 'close' : row.orClose ? 'answer-or-close' : 'answer'

  if (how === 'client' || how === 'chunked') {
    const spec = { method, path: target, headers: { ...headers, ...(how === 'chunked' ? { 'transfer-encoding': 'chunked' } : {}) }, body }
    const consistent = method === 'GET' && typeof row.expect === 'object' && row.expect.kind === 'rest'
    return {
      ...base,
      send: { kind: 'http', spec },
      expect,
      judge,
      ...(consistent ? { consistencyKey: `rest ${new URL(target, 'http://x').pathname}` } : {}),
    }
  }
  if (row.raw !== undefined) {
    const raw = vary(row.raw, ctx)
    const text = (message: string) => message.replaceAll('{head}', `Host: ${host}\r\nX-Forwarded-For: ${client}\r\nConnection: close\r\n`)
    const payload = Buffer.isBuffer(raw) ? raw : text(raw).replaceAll('{host}', host).replaceAll('{client}', `X-Forwarded-For: ${client}\r\n`)
    return { ...base, send: { kind: 'raw', plan: { payload } }, expect, judge }
  }
  const length = body === undefined || /content-length|transfer-encoding/i.test(lines) ? '' : `Content-Length: ${size}\r\n`
  const close = how === 'whole' ? 'Connection: close\r\n' : ''
  const message = `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-For: ${client}\r\n${close}${lines}${length}`
  if (how === 'whole') {
    const payload = Buffer.concat([Buffer.from(`${message}\r\n`, row.latin1 ? 'latin1' : 'utf8'), Buffer.from(body ?? '')])
    return { ...base, send: { kind: 'raw', plan: { payload, headMethods: [method === 'HEAD'] } }, expect, judge }
  }
  // Slow clients: cut off inside the window of their kind; a 408 when the server answers at all.
  const window = cutOffWindow(category as SlowCategory)
  const slow = { ...base, boundMs: window[1], expect: 'cut-off' as const, cutOffWindow: window, judge: judgeOne(judged, status(408)) }
  if (how === 'idle') return { ...slow, send: { kind: 'raw', plan: { payload: '' } } }
  if (how === 'slow-headers')
    return {
      ...slow,
      send: { kind: 'raw', plan: { payload: message, trickle: { bytes: 'X-Slow: drip\r\n', everyMs: 400 } } },
    }
  if (how === 'unread') {
    const payload = `${message}\r\n`.repeat(row.repeat ?? 1)
    return { ...slow, label: `${row.repeat} ${label}`, judge: undefined, send: { kind: 'raw', plan: { payload, neverRead: true } } }
  }
  const chunked = /chunked/i.test(lines)
  return {
    ...slow,
    label: `${label} to ${target}${chunked ? ' (chunked)' : ''}`,
    send: { kind: 'raw', plan: { payload: `${message}\r\n${chunked ? '1000\r\n' : ''}{"jsonrpc":"2.0",`, trickle: { bytes: ' ', everyMs: 500 } } },
  }
}

/** Which category a hostile request is of: the first whose bound exceeds a random number in [0, 1). */
const HOSTILE_SHARES: ReadonlyArray<readonly [HostileCategory, number]> = [
  ['bad-path', 0.22],
  ['bad-body', 0.47],
  ['header-flood', 0.62],
  ['hostile-cookie', 0.77],
  ['wrong-method', 0.9],
  ['garbage', 1],
]

export function hostileCase(ctx: CaseContext): SoakCase {
  const r = ctx.random()
  const [category] = HOSTILE_SHARES.find(([, bound]) => r < bound) ?? ['garbage']
  return rowCase(ctx, category, pick(ctx.random, HOSTILE_ROWS[category]))
}

export function slowCase(ctx: CaseContext, kind: SlowCategory): SoakCase {
  return rowCase(ctx, kind, pick(ctx.random, SLOW_ROWS[kind]))
}

// ------------------------------------------------------------------------------------------------
// Valid traffic

const xff = (ctx: CaseContext) => ({ 'x-forwarded-for': ctx.pool.forwardedFor(ctx.random) })

export function restCase(
  ctx: CaseContext,
  method: string,
  target: string,
  extra: Record<string, string> = {},
  category: Category = 'rest',
): SoakCase {
  const headers = { ...xff(ctx), ...extra }
  return {
    category,
    label: `${method} ${target.length > 60 ? `${target.slice(0, 60)}…` : target}`,
    send: { kind: 'http', spec: { method, path: target, headers } },
    boundMs: HANG_MS,
    expect: 'answer',
    judge: judgeOne({ method, target, headers: lower(headers), baseUrl: ctx.baseUrl }, rest(category === 'rest')),
    ...(method === 'GET' ? { consistencyKey: `rest ${new URL(target, 'http://x').pathname}` } : {}),
  }
}

function validRest(ctx: CaseContext): SoakCase {
  const r = ctx.random()
  const id = pick(ctx.random, PUBLIC_RESOURCE_IDS)
  const method = ctx.random() < 0.15 ? 'HEAD' : 'GET'
  if (r < 0.2) return restCase(ctx, method, PATH.health)
  if (r < 0.35) return restCase(ctx, method, PATH.capabilities)
  if (r < 0.5) return restCase(ctx, method, PATH.resources)
  if (r < 0.8) return restCase(ctx, method, PATH.resource(id))
  if (r < 0.88)
    return restCase(ctx, 'GET', PATH.resource(pick(ctx.random, ['pricing', 'PRODUCT-OVERVIEW', 'product-overview.md', '%70roduct-overview'])))
  if (r < 0.94) return restCase(ctx, 'OPTIONS', PATH.resource(id), { origin: 'https://agent.example', 'access-control-request-method': 'GET' })
  return restCase(ctx, 'GET', PATH.health, { origin: 'https://agent.example', accept: 'application/json' })
}

/** A well-formed POST /mcp through the keep-alive client, judged as the oracle says its answer must be. */
function mcpCase(
  ctx: CaseContext,
  category: Category,
  label: string,
  headers: Record<string, string>,
  body: unknown,
  expected: AnswerClass,
): SoakCase {
  const allHeaders = { ...xff(ctx), 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }
  return {
    category,
    label,
    send: { kind: 'http', spec: { method: 'POST', path: MCP_PATH, headers: allHeaders, body: JSON.stringify(body) } },
    boundMs: HANG_MS,
    expect: 'answer',
    judge: judgeOne({ method: 'POST', target: MCP_PATH, headers: allHeaders, body, baseUrl: ctx.baseUrl }, expected),
  }
}

function validModern(ctx: CaseContext): SoakCase {
  const r = ctx.random()
  const id = pick(ctx.random, PUBLIC_RESOURCE_IDS)
  // [share bound, method, params]: the first whose bound exceeds r.
  const mix: Array<[number, string, Record<string, unknown>?]> = [
    [0.12, 'server/discover'],
    [0.25, 'resources/list'],
    [0.42, 'resources/read', { uri: `service://public/${id}` }],
    [0.55, 'tools/list'],
    [0.65, 'tools/call', { name: TOOL.capabilities, arguments: {} }],
    [0.75, 'tools/call', { name: TOOL.list, arguments: {} }],
    [0.92, 'tools/call', { name: TOOL.read, arguments: { resourceId: id } }],
    [0.96, 'resources/read', { uri: 'service://public/pricing' }],
    [1, 'tools/call', { name: TOOL.read, arguments: { resourceId: 'nope' } }],
  ]
  const [, method, params = {}] = mix.find(([bound]) => r < bound) ?? (mix.at(-1) as (typeof mix)[number])
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined
  const requestId = ctx.random() < 0.5 ? `soak-${integer(ctx.random, 1, 1e9)}` : integer(ctx.random, 0, 2 ** 40)
  const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) }
  return mcpCase(ctx, 'mcp-modern', `modern ${method}${name ? ` ${name}` : ''}`, headers, request(method, params, requestId), mcp(200))
}

function validLegacy(ctx: CaseContext): SoakCase {
  const r = ctx.random()
  const id = integer(ctx.random, 1, 1e6)
  let version: string = pick(ctx.random, LEGACY)
  const resourceId = pick(ctx.random, PUBLIC_RESOURCE_IDS)
  const asked = pick(ctx.random, [...LEGACY, MODERN, '2024-11-05'])
  const message = (method: string, params?: object) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) })
  let body: unknown
  if (r < 0.25) body = message('initialize', { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'soak', version: '1' } })
  else if (r < 0.35) body = { jsonrpc: '2.0', method: 'notifications/initialized' }
  else if (r < 0.5) body = message('tools/list')
  else if (r < 0.7) body = message('tools/call', { name: TOOL.read, arguments: { resourceId } })
  else if (r < 0.8) body = message('resources/read', { uri: `service://public/${resourceId}` })
  else if (r < 0.88) body = message('ping')
  else {
    version = '2025-03-26'
    body = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 'two', method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'resources/list' },
    ]
  }
  const method = Array.isArray(body) ? 'batch' : (body as { method: string }).method
  const label = method === 'initialize' ? `legacy initialize ${asked}` : `legacy ${version} ${method}`
  const headers: Record<string, string> = method === 'initialize' ? {} : { 'mcp-protocol-version': version }
  return mcpCase(ctx, 'mcp-legacy', label, headers, body, mcp(method === 'notifications/initialized' ? 202 : 200))
}

function validDocument(ctx: CaseContext): SoakCase {
  const problemPath = ctx.random() < 0.15
  const path = problemPath ? `/problems/${pick(ctx.random, CONTRACT_PROBLEM_CODES)}` : pick(ctx.random, Object.keys(CONTRACT_DOCUMENTS))
  const method = ctx.random() < 0.1 ? 'HEAD' : 'GET'
  const known = ctx.etags.get(path)
  const conditional = known !== undefined && method === 'GET' && ctx.random() < 0.25
  return {
    category: 'documents',
    label: `${method} ${problemPath ? '/problems/<code>' : path}${conditional ? ' (If-None-Match)' : ''}`,
    send: { kind: 'http', spec: { method, path, headers: { ...xff(ctx), ...(conditional ? { 'if-none-match': known } : {}) } } },
    boundMs: HANG_MS,
    expect: 'answer',
    judge: (answers) => documentAnswerProblems({ method, path, conditional }, answers[0] as Answer),
    ...(method === 'GET' && !conditional ? { consistencyKey: `document ${path}` } : {}),
    learn: (answer) => {
      if (answer.headers.etag) ctx.etags.set(path, answer.headers.etag)
    },
  }
}

const ACCEPTS = [
  'text/markdown',
  'text/html',
  '*/*',
  'text/markdown, text/html;q=0.5',
  'text/markdown;q=0.9, text/html',
  'text/html;q=0.8, text/markdown;q=0.8',
]
const MORE_ACCEPTS = ['text/*', 'application/json', 'text/markdown;q=0', 'TEXT/MARKDOWN', 'text/markdown;q=abc, text/html;q=0.1', '']

function validHomepage(ctx: CaseContext): SoakCase {
  const accept = pick(ctx.random, [...ACCEPTS, ...MORE_ACCEPTS])
  const markdown = prefersMarkdown(accept)
  const variant = markdown ? 'markdown' : 'html'
  const key = `/ ${variant}`
  const known = ctx.etags.get(key)
  const conditional = known !== undefined && ctx.random() < 0.2
  const method = ctx.random() < 0.1 ? 'HEAD' : 'GET'
  const headers: Record<string, string> = { ...xff(ctx), ...(accept ? { accept } : {}), ...(conditional ? { 'if-none-match': known } : {}) }
  return {
    category: 'homepage',
    label: `${method} / as ${variant}${conditional ? ' (If-None-Match)' : ''}`,
    send: { kind: 'http', spec: { method, path: '/', headers } },
    boundMs: HANG_MS,
    expect: 'answer',
    judge: (answers) => homepageAnswerProblems({ markdown, accept, conditional }, answers[0] as Answer),
    ...(method === 'GET' && !conditional ? { consistencyKey: `homepage ${variant}` } : {}),
    learn: (answer) => {
      if (answer.headers.etag) ctx.etags.set(key, answer.headers.etag)
    },
  }
}

function validPage(ctx: CaseContext): SoakCase {
  const known = ctx.random() < 0.85
  const path = pick(ctx.random, known ? ['/pricing', '/contact', '/login', '/developers'] : ['/no-such-page', '/pricing/extra', '/developer'])
  const method = ctx.random() < 0.1 ? 'HEAD' : 'GET'
  return {
    category: 'pages',
    label: `${method} ${known ? path : '<unknown page>'}`,
    send: { kind: 'http', spec: { method, path, headers: { ...xff(ctx), accept: 'text/html' } } },
    boundMs: HANG_MS,
    expect: 'answer',
    judge: (answers) => pageAnswerProblems(known ? 200 : 404, answers[0] as Answer),
  }
}

/** Several requests on one connection at once; every one must be answered, in order. */
function pipelined(ctx: CaseContext): SoakCase {
  const count = integer(ctx.random, 3, 12)
  const host = `Host: 127.0.0.1:${ctx.port}\r\n`
  const parts: string[] = []
  const judges: Array<(a: Answer) => string[]> = []
  const heads: boolean[] = []
  for (let i = 0; i < count; i++) {
    const client = `X-Forwarded-For: ${ctx.pool.forwardedFor(ctx.random)}\r\n`
    const kind = ctx.random()
    const close = i === count - 1 ? 'Connection: close\r\n' : ''
    if (kind < 0.5) {
      const target = pick(ctx.random, [PATH.health, PATH.resources, PATH.resource('agent-boundaries'), `${API}/nope`])
      const method = ctx.random() < 0.2 ? 'HEAD' : 'GET'
      parts.push(`${method} ${target} HTTP/1.1\r\n${host}${client}${close}\r\n`)
      heads.push(method === 'HEAD')
      judges.push((a) => answerProblems({ method, target, baseUrl: ctx.baseUrl }, a, rest()))
    } else if (kind < 0.8) {
      const path = pick(ctx.random, Object.keys(CONTRACT_DOCUMENTS))
      parts.push(`GET ${path} HTTP/1.1\r\n${host}${client}${close}\r\n`)
      heads.push(false)
      judges.push((a) => documentAnswerProblems({ method: 'GET', path }, a).map((p) => `${path}: ${p}`))
    } else {
      const body = { jsonrpc: '2.0', id: i, method: 'ping' }
      const text = JSON.stringify(body)
      parts.push(
        `POST /mcp HTTP/1.1\r\n${host}${client}${close}Content-Type: application/json\r\n${OLD}Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      )
      heads.push(false)
      judges.push((a) => answerProblems({ method: 'POST', target: MCP_PATH, body, baseUrl: ctx.baseUrl }, a, mcp(200)))
    }
  }
  const slowReader = ctx.random() < 0.1
  return {
    category: 'pipelined',
    label: `${count} pipelined${slowReader ? ', read after 1 s' : ''}`,
    send: {
      kind: 'raw',
      plan: { payload: parts.join(''), expectAnswers: count, headMethods: heads, ...(slowReader ? { pauseReadingMs: 1_000 } : {}) },
    },
    boundMs: HANG_MS + (slowReader ? 1_000 : 0),
    timed: !slowReader,
    expect: 'answer',
    judge: (answers) =>
      answers.length < count
        ? [`${answers.length} of ${count} pipelined answers`]
        : answers.flatMap((a, i) => (judges[i] as (a: Answer) => string[])(a).map((p) => `#${i}: ${p}`)),
  }
}

export function validCase(ctx: CaseContext): SoakCase {
  const r = ctx.random()
  if (r < 0.32) return validRest(ctx)
  if (r < 0.55) return validModern(ctx)
  if (r < 0.65) return validLegacy(ctx)
  if (r < 0.78) return validDocument(ctx)
  if (r < 0.87) return validHomepage(ctx)
  if (r < 0.96) return validPage(ctx)
  return pipelined(ctx)
}

/** Every kind of valid request once (the warm-up before the baseline RSS is taken). */
export function warmUpCases(ctx: CaseContext): SoakCase[] {
  const cases: SoakCase[] = []
  for (let i = 0; i < 40; i++) cases.push(validRest(ctx), validModern(ctx), validLegacy(ctx), validDocument(ctx), validHomepage(ctx), validPage(ctx))
  for (let i = 0; i < 6; i++) cases.push(pipelined(ctx))
  for (let i = 0; i < 30; i++) cases.push(hostileCase(ctx))
  return cases
}

// ------------------------------------------------------------------------------------------------
// Greedy clients: far above the quota, every answer exact

export function greedyCase(ctx: CaseContext, address: string): SoakCase {
  const headers = { 'x-forwarded-for': forwardedForm(ctx.random, address) }
  if (ctx.random() < 0.6) return { ...restCase(ctx, 'GET', PATH.health, headers, 'quota-greedy'), label: 'greedy GET health' }
  const body = { jsonrpc: '2.0', id: 'greedy', method: 'tools/list', params: { _meta: envelope() } }
  const c = mcpCase(
    ctx,
    'quota-greedy',
    'greedy modern tools/list',
    { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list', ...headers },
    body,
    mcp(200),
  )
  return {
    ...c,
    judge: (answers) => {
      const a = answers[0] as Answer
      const problems = mcpAnswerProblems({ body }, a)
      if (a.status !== 200 && a.status !== 429) problems.push(`expected 200 or 429, got ${a.status}`)
      return problems
    },
  }
}
