/**
 * What the soak sends, as one table: every request — valid traffic, greedy clients, hostile input, slow
 * clients — is a row: the request, how it is sent, and the class of answer it must get. Every answer is
 * judged by the one judge of right answers (harness/contract-answers.ts); how an exchange must end
 * (answer, cut-off, close) is the runner's (run.ts).
 */
import type { Socket } from 'node:net'
import {
  API_BASE_PATH as API,
  DEFAULT_SERVICE_NAME,
  MCP_LEGACY_PROTOCOL_VERSIONS as LEGACY,
  MCP_MAX_BODY_BYTES,
  MCP_PATH,
  MCP_PROTOCOL_VERSION as MODERN,
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
} from '../../harness/contract-answers.ts'
import { integer, pick, type ClientPool, type Random } from './clients.ts'
import type { Answered, RawPlan } from '../../harness/raw-exchange.ts'

/** The categories of valid and of hostile traffic, each with how often it is picked relative to the others of its kind. */
const VALID_SHARES = { rest: 32, 'mcp-modern': 23, 'mcp-legacy': 10, documents: 13, homepage: 9, pages: 9, pipelined: 4 }
const HOSTILE_SHARES = { 'bad-path': 22, 'bad-body': 25, 'header-flood': 15, 'hostile-cookie': 15, 'wrong-method': 13, garbage: 10 }
type ValidCategory = keyof typeof VALID_SHARES
type HostileCategory = keyof typeof HOSTILE_SHARES
export const VALID_CATEGORIES = Object.keys(VALID_SHARES) as readonly ValidCategory[]
export const HOSTILE_CATEGORIES = Object.keys(HOSTILE_SHARES) as readonly HostileCategory[]
export const SLOW_CATEGORIES = ['slow-headers', 'idle-connection', 'slow-body', 'slow-reader'] as const
export type SlowCategory = (typeof SLOW_CATEGORIES)[number]
export type Category = ValidCategory | HostileCategory | SlowCategory | 'quota-greedy'

/** The longest any ordinary request may take before it counts as a hang (requests with 2 MB bodies: twice that). */
export const HANG_MS = 10_000
/** Scheduling slack on a loaded 2-core machine, added to the server's cut-off bounds. */
export const CUT_OFF_SLACK_MS = 2_000

/**
 * A row as sent once. `expect`: every answer must arrive (`answer`), or a close counts as a refusal
 * too (`answer-or-close`: a head the server stops reading), or the server closes without one
 * (`close`: CONNECT), or it must cut the client off, 408 or close, inside `cutOffWindow` (`cut-off`).
 * 200 bodies of GETs with one `consistencyKey` must be byte-identical; `timed: false` (waits on
 * purpose) keeps an exchange out of the latency figures; `learn` takes the ETag of a 200.
 */
export interface SoakCase {
  category: Category
  label: string
  plan: RawPlan
  boundMs: number
  expect: 'answer' | 'answer-or-close' | 'close' | 'cut-off'
  cutOffWindow?: readonly [number, number]
  judge?: (answers: Answer[]) => string[]
  consistencyKey?: string
  timed?: boolean
  learn?: (answer: Answered) => void
}

/** The soak's state: the site, its random source, clients and kept-alive connections, the ETags seen (per target and variant). */
export type CaseContext = { port: number; baseUrl: string; random: Random; pool: ClientPool; sockets: Socket[]; etags: Map<string, string> }

export const toAnswer = (answered: Answered): Answer => ({ status: answered.status, headers: answered.headers, body: answered.body.toString('utf8') })

/** A value fixed in the row, or picked anew (from a list, or by a function of the soak's state) each time the row is sent. */
type Varies<T> = T | readonly T[] | ((ctx: CaseContext) => T)

/**
 * A request, how it is sent, and the class of its answer. How: `whole` (the default): its bytes at once
 * on a connection of its own; `client`: on a kept-alive connection, which must serve on after any
 * refusal (`chunked`: its body chunked); `pipelined`: `repeat` requests picked from `parts` at once on
 * one connection, each answered in order (`pauseMs`: read only after that long); `slow-headers`: the
 * head never ends, a line every 400 ms; `slow-body`: the body trickled, a byte every 500 ms; `idle`:
 * connect and send nothing; `unread`: sent `repeat` times at once, the answers never read.
 */
interface Row {
  /** Without one: the method and target; a row that varies them names the ones sent after its label. */
  label?: string
  /** How often the row is picked, relative to the others of its category (default 1). */
  share?: number
  /** Without method and target: POST /mcp with JSON. A method or target with spaces is a list, one picked each time. */
  method?: Varies<string>
  target?: Varies<string>
  /** Header lines as sent (each ending in CRLF), after Host, X-Forwarded-For and Connection. */
  headers?: Varies<string>
  /** An object is sent as its JSON. */
  body?: Varies<string | Buffer | object>
  /** The whole message instead (`{head}`, `{host}`, `{client}`: the usual head, this site, a client's X-Forwarded-For line). */
  raw?: Varies<string | Buffer>
  how?: 'whole' | 'client' | 'chunked' | 'pipelined' | 'slow-headers' | 'slow-body' | 'idle' | 'unread'
  /** `close`: no answer, the server closes; `cut-off`: a 408 or a close in the window; `each`: as each part says. */
  expect: AnswerClass | 'close' | 'cut-off' | 'each'
  /** The server may also refuse by closing (a head it stops reading). */
  orClose?: boolean
  /** The head's bytes as written, one byte per character (obs-text); else UTF-8. */
  latin1?: boolean
  /** What the body says, for the judge, when it is too deep to parse here. */
  sent?: unknown
  /** Share of sends with If-None-Match once the ETag of the target (and variant) is known. */
  conditional?: number
  repeat?: number | readonly [number, number]
  parts?: readonly Row[]
  pauseMs?: number
}

/** The filler body: 2 MB + 1 bytes, one more than POST /mcp takes. */
const BIG = Buffer.alloc(MCP_MAX_BODY_BYTES + 1, 0x20)
/** The valid operation paths; hostile paths below are written out, as an attacker would. */
const PATH = {
  health: operationPath('getAgentHealth'),
  capabilities: operationPath('getPublicCapabilities'),
  resources: operationPath('listPublicResources'),
  resource: (id: string) => operationPath('getPublicResource', { [RESOURCE_ID_PARAMETER]: id }),
}
const HEALTH = PATH.health
const RESOURCES = PUBLIC_RESOURCE_IDS.map(PATH.resource)
const RESOURCE = PATH.resource('product-overview')
/** The soak's site runs with the default SERVICE_NAME. */
const tool = (operation: Parameters<typeof mcpToolName>[1]) => mcpToolName(DEFAULT_SERVICE_NAME, operation)
const TOOL = { capabilities: tool('getPublicCapabilities'), list: tool('listPublicResources'), read: tool('getPublicResource') }
const { rest, mcp, status, document, homepage, page } = answerClass
/** A client far below its quota: never a 429. */
const ADMITTED = rest(true)
const short = (text: string) => (text.length > 50 ? `${text.slice(0, 50)}… (${text.length} chars)` : text)
const lines = (count: number, line: (i: number) => string) => Array.from({ length: count }, (_, i) => line(i)).join('')
const numbered = (min: number, max: number, line: (i: number) => string) => (ctx: CaseContext) => lines(integer(ctx.random, min, max), line)
const keptAlive = (rows: readonly Row[]): Row[] => rows.map((row) => ({ how: 'client', ...row }))
const getOrHead = (headShare: number) => (ctx: CaseContext) => (ctx.random() < headShare ? 'HEAD' : 'GET')
const [MOSTLY_GET, GET_OR_HEAD] = [getOrHead(0.1), getOrHead(0.15)]

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'soak', version: '1.0.0' },
}
/** A JSON-RPC request of the 2026-07-28 protocol: the `_meta` envelope in its params. */
const request = (method: string, params = {}, id: string | number = 1) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } })
/** The header lines of a 2026-07-28 request: the version and the mirrored method and name. */
const mirrored = (method: string, name?: string) =>
  `MCP-Protocol-Version: ${MODERN}\r\nMcp-Method: ${method}\r\n${name ? `Mcp-Name: ${name}\r\n` : ''}`
/** A well-formed 2026-07-28 request with a fresh id. */
function modern(method: string, params: { name?: string; uri?: string; arguments?: object } = {}, share = 1): Row {
  const name = params.name ?? params.uri
  const id = ({ random }: CaseContext) => (random() < 0.5 ? `soak-${integer(random, 1, 1e9)}` : integer(random, 0, 2 ** 40))
  const label = `modern ${method}${name ? ` ${name}` : ''}`
  return { label, share, headers: mirrored(method, name), body: (ctx) => request(method, params, id(ctx)), expect: mcp(200) }
}
/** A well-formed request of a legacy protocol version. */
const legacy = (method: string, params?: object, share = 1): Row => {
  const body = ({ random }: CaseContext) => ({ jsonrpc: '2.0', id: integer(random, 1, 1e6), method, ...(params ? { params } : {}) })
  return { label: `legacy ${method}`, share, headers: ({ random }) => `MCP-Protocol-Version: ${pick(random, LEGACY)}\r\n`, body, expect: mcp(200) }
}
/** Rows of one answer class, one a body each: POST /mcp with `headers`. */
const bodies = (expect: AnswerClass, headers: string, rows: Record<string, Row['body']>): Row[] =>
  Object.entries(rows).map(([label, body]) => ({ label, headers, body, expect }))
const ping = { jsonrpc: '2.0', id: 7, method: 'ping' }
/** tools/call of the capabilities tool. */
const CALL = { name: TOOL.capabilities, arguments: {} }
const TOOLS_LIST_TWO = { jsonrpc: '2.0', id: 'two', method: 'tools/list' }
const RESOURCES_LIST_THREE = { jsonrpc: '2.0', id: 3, method: 'resources/list' }
const OLD = 'MCP-Protocol-Version: 2025-11-25\r\n'
const LEGACY_2025_03 = 'MCP-Protocol-Version: 2025-03-26\r\n'
const ORIGIN = 'Origin: https://agent.example\r\n'
const EMPTY = 'Content-Length: 0\r\n'
const JSON_TYPE = 'Content-Type: application/json\r\n'
/** A JSON body announced at 100 000 bytes, of which far fewer come; one that comes in chunks. */
const [LONG_BODY, CHUNKED_JSON] = [`${JSON_TYPE}Content-Length: 100000\r\n`, `${JSON_TYPE}Transfer-Encoding: chunked\r\n`]
const HTML = 'Accept: text/html\r\n'
/** Resources that are not (an unknown id, case, suffix) or are but percent-encoded. */
const NEAR_MISS_RESOURCES = `${API}/resources/pricing ${API}/resources/PRODUCT-OVERVIEW ${RESOURCE}.md ${API}/resources/%70roduct-overview`
const PROBLEM_PAGES = CONTRACT_PROBLEM_CODES.map((code) => `/problems/${code}`)
const DOCUMENTS = Object.keys(CONTRACT_DOCUMENTS)
const ACCEPTS = ['text/markdown', 'text/html', '*/*', 'text/markdown, text/html;q=0.5', 'text/markdown;q=0.9, text/html', 'text/*', '']
const ODD_ACCEPTS =
  'text/html;q=0.8, text/markdown;q=0.8|application/json|text/markdown;q=0|TEXT/MARKDOWN|text/markdown;q=abc, text/html;q=0.1'.split('|')

const PIPELINED: Row[] = [
  { share: 5, method: getOrHead(0.2), target: `${HEALTH} ${PATH.resources} ${PATH.resource('agent-boundaries')} ${API}/nope`, expect: rest() },
  { share: 3, target: DOCUMENTS, expect: document() },
  { share: 2, headers: OLD, body: ({ random }) => ({ ...ping, id: integer(random, 0, 1e6) }), expect: mcp(200) },
]

/** Valid traffic by category: every operation and document, as well-behaved clients ask for them. */
const VALID_ROWS: Record<ValidCategory, readonly Row[]> = {
  rest: keptAlive([
    ...[HEALTH, PATH.capabilities, PATH.resources].map((target, i): Row => ({ share: i ? 15 : 20, method: GET_OR_HEAD, target, expect: ADMITTED })),
    { share: 30, method: GET_OR_HEAD, target: RESOURCES, expect: ADMITTED },
    { share: 8, target: NEAR_MISS_RESOURCES, expect: ADMITTED },
    { share: 6, method: 'OPTIONS', target: RESOURCES, headers: `${ORIGIN}Access-Control-Request-Method: GET\r\n`, expect: ADMITTED },
    { share: 6, target: HEALTH, headers: `${ORIGIN}Accept: application/json\r\n`, expect: ADMITTED },
  ]),
  'mcp-modern': keptAlive([
    modern('server/discover', {}, 12),
    modern('resources/list', {}, 13),
    ...PUBLIC_RESOURCE_IDS.map((id) => modern('resources/read', { uri: `service://public/${id}` }, 17 / 3)),
    modern('tools/list', {}, 13),
    modern('tools/call', CALL, 10),
    modern('tools/call', { name: TOOL.list, arguments: {} }, 10),
    ...PUBLIC_RESOURCE_IDS.map((resourceId) => modern('tools/call', { name: TOOL.read, arguments: { resourceId } }, 17 / 3)),
    modern('resources/read', { uri: 'service://public/pricing' }, 4),
    modern('tools/call', { name: TOOL.read, arguments: { resourceId: 'nope' } }, 4),
  ]),
  'mcp-legacy': keptAlive([
    ...[...LEGACY, MODERN, '2024-11-05'].map((asked): Row => {
      const params = { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'soak', version: '1' } }
      return { label: `legacy initialize ${asked}`, share: 5, body: { jsonrpc: '2.0', id: 1, method: 'initialize', params }, expect: mcp(200) }
    }),
    { ...legacy('notifications/initialized', undefined, 10), body: { jsonrpc: '2.0', method: 'notifications/initialized' }, expect: mcp(202) },
    legacy('tools/list', undefined, 15),
    ...PUBLIC_RESOURCE_IDS.map((resourceId) => legacy('tools/call', { name: TOOL.read, arguments: { resourceId } }, 20 / 3)),
    ...PUBLIC_RESOURCE_IDS.map((id) => legacy('resources/read', { uri: `service://public/${id}` }, 10 / 3)),
    legacy('ping', undefined, 8),
    { label: 'legacy 2025-03-26 batch', share: 12, headers: LEGACY_2025_03, body: [[ping, TOOLS_LIST_TWO, RESOURCES_LIST_THREE]], expect: mcp(200) },
  ]),
  documents: keptAlive([
    { share: 76, target: DOCUMENTS, conditional: 0.25, expect: document() },
    { share: 9, method: 'HEAD', target: DOCUMENTS, expect: document() },
    { label: 'GET /problems/<code>', share: 15, target: PROBLEM_PAGES, conditional: 0.25, expect: document() },
  ]),
  homepage: keptAlive(
    [...ACCEPTS, ...ODD_ACCEPTS].map((accept): Row => {
      const markdown = prefersMarkdown(accept)
      const label = `/ as ${markdown ? 'markdown' : 'html'} (Accept ${JSON.stringify(accept)})`
      return { label, method: MOSTLY_GET, target: '/', headers: accept && `Accept: ${accept}\r\n`, conditional: 0.2, expect: homepage(markdown) }
    }),
  ),
  pages: keptAlive([
    { share: 85, method: MOSTLY_GET, target: '/pricing /contact /login /developers', headers: HTML, expect: page(200) },
    { label: '<unknown page>', share: 15, method: MOSTLY_GET, target: '/no-such-page /pricing/extra /developer', headers: HTML, expect: page(404) },
  ]),
  // Several requests on one connection at once, the last closing it: REST, documents, MCP.
  pipelined: [
    { label: 'pipelined', share: 9, how: 'pipelined', repeat: [3, 12], parts: PIPELINED, expect: 'each' },
    { label: 'pipelined, read after 1 s', how: 'pipelined', repeat: [3, 12], parts: PIPELINED, pauseMs: 1_000, expect: 'each' },
  ],
}

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
  if (r < 0.5) return `Cookie: ${pick(random, FORGED_OVERRIDES)}\r\n`
  if (r < 0.7) return `Cookie: big=${'c'.repeat(integer(random, 4_000, 12_000))}\r\n`
  if (r < 0.85) return `Cookie: ${Array.from({ length: integer(random, 100, 600) }, (_, i) => `c${i}=${i}`).join('; ')}\r\n`
  return `Cookie: ${pick(random, ODD_COOKIES)}\r\n`
}

const PATH_PIECES = [
  ...'health capabilities resources product-overview agent-boundaries . .. %2e %2E%2e %2f %2F'.split(' '),
  '',
  ...";|a=b|%00|%|%G1|%e0%a4|%C0%AE|%ff|~|!$&'()*+,|@:|%F0%9F%98%80".split('|'),
  ...[encodeURIComponent('ünïcødé'), encodeURIComponent('资源'), 'x'.repeat(200)],
]
/** A random path under the API: dot segments, encoded slashes and bytes, invalid escapes, unicode. */
function randomApiPath({ random }: CaseContext): string {
  const segments = Array.from({ length: integer(random, 1, 8) }, () => pick(random, PATH_PIECES))
  const query = random() < 0.2 ? `?${pick(random, ['x=%', 'a=b&c', '%%', `q=${'z'.repeat(500)}`])}` : ''
  return `${API}/${segments.join('/')}${query}`
}
/** Lines of `status target…` (`rest`: the contract's REST answer): one row a target, a GET of it. */
const getRows = (table: string): Row[] =>
  table.split('\n').flatMap((line) => {
    const [expected, ...targets] = line.trim().split(' ')
    return targets.map((target) => ({ label: short(target), target, expect: expected === 'rest' ? rest() : status(Number(expected)) }))
  })
const TOOLS_LIST = JSON.stringify(request('tools/list'))
const CALL_REQUEST = request('tools/call', CALL)
const FOUR_TARGETS = `${HEALTH} ${MCP_PATH} / /pricing`
const CALL_9 = { jsonrpc: '2.0', id: 9, method: 'tools/call' }
const nestedArgument = (resourceId: unknown) => ({ ...CALL_9, params: { name: TOOL.read, arguments: { resourceId } } })
const deeplyNested = ({ random }: CaseContext) => {
  const depth = integer(random, 5_000, 50_000)
  return JSON.stringify(nestedArgument(0)).replace('"resourceId":0', `"resourceId":${'['.repeat(depth)}${']'.repeat(depth)}`)
}
/** Content-Type lines, one per type of a `|`-separated list, each after `before`. */
const contentTypes = (types: string, before = '') => types.split('|').map((type) => `${before}Content-Type: ${type}\r\n`)
const NOT_JSON_TYPES = 'text/plain|application/x-www-form-urlencoded|multipart/form-data; boundary=x|application/jsonx|text/json'
const FORM_TYPES = contentTypes('application/json|application/x-www-form-urlencoded|text/plain')
const PAGE_TARGETS = '/ /openapi.json /pricing /contact'
const NEXT_ACTION = `Content-Type: text/plain;charset=UTF-8\r\nNext-Action: ${'f'.repeat(40)}\r\nAccept: text/x-component\r\n`
const NOT_A_STRING = /must be a string, not an array/
const OTHER_METHODS = 'POST PUT PATCH DELETE PROPFIND QUERY SEARCH PURGE TRACE OPTIONS MKCOL LINK'
const MCP_OTHER_METHODS = 'DELETE PUT PATCH HEAD OPTIONS TRACE PROPFIND'
const API_TARGETS = `${HEALTH} ${RESOURCE} ${API}/resources/nope ${API}/nope ${API}`
/** Header lines of the header floods under the limit, and of one over it. */
const FLOOD = {
  bigValue: ({ random }: CaseContext) => `X-Big: ${'a'.repeat(integer(random, 20_000, 100_000))}\r\n`,
  forwardedFor: (ctx: CaseContext) => lines(200, () => `X-Forwarded-For: ${ctx.pool.forwardedFor(ctx.random)}\r\n`),
  accept: `Accept: ${Array.from({ length: 400 }, (_, i) => `text/x-${i};q=0.${i % 10}`).join(', ')}\r\n`,
  mcpMethod: mirrored('tools/list') + lines(299, () => 'Mcp-Method: tools/list\r\n'),
  tokenNames: "!#$%&'*+-.^_`|~09AZaz: v\r\nX-Empty:\r\nX-Spaces:    padded   \r\n",
  obsText: mirrored('tools/l\xefst'),
}
const DOCUMENT_TARGETS = '/ /openapi.json /llms.txt /robots.txt /problems/method_not_allowed /.well-known/mcp.json'
/** Refused as too large, or as no HTTP at all: a 4xx, or a close when the server stops reading. */
const REFUSED = (code: number) => ({ expect: status(code), orClose: true })
const rawRows = (expected: number, rows: Record<string, string>): Row[] =>
  Object.entries(rows).map(([label, raw]) => ({ label, raw, expect: status(expected) }))

/** Hostile requests by category; one row of a category is picked per request, at random. */
const HOSTILE_ROWS: Record<HostileCategory, readonly Row[]> = {
  'bad-path': [
    { label: 'random API path', method: getOrHead(0.15), target: randomApiPath, expect: rest() },
    ...getRows(`
      rest ${API}/resources/%2e%2e/health ${API}/%2fhealth ${API}/resources/%2Fproduct-overview ${API}//health
      rest ${API}/health/ ${API} ${API}/ ${API}/resources/../../../../etc/passwd ${API}/resources/%E0%A4%A
      rest ${API}/resources/%00 ${API}/resources/product%2Doverview ${API}/health?x=% ${API}/resources/a|b
      rest ${API}/resources/"x" ${API}/resources/{x}<y> ${API}/${'a/'.repeat(3000)} ${API}/${'b'.repeat(15_000)}
      404 /%2e%2e/%2e%2e/etc/passwd
      400 /pricing/% /pricing% /_next/static/% /_next/%E0%A4%A
      308 //pricing /// /${HEALTH} ${API}\\health
      200 /?%
      400 /problems/% /problems/%E0
      404 /problems/nope
      400 /.well-known/%
      404 /${'a'.repeat(8000)} /pricing/${'%41'.repeat(2000)}
      400 /_next/image?url=%2F&w=64&q=75
      404 /_next/data/x/y.json /%00 /.env /_next/static/chunks/../../../package.json /api /api/agent/v2/health
      200 * http://evil.example${HEALTH}`),
  ],
  'bad-body': keptAlive([
    ...bodies(mcp(400, -32700), OLD, {
      'truncated JSON': ({ random }) => TOOLS_LIST.slice(0, integer(random, 1, TOOLS_LIST.length - 1)),
      'invalid JSON': ['{', 'nul', '{"jsonrpc":"2.0",}', "{'a':1}", '[1,]', '\u0000'],
      'invalid UTF-8': Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
      'empty body': '',
    }),
    ...bodies(mcp(400, -32600), OLD, {
      'not a JSON-RPC request': ['42', '"x"', 'null', 'true', {}, { ...ping, jsonrpc: '1.0' }, { ...ping, id: 1.5 }, { ...ping, method: 7 }],
      'empty batch': [[]],
      'deeply nested array': `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    }),
    ...bodies(mcp(400, -32600), LEGACY_2025_03, {
      'batch of 21': [Array.from({ length: 21 }, (_, id) => ({ ...ping, id }))],
      'batch with a repeated id': [[ping, ping]],
    }),
    { label: 'modern batch', headers: `MCP-Protocol-Version: ${MODERN}\r\n`, body: [[ping, { ...ping, id: 8 }]], expect: mcp(400, -32600) },
    { label: '2 MB + 1 body', headers: OLD, body: BIG, expect: mcp(413, -31413) },
    { label: '2 MB + 1 chunked body', how: 'chunked', headers: OLD, body: BIG, expect: mcp(413, -31413) },
    { label: 'Content-Type {content-type}', headers: contentTypes(NOT_JSON_TYPES, OLD), body: ping, expect: mcp(415, -31415) },
    // A nested resourceId once overflowed JSON.stringify (-32603).
    { label: 'deeply nested tool argument', headers: OLD, body: deeplyNested, sent: nestedArgument([]), expect: mcp(200, undefined, NOT_A_STRING) },
    { label: 'modern tools/list', headers: mirrored('resources/list'), body: request('tools/list'), expect: mcp(400, -32020) },
    { label: 'modern without _meta', headers: mirrored('tools/list'), body: { ...request('tools/list'), params: {} }, expect: mcp(400, -32602) },
    { label: 'unsupported version', headers: 'MCP-Protocol-Version: 2099-01-01\r\n', body: ping, expect: mcp(400, -32022) },
    ...['prompts/list', 'logging/setLevel', 'subscriptions/listen', 'constructor', '__proto__', 'x'.repeat(300)].map(
      (method): Row => ({ label: `modern ${method.slice(0, 40)}`, headers: mirrored(method), body: request(method), expect: mcp(404, -32601) }),
    ),
    { label: 'huge id', headers: OLD, body: ({ random }) => ({ ...ping, id: 'i'.repeat(integer(random, 10_000, 1_000_000)) }), expect: mcp(200) },
    { label: 'POST 2 MB to the API', method: 'POST', target: `${HEALTH} ${RESOURCE} ${API}/nope`, headers: JSON_TYPE, body: BIG, expect: rest() },
    // Prerendered pages take GET and HEAD only; npm start refuses a POST before Next sees it.
    { label: 'POST 2 MB to a page or document', method: 'POST', target: PAGE_TARGETS, headers: FORM_TYPES, body: BIG, expect: status(405) },
    { label: 'POST page with a forged Next-Action', method: 'POST', target: '/contact', headers: NEXT_ACTION, body: '["$K1"]', expect: status(405) },
  ]),
  'header-flood': [
    { label: 'hundreds of headers', target: HEALTH, headers: numbered(100, 900, (i) => `X-F${i}: v\r\n`), expect: rest() },
    { label: 'thousands of headers (> 16 KiB)', target: HEALTH, headers: numbered(1_500, 3_000, (i) => `X-Flood-${i}: value\r\n`), ...REFUSED(431) },
    { label: 'one 20-100 KB header value', target: FOUR_TARGETS, headers: FLOOD.bigValue, ...REFUSED(431) },
    { label: '15 KB of headers (under the limit)', target: HEALTH, headers: lines(55, (i) => `X-Wide-${i}: ${'w'.repeat(250)}\r\n`), expect: rest() },
    { label: '200 X-Forwarded-For lines', target: HEALTH, headers: FLOOD.forwardedFor, expect: rest() },
    { label: '8 KB Accept on /', target: '/', headers: FLOOD.accept, expect: status(200) },
    { label: '300 Mcp-Method lines', headers: FLOOD.mcpMethod, body: request('tools/list'), expect: mcp(400, -32020) },
    { label: 'every token character in header names', target: HEALTH, headers: FLOOD.tokenNames, expect: rest() },
    { label: 'obs-text in Mcp-Method', headers: FLOOD.obsText, latin1: true, body: request('tools/list', {}, 2), expect: mcp(400, -32020) },
    { label: 'obs-text in Accept and a cookie', target: HEALTH, headers: 'Accept: text/\xff\xfe\r\nCookie: caf\xe9=cr\xe8me\r\n', expect: rest() },
  ],
  'hostile-cookie': keptAlive([
    { label: 'REST with a hostile cookie', target: `${HEALTH} ${RESOURCE}`, headers: cookie, expect: rest() },
    { label: 'MCP with a hostile cookie', headers: (ctx) => mirrored('tools/call', CALL.name) + cookie(ctx), body: CALL_REQUEST, expect: mcp(200) },
    ...getRows('200 /\n200 /pricing\n200 /login\n200 /openapi.json\n401 /.well-known/vercel/flags').map((row) => ({
      ...row,
      label: `${row.target} with a hostile cookie`,
      headers: cookie,
    })),
  ]),
  'wrong-method': [
    { label: 'another method on the API', method: OTHER_METHODS, target: API_TARGETS, headers: EMPTY, expect: rest() },
    { label: 'GET /mcp (an event stream)', target: MCP_PATH, headers: 'Accept: text/event-stream\r\n', expect: mcp(405, -31405) },
    { label: 'another method on /mcp', method: MCP_OTHER_METHODS, target: MCP_PATH, headers: EMPTY, expect: mcp(405, -31405) },
    { label: 'another method on a document', method: 'POST PUT DELETE PATCH TRACE', target: DOCUMENT_TARGETS, headers: EMPTY, expect: status(405) },
    { label: 'another method on a page', method: 'POST PUT DELETE TRACE PROPFIND', target: '/pricing /login', headers: EMPTY, expect: status(405) },
    // Refused on its method before its body is read: answered at once, not cut off when the body never comes.
    {
      label: 'POST to the API, its body still arriving',
      method: 'POST',
      target: HEALTH,
      headers: LONG_BODY,
      body: '{"jsonrpc":"2.0",',
      expect: rest(),
    },
    { label: 'CONNECT', raw: 'CONNECT {host} HTTP/1.1\r\nHost: {host}\r\n\r\n', expect: 'close' },
    { label: 'unknown method', method: 'FOO get TRACK G\x00T BREW', target: HEALTH, ...REFUSED(400) },
  ],
  garbage: [
    { label: 'TLS ClientHello', raw: Buffer.from('16030100a5010000a10303000102030405060708090a0b0c0d0e0f', 'hex'), ...REFUSED(400) },
    { label: 'HTTP/2 preface', raw: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', ...REFUSED(400) },
    ...rawRows(400, {
      'header without a colon': `GET ${HEALTH} HTTP/1.1\r\n{head}Broken header\r\n\r\n`,
      'obs-fold': `GET ${HEALTH} HTTP/1.1\r\n{head}X-A: a\r\n folded\r\n\r\n`,
      'NUL in a header': `GET ${HEALTH} HTTP/1.1\r\n{head}X-A: a\u0000b\r\n\r\n`,
      'Content-Length with chunked': `POST /mcp HTTP/1.1\r\n{head}${JSON_TYPE}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      'two Content-Lengths': `POST /mcp HTTP/1.1\r\n{head}${JSON_TYPE}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      'negative Content-Length': 'POST /mcp HTTP/1.1\r\n{head}Content-Length: -1\r\n\r\n{}',
      'bad chunk size': `POST /mcp HTTP/1.1\r\n{head}${JSON_TYPE}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      'unknown Transfer-Encoding': 'POST /mcp HTTP/1.1\r\n{head}Transfer-Encoding: bogus\r\n\r\n{}',
      'no Host': `GET ${HEALTH} HTTP/1.1\r\nConnection: close\r\n\r\n`,
      'HTTP/1.2': `GET ${HEALTH} HTTP/1.2\r\n{head}\r\n`,
      'tab in the target': `GET ${API}/he\talth HTTP/1.1\r\n{head}\r\n`,
      'raw UTF-8 in the target': 'GET /caf\u00e9 HTTP/1.1\r\n{head}\r\n',
    }),
    ...rawRows(417, { 'Expect: tea': `GET ${HEALTH} HTTP/1.1\r\n{head}Expect: tea\r\n\r\n` }),
    ...rawRows(200, {
      'Upgrade: websocket': `GET ${HEALTH} HTTP/1.1\r\nHost: {host}\r\n{client}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      'Upgrade: h2c (curl --http2)':
        'GET /openapi.json HTTP/1.1\r\nHost: {host}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n',
      'Upgrade on a page': 'GET /pricing HTTP/1.1\r\nHost: {host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
      'HTTP/1.0 without Host': `GET ${HEALTH} HTTP/1.0\r\n{client}\r\n`,
    }),
  ],
}

/** Slow clients by kind: each must be cut off by the server's timeouts (408, or a close). */
const SLOW_ROWS: Record<SlowCategory, readonly Row[]> = {
  'idle-connection': [{ label: 'connect and send nothing', how: 'idle', expect: 'cut-off' }],
  'slow-headers': [{ label: 'headers trickled', how: 'slow-headers', target: FOUR_TARGETS, expect: 'cut-off' }],
  // 300 pipelined requests for the 30 KB OpenAPI document, never read: about 9 MB, more than the
  // kernel's socket buffers take, so the server holds the rest until it gives up on the reader.
  'slow-reader': [{ label: 'pipelined /openapi.json, never read', how: 'unread', target: '/openapi.json', repeat: 300, expect: 'cut-off' }],
  'slow-body': [{ label: 'body trickled', how: 'slow-body', headers: [LONG_BODY, CHUNKED_JSON], expect: 'cut-off' }],
}

function vary<T>(value: Varies<T>, ctx: CaseContext): T {
  if (typeof value === 'function') return (value as (ctx: CaseContext) => T)(ctx)
  return Array.isArray(value) ? pick(ctx.random, value as readonly T[]) : (value as T)
}
const oneOf = (value: string, ctx: CaseContext) => (value.includes(' ') ? pick(ctx.random, value.split(' ')) : value)

/** One item, each as likely as its share. */
function pickShare<T>(random: Random, items: readonly T[], share: (item: T) => number): T {
  let r = random() * items.reduce((sum, item) => sum + share(item), 0)
  for (const item of items) {
    r -= share(item)
    if (r < 0) return item
  }
  return items.at(-1) as T
}
const pickRow = (ctx: CaseContext, rows: readonly Row[]) => pickShare(ctx.random, rows, (row) => row.share ?? 1)

/** Header lines as an object, names lower-case (the judge's form). */
function headerObject(text: string): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).replace(/^ /, '')
  }
  return headers
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * When the server must cut off each kind of slow client, in ms after it connected: a sender within
 * its timeout plus one check interval; a reader that stopped within one to two idle timeouts (Node
 * re-arms the idle timer once while a write is pending).
 */
export function cutOffWindowOf(kind: SlowCategory): readonly [number, number] {
  if (kind === 'slow-reader') return [IDLE_SOCKET_TIMEOUT_MS - 250, 2 * IDLE_SOCKET_TIMEOUT_MS + CUT_OFF_SLACK_MS]
  const timeout = kind === 'slow-body' ? 'requestTimeout' : 'headersTimeout'
  return [SERVER_TIMEOUTS[timeout] - 250, cutOffBoundMs(timeout) + CUT_OFF_SLACK_MS]
}

const JSON_POST = 'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n'

/** A row's request as picked this time: its bytes, what the judge is told, and how its answer is judged. */
function requestOf(ctx: CaseContext, row: Row, client: string) {
  const picked = row.body === undefined ? undefined : vary(row.body, ctx)
  // What is sent, and what the judge is told was sent: the parsed body (none for bytes that are no JSON).
  const [body, sent]: [string | Buffer | undefined, unknown] =
    Buffer.isBuffer(picked) || picked === undefined
      ? [picked, undefined]
      : typeof picked === 'string'
        ? [picked, picked.length <= 10_000 ? parsedJson(picked) : undefined]
        : [JSON.stringify(picked), picked]
  const isMcp = row.target === undefined
  const method = row.method === undefined ? (isMcp ? 'POST' : 'GET') : oneOf(vary(row.method, ctx), ctx)
  const target = row.target === undefined ? MCP_PATH : oneOf(vary(row.target, ctx), ctx)
  const rowLines = row.headers === undefined ? '' : vary(row.headers, ctx)
  const jsonPost = isMcp && body !== undefined ? (/^content-type:/im.test(rowLines) ? JSON_POST.replace(/^Content-Type: .*\r\n/, '') : JSON_POST) : ''
  const expected = typeof row.expect === 'object' ? row.expect : undefined
  const variant = expected?.kind === 'homepage' ? String(expected.markdown) : ''
  const etag = row.conditional && ctx.etags.get(`${target} ${variant}`)
  const conditional = etag && ctx.random() < (row.conditional ?? 0) ? `If-None-Match: ${etag}\r\n` : ''
  const lines = `${jsonPost}${rowLines}${conditional}`
  const headers: Record<string, string> = { ...headerObject(lines), 'x-forwarded-for': client }
  const judged = { method, target, headers, body: row.sent ?? sent, baseUrl: ctx.baseUrl }
  const varies = [row.method, row.target].some((field) => Array.isArray(field) || typeof field === 'function' || field?.includes(' '))
  const named = row.label === undefined ? `${method} ${short(target)}` : varies ? `${row.label}: ${method} ${short(target)}` : row.label
  const size = body === undefined ? 0 : Buffer.byteLength(body)
  const chunked = row.how === 'chunked'
  const framed = body !== undefined && !/content-length|transfer-encoding/i.test(lines)
  const framing = !framed ? '' : chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${size}\r\n`
  const bytes = Buffer.concat(
    [chunked ? `${size.toString(16)}\r\n` : '', body ?? '', chunked ? '\r\n0\r\n\r\n' : ''].map((part) => Buffer.from(part)),
  )
  // The head without its blank line, on a connection it closes or not.
  const start = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${ctx.port}\r\nX-Forwarded-For: ${client}\r\n`
  const head = (close: boolean) => Buffer.from(`${start}${close ? 'Connection: close\r\n' : ''}${lines}${framing}`, row.latin1 ? 'latin1' : 'utf8')
  const cacheable = method === 'GET' && !conditional && ['rest', 'document', 'homepage'].includes(expected?.kind ?? '')
  return {
    method,
    target,
    headers,
    size,
    label: `${named.replace('{content-type}', headers['content-type'] ?? '')}${conditional ? ' (If-None-Match)' : ''}`,
    head,
    whole: (close: boolean) => Buffer.concat([head(close), Buffer.from('\r\n'), bytes]),
    judge: (answer: Answer) => (expected ? answerProblems(judged, answer, expected) : []),
    consistencyKey: cacheable ? `${new URL(target, 'http://x').pathname} ${variant}` : undefined,
    learn: row.conditional ? (answer: Answered) => answer.headers.etag && ctx.etags.set(`${target} ${variant}`, answer.headers.etag) : undefined,
  }
}

const judgeFirst = (judge: (answer: Answer) => string[]) => (answers: Answer[]) => (answers[0] ? judge(answers[0]) : ['no answer'])

/** A row as one exchange: its request built and sent as the row says, its answer judged by the judge. */
function rowCase(ctx: CaseContext, category: Category, row: Row, client = ctx.pool.forwardedFor(ctx.random)): SoakCase {
  const how = row.how ?? 'whole'
  const r = requestOf(ctx, row, client)
  const expect = row.expect === 'close' ? 'close' : row.orClose ? 'answer-or-close' : 'answer'
  const headMethods = [r.method === 'HEAD']
  const boundMs = r.size > 1_000_000 ? 2 * HANG_MS : HANG_MS
  const c: SoakCase = { category, label: r.label, plan: { payload: r.whole(true), headMethods }, boundMs, expect, judge: judgeFirst(r.judge) }
  if (how === 'client' || how === 'chunked')
    return { ...c, plan: { payload: r.whole(false), headMethods, keepAlive: ctx.sockets }, consistencyKey: r.consistencyKey, learn: r.learn }
  if (how === 'pipelined') {
    const count = integer(ctx.random, ...(row.repeat as [number, number]))
    const parts = Array.from({ length: count }, () => requestOf(ctx, pickRow(ctx, row.parts ?? []), ctx.pool.forwardedFor(ctx.random)))
    const payload = Buffer.concat(parts.map((part, i) => part.whole(i === count - 1)))
    const plan = { payload, expectAnswers: count, headMethods: parts.map((part) => part.method === 'HEAD'), pauseReadingMs: row.pauseMs }
    const judge = (answers: Answer[]) =>
      answers.length < count
        ? [`${answers.length} of ${count} pipelined answers`]
        : answers.flatMap((answer, i) => (parts[i]?.judge(answer) ?? []).map((p) => `#${i} ${parts[i]?.label}: ${p}`))
    return { ...c, label: `${count} ${r.label}`, plan, boundMs: HANG_MS + (row.pauseMs ?? 0), timed: !row.pauseMs, judge }
  }
  if (row.raw !== undefined) {
    const [raw, head] = [vary(row.raw, ctx), 'Host: {host}\r\n{client}Connection: close\r\n']
    const fill = (text: string) =>
      text.replaceAll('{head}', head).replaceAll('{host}', `127.0.0.1:${ctx.port}`).replaceAll('{client}', `X-Forwarded-For: ${client}\r\n`)
    return { ...c, plan: { payload: Buffer.isBuffer(raw) ? raw : fill(raw) } }
  }
  if (how === 'whole') return c
  // Slow clients: cut off inside the window of their kind; a 408 when the server answers at all.
  const cutOffWindow = cutOffWindowOf(category as SlowCategory)
  const judge = judgeFirst((a) => answerProblems({ method: r.method, target: r.target, headers: r.headers, baseUrl: ctx.baseUrl }, a, status(408)))
  const slow = { ...c, boundMs: cutOffWindow[1], expect: 'cut-off', cutOffWindow, judge } as const
  if (how === 'idle') return { ...slow, plan: { payload: '' } }
  if (how === 'slow-headers') return { ...slow, plan: { payload: r.head(false), trickle: { bytes: 'X-Slow: drip\r\n', everyMs: 400 } } }
  if (how === 'unread') {
    const payload = Buffer.concat(Array.from({ length: Number(row.repeat) }, () => r.whole(false)))
    return { ...slow, label: `${row.repeat} ${r.label}`, judge: undefined, plan: { payload, neverRead: true } }
  }
  const chunked = 'transfer-encoding' in r.headers
  const payload = Buffer.concat([r.head(false), Buffer.from(`\r\n${chunked ? '1000\r\n' : ''}{"jsonrpc":"2.0",`)])
  return { ...slow, label: `${r.label} to ${r.target}${chunked ? ' (chunked)' : ''}`, plan: { payload, trickle: { bytes: ' ', everyMs: 500 } } }
}

const pickCategory = <C extends string>(ctx: CaseContext, shares: Record<C, number>) =>
  pickShare(ctx.random, Object.keys(shares) as C[], (c) => shares[c])

export const validCase = (ctx: CaseContext, category = pickCategory(ctx, VALID_SHARES)) => rowCase(ctx, category, pickRow(ctx, VALID_ROWS[category]))
export const hostileCase = (ctx: CaseContext, category = pickCategory(ctx, HOSTILE_SHARES)) =>
  rowCase(ctx, category, pickRow(ctx, HOSTILE_ROWS[category]))
export const slowCase = (ctx: CaseContext, kind: SlowCategory) => rowCase(ctx, kind, pickRow(ctx, SLOW_ROWS[kind]))

/** Every kind of valid request (the warm-up before the baseline RSS is taken). */
export function warmUpCases(ctx: CaseContext): SoakCase[] {
  const cases = Array.from({ length: 40 }, () => VALID_CATEGORIES.filter((c) => c !== 'pipelined').map((c) => validCase(ctx, c))).flat()
  return [...cases, ...Array.from({ length: 6 }, () => validCase(ctx, 'pipelined')), ...Array.from({ length: 30 }, () => hostileCase(ctx))]
}

/** Greedy clients, far above the quota: every answer exact, a 429 as right as a 200. */
const GREEDY_ROWS = keptAlive([
  { label: 'greedy GET health', share: 6, target: PATH.health, expect: rest() },
  { ...modern('tools/list', {}, 4), label: 'greedy modern tools/list', expect: { kind: 'mcp', status: 200, refusable: true } },
])
/** A greedy client's request: a random one, or the REST or MCP one; `client` as its X-Forwarded-For. */
export const greedyCase = (ctx: CaseContext, client: string, transport?: 'rest' | 'mcp') =>
  rowCase(ctx, 'quota-greedy', transport ? (GREEDY_ROWS[transport === 'rest' ? 0 : 1] as Row) : pickRow(ctx, GREEDY_ROWS), client)
