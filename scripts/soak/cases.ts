/**
 * What the soak sends, each request paired with the contract's answer for it: valid traffic of every
 * kind, greedy clients, hostile input and slow clients. A case is judged by how its exchange must end
 * (answer, cut-off, close) and by an oracle of its answers (harness/contract-answers.ts).
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
import { mcpAnswerProblems, restAnswerProblems, type Answer } from '../../harness/contract-answers.ts'
import { forwardedForm, integer, pick, type ClientPool, type Random } from './clients.ts'
import type { Answered, HttpSpec, RawPlan } from './wire.ts'

export const VALID_CATEGORIES = ['rest', 'mcp-modern', 'mcp-legacy', 'documents', 'homepage', 'pages', 'pipelined'] as const
export const HOSTILE_CATEGORIES = ['bad-path', 'bad-body', 'header-flood', 'hostile-cookie', 'wrong-method', 'garbage'] as const
export const SLOW_CATEGORIES = ['slow-headers', 'idle-connection', 'slow-body', 'slow-reader'] as const
export type SlowCategory = (typeof SLOW_CATEGORIES)[number]
export type Category = (typeof VALID_CATEGORIES)[number] | (typeof HOSTILE_CATEGORIES)[number] | (typeof SLOW_CATEGORIES)[number] | 'quota-greedy'

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

export function toAnswer(answered: Answered): Answer {
  return { status: answered.status, headers: answered.headers, body: answered.body.toString('utf8') }
}

const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))

function only(count: number, judgeOne: (answer: Answer) => string[]): (answers: Answer[]) => string[] {
  return (answers) => (answers.length < count ? [`${answers.length} of ${count} answers`] : answers.slice(0, count).flatMap(judgeOne))
}

function statusIn(statuses: readonly number[]): (answers: Answer[]) => string[] {
  return only(1, (a) => (statuses.includes(a.status) ? [] : [`expected ${statuses.join('/')}, got ${a.status} ${a.body.slice(0, 120)}`]))
}

function xff(ctx: CaseContext): Record<string, string> {
  return { 'x-forwarded-for': ctx.pool.forwardedFor(ctx.random) }
}

// ------------------------------------------------------------------------------------------------
// Valid traffic

function restJudge(ctx: CaseContext, method: string, target: string, headers: Record<string, string>, admittedOnly: boolean) {
  return only(1, (a) => {
    const problems = restAnswerProblems({ method, target, headers: lower(headers), baseUrl: ctx.baseUrl }, a)
    if (admittedOnly && a.status === 429) problems.push('a 429 for a client far below its quota')
    return problems
  })
}

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
    judge: restJudge(ctx, method, target, headers, category === 'rest'),
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

function envelope(version = MODERN) {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'soak', version: '1.0.0' },
  }
}

function jsonHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra }
}

export function mcpCase(
  ctx: CaseContext,
  category: Category,
  label: string,
  headers: Record<string, string>,
  body: unknown,
  expected: { status: number; code?: number; check?: (payload: any) => string[] },
  raw?: string | Buffer,
): SoakCase {
  const allHeaders = { ...xff(ctx), ...headers }
  const text = raw ?? JSON.stringify(body)
  return {
    category,
    label,
    send: { kind: 'http', spec: { method: 'POST', path: MCP_PATH, headers: allHeaders, body: text } },
    boundMs: Buffer.byteLength(text) > 1_000_000 ? BIG_BODY_HANG_MS : HANG_MS,
    expect: 'answer',
    judge: only(1, (a) => {
      const problems = mcpAnswerProblems({ body }, a)
      if (a.status !== expected.status) return [...problems, `expected HTTP ${expected.status}, got ${a.status} ${a.body.slice(0, 160)}`]
      if (a.status === 202) return problems
      let payload: any
      try {
        payload = JSON.parse(a.body)
      } catch {
        return problems
      }
      if (expected.code !== undefined && payload?.error?.code !== expected.code)
        problems.push(`expected JSON-RPC ${expected.code}, got ${JSON.stringify(payload?.error ?? 'a result').slice(0, 160)}`)
      if (expected.code === undefined && !Array.isArray(payload) && payload?.result === undefined)
        problems.push(`expected a result, got ${a.body.slice(0, 160)}`)
      if (expected.check) problems.push(...expected.check(payload))
      return problems
    }),
  }
}

function modern(
  ctx: CaseContext,
  method: string,
  params: Record<string, unknown>,
  expected: Parameters<typeof mcpCase>[5],
  extraHeaders: Record<string, string> = {},
  category: Category = 'mcp-modern',
): SoakCase {
  const name = method === 'tools/call' ? params.name : method === 'resources/read' ? params.uri : undefined
  const id = ctx.random() < 0.5 ? `soak-${integer(ctx.random, 1, 1e9)}` : integer(ctx.random, 0, 2 ** 40)
  return mcpCase(
    ctx,
    category,
    `modern ${method}${typeof name === 'string' ? ` ${name}` : ''}`,
    jsonHeaders({ 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(typeof name === 'string' ? { 'mcp-name': name } : {}), ...extraHeaders }),
    { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope() } },
    expected,
  )
}

const toolResultOk = (payload: any) =>
  payload?.result?.isError === true || typeof payload?.result?.structuredContent !== 'object'
    ? [`tool call failed: ${JSON.stringify(payload).slice(0, 160)}`]
    : []

function validModern(ctx: CaseContext): SoakCase {
  const r = ctx.random()
  const id = pick(ctx.random, PUBLIC_RESOURCE_IDS)
  if (r < 0.12)
    return modern(
      ctx,
      'server/discover',
      {},
      { status: 200, check: (p) => (p?.result?.supportedVersions?.[0] === MODERN ? [] : ['discover without supportedVersions']) },
    )
  if (r < 0.25)
    return modern(
      ctx,
      'resources/list',
      {},
      { status: 200, check: (p) => (p?.result?.resources?.length === 3 ? [] : ['resources/list without 3 resources']) },
    )
  if (r < 0.42) {
    return modern(
      ctx,
      'resources/read',
      { uri: `service://public/${id}` },
      {
        status: 200,
        check: (p) =>
          p?.result?.contents?.[0]?.mimeType === 'text/markdown' && p.result.contents[0].text.length > 0 ? [] : ['resources/read without Markdown'],
      },
    )
  }
  if (r < 0.55)
    return modern(ctx, 'tools/list', {}, { status: 200, check: (p) => (p?.result?.tools?.length === 3 ? [] : ['tools/list without 3 tools']) })
  if (r < 0.65) return modern(ctx, 'tools/call', { name: TOOL.capabilities, arguments: {} }, { status: 200, check: toolResultOk })
  if (r < 0.75) return modern(ctx, 'tools/call', { name: TOOL.list, arguments: {} }, { status: 200, check: toolResultOk })
  if (r < 0.92) return modern(ctx, 'tools/call', { name: TOOL.read, arguments: { resourceId: id } }, { status: 200, check: toolResultOk })
  if (r < 0.96) {
    return modern(
      ctx,
      'resources/read',
      { uri: 'service://public/pricing' },
      {
        status: 200,
        code: -32602,
        check: (p) => (p?.error?.data?.code === 'agent_resource_not_found' ? [] : ['unknown URI without agent_resource_not_found']),
      },
    )
  }
  return modern(
    ctx,
    'tools/call',
    { name: TOOL.read, arguments: { resourceId: 'nope' } },
    {
      status: 200,
      check: (p) => (p?.result?.isError === true ? [] : ['unknown resourceId is not a tool error']),
    },
  )
}

function legacy(
  ctx: CaseContext,
  body: unknown,
  expected: Parameters<typeof mcpCase>[5],
  version = pick(ctx.random, LEGACY),
  category: Category = 'mcp-legacy',
): SoakCase {
  const method = Array.isArray(body) ? 'batch' : (body as { method: string }).method
  return mcpCase(ctx, category, `legacy ${version} ${method}`, jsonHeaders({ 'mcp-protocol-version': version }), body, expected)
}

function validLegacy(ctx: CaseContext): SoakCase {
  const r = ctx.random()
  const id = integer(ctx.random, 1, 1e6)
  const version = pick(ctx.random, LEGACY)
  if (r < 0.25) {
    const asked = pick(ctx.random, [...LEGACY, MODERN, '2024-11-05'])
    const negotiated = (LEGACY as readonly string[]).includes(asked) ? asked : '2025-11-25'
    return mcpCase(
      ctx,
      'mcp-legacy',
      `legacy initialize ${asked}`,
      jsonHeaders(),
      { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'soak', version: '1' } } },
      {
        status: 200,
        check: (p) =>
          p?.result?.protocolVersion === negotiated ? [] : [`initialize ${asked} negotiated ${p?.result?.protocolVersion}, expected ${negotiated}`],
      },
    )
  }
  if (r < 0.35) return legacy(ctx, { jsonrpc: '2.0', method: 'notifications/initialized' }, { status: 202 }, version)
  if (r < 0.5) return legacy(ctx, { jsonrpc: '2.0', id, method: 'tools/list' }, { status: 200 }, version)
  if (r < 0.7) {
    return legacy(
      ctx,
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name: TOOL.read, arguments: { resourceId: pick(ctx.random, PUBLIC_RESOURCE_IDS) } } },
      { status: 200, check: toolResultOk },
      version,
    )
  }
  if (r < 0.8)
    return legacy(
      ctx,
      { jsonrpc: '2.0', id, method: 'resources/read', params: { uri: `service://public/${pick(ctx.random, PUBLIC_RESOURCE_IDS)}` } },
      { status: 200 },
      version,
    )
  if (r < 0.88) return legacy(ctx, { jsonrpc: '2.0', id, method: 'ping' }, { status: 200 }, version)
  const batch = [
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 'two', method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'resources/list' },
  ]
  return legacy(
    ctx,
    batch,
    {
      status: 200,
      check: (p) => (Array.isArray(p) && p.length === 3 && p.every((m) => m.result) ? [] : [`batch answer ${JSON.stringify(p).slice(0, 160)}`]),
    },
    '2025-03-26',
  )
}

const DOCUMENTS: Record<string, string> = {
  '/openapi.json': 'application/vnd.oai.openapi+json',
  '/llms.txt': 'text/plain; charset=utf-8',
  '/sitemap.xml': 'application/xml; charset=utf-8',
  '/robots.txt': 'text/plain; charset=utf-8',
  '/developers.md': 'text/markdown; charset=utf-8',
  '/mcp.json': 'application/json',
  '/.well-known/mcp.json': 'application/json',
  '/.well-known/mcp/server-card.json': 'application/json',
  '/.well-known/oauth-protected-resource': 'application/json',
}
const PROBLEM_CODES = [
  'agent_endpoint_not_found',
  'agent_resource_not_found',
  'method_not_allowed',
  'rate_limit_exceeded',
  'public_agent_access_disabled',
  'mcp_header_mismatch',
  'mcp_method_not_allowed',
]

function validDocument(ctx: CaseContext): SoakCase {
  const problemPath = ctx.random() < 0.15
  const path = problemPath ? `/problems/${pick(ctx.random, PROBLEM_CODES)}` : pick(ctx.random, Object.keys(DOCUMENTS))
  const method = ctx.random() < 0.1 ? 'HEAD' : 'GET'
  const known = ctx.etags.get(path)
  const conditional = known !== undefined && method === 'GET' && ctx.random() < 0.25
  const headers: Record<string, string> = { ...xff(ctx), ...(conditional ? { 'if-none-match': known } : {}) }
  const contentType = DOCUMENTS[path]
  return {
    category: 'documents',
    label: `${method} ${problemPath ? '/problems/<code>' : path}${conditional ? ' (If-None-Match)' : ''}`,
    send: { kind: 'http', spec: { method, path, headers } },
    boundMs: HANG_MS,
    expect: 'answer',
    judge: only(1, (a) => {
      if (conditional) return a.status === 304 && a.body === '' ? [] : [`a matching If-None-Match got ${a.status}`]
      const problems: string[] = []
      if (a.status !== 200) return [`expected 200, got ${a.status}`]
      if (contentType && a.headers['content-type'] !== contentType)
        problems.push(`Content-Type ${a.headers['content-type']}, expected ${contentType}`)
      if (method === 'GET' && a.body.length === 0) problems.push('an empty document')
      if (method === 'HEAD' && a.body.length !== 0) problems.push('a HEAD answer has a body')
      if (a.headers['ratelimit-remaining'] !== undefined) problems.push('a static document spent the quota')
      return problems
    }),
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
  'text/*',
  'application/json',
  'text/markdown;q=0',
  'TEXT/MARKDOWN',
  'text/markdown;q=abc, text/html;q=0.1',
  '',
]

function validHomepage(ctx: CaseContext): SoakCase {
  const accept = pick(ctx.random, ACCEPTS)
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
    judge: only(1, (a) => {
      const problems: string[] = []
      if (!/\baccept\b/i.test(a.headers.vary ?? '')) problems.push(`Vary without Accept: ${a.headers.vary}`)
      if (!(a.headers.link ?? '').includes('rel="service-desc"')) problems.push('no Link relations')
      if (conditional) return a.status === 304 ? problems : [...problems, `a matching If-None-Match got ${a.status}`]
      if (a.status !== 200) return [...problems, `expected 200, got ${a.status}`]
      const type = markdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8'
      if (a.headers['content-type'] !== type) problems.push(`Accept ${JSON.stringify(accept)} got ${a.headers['content-type']}, expected ${type}`)
      return problems
    }),
    ...(method === 'GET' && !conditional ? { consistencyKey: `homepage ${variant}` } : {}),
    learn: (answer) => {
      if (answer.headers.etag) ctx.etags.set(key, answer.headers.etag)
    },
  }
}

function validPage(ctx: CaseContext): SoakCase {
  const r = ctx.random()
  const path =
    r < 0.85
      ? pick(ctx.random, ['/pricing', '/contact', '/login', '/developers'])
      : pick(ctx.random, ['/no-such-page', '/pricing/extra', '/developer'])
  const status = r < 0.85 ? 200 : 404
  const method = ctx.random() < 0.1 ? 'HEAD' : 'GET'
  return {
    category: 'pages',
    label: `${method} ${r < 0.85 ? path : '<unknown page>'}`,
    send: { kind: 'http', spec: { method, path, headers: { ...xff(ctx), accept: 'text/html' } } },
    boundMs: HANG_MS,
    expect: 'answer',
    judge: only(1, (a) => {
      if (a.status !== status) return [`expected ${status}, got ${a.status}`]
      return (a.headers['content-type'] ?? '').startsWith('text/html') ? [] : [`Content-Type ${a.headers['content-type']}`]
    }),
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
    const last = i === count - 1
    const client = `X-Forwarded-For: ${ctx.pool.forwardedFor(ctx.random)}\r\n`
    const kind = ctx.random()
    const close = last ? 'Connection: close\r\n' : ''
    if (kind < 0.5) {
      const target = pick(ctx.random, [PATH.health, PATH.resources, PATH.resource('agent-boundaries'), `${API}/nope`])
      const method = ctx.random() < 0.2 ? 'HEAD' : 'GET'
      parts.push(`${method} ${target} HTTP/1.1\r\n${host}${client}${close}\r\n`)
      heads.push(method === 'HEAD')
      judges.push((a) => restAnswerProblems({ method, target, baseUrl: ctx.baseUrl }, a))
    } else if (kind < 0.8) {
      const path = pick(ctx.random, Object.keys(DOCUMENTS))
      parts.push(`GET ${path} HTTP/1.1\r\n${host}${client}${close}\r\n`)
      heads.push(false)
      judges.push((a) => (a.status === 200 ? [] : [`${path}: ${a.status}`]))
    } else {
      const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' })
      parts.push(
        `POST /mcp HTTP/1.1\r\n${host}${client}${close}Content-Type: application/json\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      )
      heads.push(false)
      judges.push((a) => {
        const problems = mcpAnswerProblems({ body: JSON.parse(body) }, a)
        return a.status === 200 ? problems : [...problems, `ping: ${a.status}`]
      })
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
  if (ctx.random() < 0.6) {
    const c = restCase(ctx, 'GET', PATH.health, headers, 'quota-greedy')
    return { ...c, label: 'greedy GET health' }
  }
  const body = { jsonrpc: '2.0', id: 'greedy', method: 'tools/list', params: { _meta: envelope() } }
  return {
    ...mcpCase(
      ctx,
      'quota-greedy',
      'greedy modern tools/list',
      jsonHeaders({ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list', ...headers }),
      body,
      { status: 200 },
    ),
    judge: only(1, (a) => {
      const problems = mcpAnswerProblems({ body }, a)
      if (a.status !== 200 && a.status !== 429) problems.push(`expected 200 or 429, got ${a.status}`)
      return problems
    }),
  }
}

// ------------------------------------------------------------------------------------------------
// Hostile input

function rawGet(ctx: CaseContext, target: string, extraHeaderLines = '', method = 'GET'): RawPlan {
  return {
    payload: `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${ctx.port}\r\nX-Forwarded-For: ${ctx.pool.forwardedFor(ctx.random)}\r\nConnection: close\r\n${extraHeaderLines}\r\n`,
    headMethods: [method === 'HEAD'],
  }
}

function rawRestCase(ctx: CaseContext, category: Category, label: string, target: string, method = 'GET', extraHeaderLines = ''): SoakCase {
  return {
    category,
    label,
    send: { kind: 'raw', plan: rawGet(ctx, target, extraHeaderLines, method) },
    boundMs: HANG_MS,
    expect: 'answer',
    judge: only(1, (a) => restAnswerProblems({ method, target, baseUrl: ctx.baseUrl }, a)),
  }
}

function rawCase(category: Category, label: string, plan: RawPlan, statuses: readonly number[], expect: SoakCase['expect'] = 'answer'): SoakCase {
  return { category, label, send: { kind: 'raw', plan }, boundMs: HANG_MS, expect, judge: statusIn(statuses) }
}

const PATH_PIECES = [
  'health',
  'capabilities',
  'resources',
  'product-overview',
  'agent-boundaries',
  '.',
  '..',
  '%2e',
  '%2E%2e',
  '%2f',
  '%2F',
  '',
  ';',
  'a=b',
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
  'x'.repeat(200),
]

/** A random path under the API: dot segments, encoded slashes and bytes, invalid escapes, unicode. */
function randomApiPath(random: Random): string {
  const segments = Array.from({ length: integer(random, 1, 8) }, () => pick(random, PATH_PIECES))
  const query = random() < 0.2 ? `?${pick(random, ['x=%', 'a=b&c', '%%', `q=${'z'.repeat(500)}`])}` : ''
  return `${API}/${segments.join('/')}${query}`
}

function badPath(ctx: CaseContext): SoakCase {
  const r = ctx.random()
  if (r < 0.45) {
    const target = randomApiPath(ctx.random)
    return rawRestCase(ctx, 'bad-path', 'random API path', target, ctx.random() < 0.85 ? 'GET' : 'HEAD')
  }
  if (r < 0.7) {
    const target = pick(ctx.random, [
      `${API}/resources/%2e%2e/health`,
      `${API}/%2fhealth`,
      `${API}/resources/%2Fproduct-overview`,
      `${API}//health`,
      `${PATH.health}/`,
      API,
      `${API}/`,
      `${API}/resources/../../../../etc/passwd`,
      `${API}/resources/%E0%A4%A`,
      `${API}/resources/%00`,
      `${API}/resources/product%2Doverview`,
      `${PATH.health}?x=%`,
      `${API}/resources/a|b`,
      `${API}/resources/"x"`,
      `${API}/resources/{x}<y>`,
      `${API}/${'a/'.repeat(3000)}`,
      `${API}/${'b'.repeat(15_000)}`,
    ])
    return rawRestCase(ctx, 'bad-path', `API ${target.length > 50 ? `${target.slice(0, 50)}… (${target.length} chars)` : target}`, target)
  }
  const [target, statuses] = pick(ctx.random, [
    ['/%2e%2e/%2e%2e/etc/passwd', [404]],
    ['/pricing/%', [400]],
    ['/pricing%', [400]],
    ['/_next/static/%', [400]],
    ['/_next/%E0%A4%A', [400]],
    ['//pricing', [308]],
    ['///', [308]],
    [`/${PATH.health}`, [308]],
    [`${API}\\health`, [308]],
    ['/?%', [200]],
    ['/problems/%', [400]],
    ['/problems/%E0', [400]],
    ['/problems/nope', [404]],
    ['/.well-known/%', [400]],
    [`/${'a'.repeat(8000)}`, [404]],
    [`/pricing/${'%41'.repeat(2000)}`, [404]],
    ['/_next/image?url=%2F&w=64&q=75', [400]],
    ['/_next/data/x/y.json', [404]],
    ['/%00', [404]],
    ['/.env', [404]],
    ['/_next/static/chunks/../../../package.json', [404]],
    ['/api', [404]],
    ['/api/agent/v2/health', [404]],
    ['*', [200]],
    [`http://evil.example${PATH.health}`, [200]],
  ] as const)
  const answerOrClose = target.length > 16_000
  return rawCase(
    'bad-path',
    `${target.length > 50 ? `${target.slice(0, 50)}… (${target.length} chars)` : target}`,
    rawGet(ctx, target),
    statuses,
    answerOrClose ? 'answer-or-close' : 'answer',
  )
}

function badBody(ctx: CaseContext): SoakCase {
  const version = { 'mcp-protocol-version': '2025-11-25' }
  const r = integer(ctx.random, 0, 21)
  const ping = { jsonrpc: '2.0', id: 7, method: 'ping' }
  switch (r) {
    case 0: {
      const full = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } })
      const cut = full.slice(0, integer(ctx.random, 1, full.length - 1))
      return mcpCase(ctx, 'bad-body', 'truncated JSON', jsonHeaders(version), undefined, { status: 400, code: -32700 }, cut)
    }
    case 1:
      return mcpCase(
        ctx,
        'bad-body',
        'invalid JSON',
        jsonHeaders(version),
        undefined,
        { status: 400, code: -32700 },
        pick(ctx.random, ['{', 'nul', '{"jsonrpc":"2.0",}', "{'a':1}", '[1,]', '\u0000']),
      )
    case 2:
      return mcpCase(
        ctx,
        'bad-body',
        'invalid UTF-8',
        jsonHeaders(version),
        undefined,
        { status: 400, code: -32700 },
        Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
      )
    case 3:
      return mcpCase(ctx, 'bad-body', 'empty body', jsonHeaders(version), undefined, { status: 400, code: -32700 }, '')
    case 4: {
      const value = pick(ctx.random, [
        42,
        'x',
        null,
        true,
        {},
        { jsonrpc: '1.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 1.5, method: 'ping' },
        { jsonrpc: '2.0', id: 1, method: 7 },
      ])
      return mcpCase(ctx, 'bad-body', 'not a JSON-RPC request', jsonHeaders(version), value, { status: 400, code: -32600 })
    }
    case 5:
      return {
        ...mcpCase(ctx, 'bad-body', '2 MB + 1 body', jsonHeaders(version), undefined, { status: 413, code: -31413 }, ctx.bigFiller),
        boundMs: BIG_BODY_HANG_MS,
      }
    case 6: {
      const c = mcpCase(
        ctx,
        'bad-body',
        '2 MB + 1 chunked body',
        jsonHeaders({ ...version, 'transfer-encoding': 'chunked' }),
        undefined,
        { status: 413, code: -31413 },
        ctx.bigFiller,
      )
      return { ...c, boundMs: BIG_BODY_HANG_MS }
    }
    case 7: {
      const type = pick(ctx.random, [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonx',
        'text/json',
      ])
      return mcpCase(ctx, 'bad-body', `Content-Type ${type}`, { ...jsonHeaders(version), 'content-type': type }, ping, { status: 415, code: -31415 })
    }
    case 8:
      return mcpCase(
        ctx,
        'bad-body',
        'batch of 21',
        jsonHeaders({ 'mcp-protocol-version': '2025-03-26' }),
        Array.from({ length: 21 }, (_, i) => ({ ...ping, id: i })),
        { status: 400, code: -32600 },
      )
    case 9:
      return mcpCase(ctx, 'bad-body', 'modern batch', jsonHeaders({ 'mcp-protocol-version': MODERN }), [ping, { ...ping, id: 8 }], {
        status: 400,
        code: -32600,
      })
    case 10:
      return mcpCase(ctx, 'bad-body', 'batch with a repeated id', jsonHeaders({ 'mcp-protocol-version': '2025-03-26' }), [ping, ping], {
        status: 400,
        code: -32600,
      })
    case 11:
      return mcpCase(ctx, 'bad-body', 'empty batch', jsonHeaders(version), [], { status: 400, code: -32600 })
    case 12:
      return mcpCase(
        ctx,
        'bad-body',
        'deeply nested array',
        jsonHeaders(version),
        undefined,
        { status: 400, code: -32600 },
        `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      )
    case 13: {
      // The bug fixed with this soak: a nested resourceId overflowed JSON.stringify (-32603).
      const depth = integer(ctx.random, 5_000, 50_000)
      const raw = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"${TOOL.read}","arguments":{"resourceId":${'['.repeat(depth)}${']'.repeat(depth)}}}}`
      return mcpCase(
        ctx,
        'bad-body',
        'deeply nested tool argument',
        jsonHeaders(version),
        { jsonrpc: '2.0', id: 9 },
        {
          status: 200,
          check: (p) =>
            p?.result?.isError === true && /must be a string, not an array/.test(p.result.content?.[0]?.text ?? '')
              ? []
              : [`expected a tool error, got ${JSON.stringify(p).slice(0, 160)}`],
        },
        raw,
      )
    }
    case 14:
      return modern(ctx, 'tools/list', {}, { status: 400, code: -32020 }, { 'mcp-method': 'resources/list' }, 'bad-body')
    case 15: {
      const body = { jsonrpc: '2.0', id: 'no-meta', method: 'tools/list', params: {} }
      return mcpCase(ctx, 'bad-body', 'modern without _meta', jsonHeaders({ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' }), body, {
        status: 400,
        code: -32602,
      })
    }
    case 16:
      return mcpCase(ctx, 'bad-body', 'unsupported version', jsonHeaders({ 'mcp-protocol-version': '2099-01-01' }), ping, {
        status: 400,
        code: -32022,
      })
    case 17:
      return modern(
        ctx,
        pick(ctx.random, ['prompts/list', 'logging/setLevel', 'subscriptions/listen', 'constructor', '__proto__', 'x'.repeat(300)]),
        {},
        { status: 404, code: -32601 },
        {},
        'bad-body',
      )
    case 18: {
      const id = 'i'.repeat(integer(ctx.random, 10_000, 1_000_000))
      return mcpCase(ctx, 'bad-body', 'huge id', jsonHeaders(version), { jsonrpc: '2.0', id, method: 'ping' }, { status: 200 })
    }
    case 19: {
      const target = pick(ctx.random, [PATH.health, PATH.resource('product-overview'), `${API}/nope`])
      const c = restCase(ctx, 'POST', target, { 'content-type': 'application/json' }, 'bad-body')
      return {
        ...c,
        label: `POST 2 MB to ${target.slice(API.length)}`,
        boundMs: BIG_BODY_HANG_MS,
        send: { kind: 'http', spec: { ...(c.send as { spec: HttpSpec }).spec, body: ctx.bigFiller } },
      }
    }
    case 20: {
      const [path, statuses] = pick(ctx.random, [
        ['/', [405]],
        ['/openapi.json', [405]],
        // Prerendered pages take GET and HEAD only.
        ['/pricing', [405]],
        ['/contact', [405]],
      ] as const)
      return {
        category: 'bad-body',
        label: `POST 2 MB to ${path}`,
        send: {
          kind: 'http',
          spec: {
            method: 'POST',
            path,
            headers: { ...xff(ctx), 'content-type': pick(ctx.random, ['application/json', 'application/x-www-form-urlencoded', 'text/plain']) },
            body: ctx.bigFiller,
          },
        },
        boundMs: BIG_BODY_HANG_MS,
        expect: 'answer',
        judge: statusIn(statuses),
      }
    }
    default:
      return {
        category: 'bad-body',
        label: 'POST page with a forged Next-Action',
        // Prerendered pages take GET and HEAD only: npm start refuses the POST before Next sees it.
        send: {
          kind: 'http',
          spec: {
            method: 'POST',
            path: '/contact',
            headers: { ...xff(ctx), 'content-type': 'text/plain;charset=UTF-8', 'next-action': 'f'.repeat(40), accept: 'text/x-component' },
            body: '["$K1"]',
          },
        },
        boundMs: HANG_MS,
        expect: 'answer',
        judge: statusIn([405]),
      }
  }
}

function headerFlood(ctx: CaseContext): SoakCase {
  const r = integer(ctx.random, 0, 9)
  const health = PATH.health
  switch (r) {
    case 0: {
      const lines = Array.from({ length: integer(ctx.random, 100, 900) }, (_, i) => `X-F${i}: v\r\n`).join('')
      return rawRestCase(ctx, 'header-flood', 'hundreds of headers', health, 'GET', lines)
    }
    case 1: {
      const lines = Array.from({ length: integer(ctx.random, 1_500, 3_000) }, (_, i) => `X-Flood-${i}: value\r\n`).join('')
      return rawCase('header-flood', 'thousands of headers (> 16 KiB)', rawGet(ctx, health, lines), [431], 'answer-or-close')
    }
    case 2:
      return rawCase(
        'header-flood',
        'one 20-100 KB header value',
        rawGet(ctx, pick(ctx.random, [health, MCP_PATH, '/', '/pricing']), `X-Big: ${'a'.repeat(integer(ctx.random, 20_000, 100_000))}\r\n`),
        [431],
        'answer-or-close',
      )
    case 3: {
      const lines = Array.from({ length: 55 }, (_, i) => `X-Wide-${i}: ${'w'.repeat(250)}\r\n`).join('')
      return rawRestCase(ctx, 'header-flood', '15 KB of headers (under the limit)', health, 'GET', lines)
    }
    case 4: {
      const lines = Array.from({ length: 200 }, () => `X-Forwarded-For: ${ctx.pool.forwardedFor(ctx.random)}\r\n`).join('')
      return rawRestCase(ctx, 'header-flood', '200 X-Forwarded-For lines', health, 'GET', lines)
    }
    case 5: {
      const accept = Array.from({ length: 400 }, (_, i) => `text/x-${i};q=0.${i % 10}`).join(', ')
      return rawCase('header-flood', '8 KB Accept on /', rawGet(ctx, '/', `Accept: ${accept.slice(0, 8_000)}\r\n`), [200])
    }
    case 6: {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } })
      const methods = Array.from({ length: 300 }, () => 'Mcp-Method: tools/list\r\n').join('')
      return mcpRaw(ctx, 'header-flood', '300 Mcp-Method lines', `MCP-Protocol-Version: ${MODERN}\r\n${methods}`, body, 400, -32020)
    }
    case 7:
      return rawRestCase(
        ctx,
        'header-flood',
        'every token character in header names',
        health,
        'GET',
        "!#$%&'*+-.^_`|~09AZaz: v\r\nX-Empty:\r\nX-Spaces:    padded   \r\n",
      )
    case 8: {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope() } })
      return mcpRaw(
        ctx,
        'header-flood',
        'obs-text in Mcp-Method',
        `MCP-Protocol-Version: ${MODERN}\r\nMcp-Method: tools/l\xefst\r\n`,
        body,
        400,
        -32020,
      )
    }
    default:
      return rawRestCase(
        ctx,
        'header-flood',
        'obs-text in Accept and a cookie',
        health,
        'GET',
        'Accept: text/\xff\xfe\r\nCookie: caf\xe9=cr\xe8me\r\n',
      )
  }
}

function mcpRaw(ctx: CaseContext, category: Category, label: string, headerLines: string, body: string, status: number, code: number): SoakCase {
  const payload = Buffer.from(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${ctx.port}\r\nX-Forwarded-For: ${ctx.pool.forwardedFor(ctx.random)}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${headerLines}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    'latin1',
  )
  return {
    category,
    label,
    send: { kind: 'raw', plan: { payload } },
    boundMs: HANG_MS,
    expect: 'answer',
    judge: only(1, (a) => {
      const problems = mcpAnswerProblems({ body: JSON.parse(body) }, a)
      if (a.status !== status) return [...problems, `expected ${status}, got ${a.status} ${a.body.slice(0, 120)}`]
      if (JSON.parse(a.body)?.error?.code !== code) problems.push(`expected JSON-RPC ${code}: ${a.body.slice(0, 120)}`)
      return problems
    }),
  }
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

function hostileCookie(ctx: CaseContext): SoakCase {
  const r = ctx.random()
  const cookie =
    r < 0.5
      ? pick(ctx.random, FORGED_OVERRIDES)
      : r < 0.7
        ? `big=${'c'.repeat(integer(ctx.random, 4_000, 12_000))}`
        : r < 0.85
          ? Array.from({ length: integer(ctx.random, 100, 600) }, (_, i) => `c${i}=${i}`).join('; ')
          : pick(ctx.random, ['a', '=;=;=', '"x', ';;;', 'x=%', '__Host-x=1; __Secure-y=2', '\t=\t'])
  const where = ctx.random()
  if (where < 0.4) {
    const c = restCase(ctx, 'GET', pick(ctx.random, [PATH.health, PATH.resource('product-overview')]), { cookie }, 'hostile-cookie')
    return { ...c, label: `REST with cookie ${cookie.slice(0, 30)}` }
  }
  if (where < 0.6) {
    const c = modern(
      ctx,
      'tools/call',
      { name: TOOL.capabilities, arguments: {} },
      { status: 200, check: toolResultOk },
      { cookie },
      'hostile-cookie',
    )
    return { ...c, label: `MCP with cookie ${cookie.slice(0, 30)}` }
  }
  const [path, statuses] = pick(ctx.random, [
    ['/', [200]],
    ['/pricing', [200]],
    ['/login', [200]],
    ['/openapi.json', [200]],
    ['/.well-known/vercel/flags', [401]],
  ] as const)
  return {
    category: 'hostile-cookie',
    label: `${path} with cookie ${cookie.slice(0, 30)}`,
    send: { kind: 'http', spec: { method: 'GET', path, headers: { ...xff(ctx), cookie } } },
    boundMs: HANG_MS,
    expect: 'answer',
    judge: statusIn(statuses),
  }
}

function wrongMethod(ctx: CaseContext): SoakCase {
  const r = ctx.random()
  if (r < 0.3) {
    const method = pick(ctx.random, ['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'QUERY', 'SEARCH', 'PURGE', 'TRACE', 'OPTIONS', 'MKCOL', 'LINK'])
    const target = pick(ctx.random, [PATH.health, PATH.resource('product-overview'), PATH.resource('nope'), `${API}/nope`, API])
    return rawRestCase(ctx, 'wrong-method', `${method} ${target.slice(API.length) || API}`, target, method, 'Content-Length: 0\r\n')
  }
  if (r < 0.55) {
    const method = pick(ctx.random, ['GET', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND'])
    return {
      category: 'wrong-method',
      label: `${method} /mcp`,
      send: { kind: 'raw', plan: rawGet(ctx, MCP_PATH, method === 'GET' ? 'Accept: text/event-stream\r\n' : 'Content-Length: 0\r\n', method) },
      boundMs: HANG_MS,
      expect: 'answer',
      judge: only(1, (a) => {
        if (a.status !== 405) return [`${method} /mcp: expected 405, got ${a.status}`]
        if (a.headers.allow !== 'POST') return [`Allow: ${a.headers.allow}`]
        if (method === 'HEAD') return a.body === '' ? [] : ['a HEAD answer has a body']
        const problems = mcpAnswerProblems({}, a)
        const payload = JSON.parse(a.body)
        if (payload?.error?.code !== -31405 || !String(payload.error.data?.detail).startsWith(`${method} is not served`))
          problems.push(`405 body ${a.body.slice(0, 120)}`)
        return problems
      }),
    }
  }
  if (r < 0.75) {
    const method = pick(ctx.random, ['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE'])
    const path = pick(ctx.random, ['/', '/openapi.json', '/llms.txt', '/robots.txt', '/problems/method_not_allowed', '/.well-known/mcp.json'])
    return rawCase('wrong-method', `${method} ${path}`, rawGet(ctx, path, 'Content-Length: 0\r\n', method), [405])
  }
  if (r < 0.85) {
    const method = pick(ctx.random, ['POST', 'PUT', 'DELETE', 'TRACE', 'PROPFIND'])
    return rawCase('wrong-method', `${method} a page`, rawGet(ctx, pick(ctx.random, ['/pricing', '/login']), 'Content-Length: 0\r\n', method), [405])
  }
  if (r < 0.92) {
    return rawCase(
      'wrong-method',
      'CONNECT',
      { payload: `CONNECT 127.0.0.1:${ctx.port} HTTP/1.1\r\nHost: 127.0.0.1:${ctx.port}\r\n\r\n` },
      [],
      'close',
    )
  }
  const method = pick(ctx.random, ['FOO', 'get', 'TRACK', 'G\x00T', 'BREW'])
  return rawCase('wrong-method', `unknown method ${JSON.stringify(method)}`, rawGet(ctx, PATH.health, '', method), [400], 'answer-or-close')
}

function garbage(ctx: CaseContext): SoakCase {
  const client = `X-Forwarded-For: ${ctx.pool.forwardedFor(ctx.random)}\r\n`
  const host = `Host: 127.0.0.1:${ctx.port}\r\nConnection: close\r\n${client}`
  const [label, payload, statuses, expect] = pick(ctx.random, [
    ['TLS ClientHello', Buffer.from('16030100a5010000a10303000102030405060708090a0b0c0d0e0f', 'hex'), [400], 'answer-or-close'],
    ['HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', [400], 'answer-or-close'],
    ['header without a colon', `GET ${PATH.health} HTTP/1.1\r\n${host}Broken header\r\n\r\n`, [400], 'answer'],
    ['obs-fold', `GET ${PATH.health} HTTP/1.1\r\n${host}X-A: a\r\n folded\r\n\r\n`, [400], 'answer'],
    ['NUL in a header', `GET ${PATH.health} HTTP/1.1\r\n${host}X-A: a\u0000b\r\n\r\n`, [400], 'answer'],
    [
      'Content-Length with chunked',
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      [400],
      'answer',
    ],
    [
      'two Content-Lengths',
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      [400],
      'answer',
    ],
    ['negative Content-Length', `POST /mcp HTTP/1.1\r\n${host}Content-Length: -1\r\n\r\n{}`, [400], 'answer'],
    [
      'bad chunk size',
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      [400],
      'answer',
    ],
    ['unknown Transfer-Encoding', `POST /mcp HTTP/1.1\r\n${host}Transfer-Encoding: bogus\r\n\r\n{}`, [400], 'answer'],
    ['no Host', `GET ${PATH.health} HTTP/1.1\r\nConnection: close\r\n\r\n`, [400], 'answer'],
    ['HTTP/1.2', `GET ${PATH.health} HTTP/1.2\r\n${host}\r\n`, [400], 'answer'],
    ['tab in the target', `GET ${API}/he\talth HTTP/1.1\r\n${host}\r\n`, [400], 'answer'],
    ['raw UTF-8 in the target', Buffer.from(`GET /caf\u00e9 HTTP/1.1\r\n${host}\r\n`, 'utf8'), [400], 'answer'],
    ['Expect: tea', `GET ${PATH.health} HTTP/1.1\r\n${host}Expect: tea\r\n\r\n`, [417], 'answer'],
    [
      'Upgrade: websocket',
      `GET ${PATH.health} HTTP/1.1\r\nHost: 127.0.0.1:${ctx.port}\r\n${client}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      [200],
      'answer',
    ],
    [
      'Upgrade: h2c (curl --http2)',
      `GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1:${ctx.port}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n`,
      [200],
      'answer',
    ],
    [
      'Upgrade on a page',
      `GET /pricing HTTP/1.1\r\nHost: 127.0.0.1:${ctx.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
      [200],
      'answer',
    ],
    ['HTTP/1.0 without Host', `GET ${PATH.health} HTTP/1.0\r\n${client}\r\n`, [200], 'answer'],
  ] as const)
  return rawCase('garbage', label, { payload }, statuses, expect)
}

export function hostileCase(ctx: CaseContext): SoakCase {
  const r = ctx.random()
  if (r < 0.22) return badPath(ctx)
  if (r < 0.47) return badBody(ctx)
  if (r < 0.62) return headerFlood(ctx)
  if (r < 0.77) return hostileCookie(ctx)
  if (r < 0.9) return wrongMethod(ctx)
  return garbage(ctx)
}

// ------------------------------------------------------------------------------------------------
// Slow clients: cut off by the server's timeouts

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

export function slowCase(ctx: CaseContext, kind: SlowCategory): SoakCase {
  const host = `Host: 127.0.0.1:${ctx.port}\r\nX-Forwarded-For: ${ctx.pool.forwardedFor(ctx.random)}\r\n`
  const window = cutOffWindow(kind)
  const base = { category: kind, boundMs: window[1], expect: 'cut-off' as const, cutOffWindow: window, judge: statusIn([408]) }
  if (kind === 'idle-connection') return { ...base, label: 'connect and send nothing', send: { kind: 'raw', plan: { payload: '' } } }
  if (kind === 'slow-headers') {
    const target = pick(ctx.random, [PATH.health, MCP_PATH, '/', '/pricing'])
    return {
      ...base,
      label: `headers trickled to ${target}`,
      send: { kind: 'raw', plan: { payload: `GET ${target} HTTP/1.1\r\n${host}`, trickle: { bytes: 'X-Slow: drip\r\n', everyMs: 400 } } },
    }
  }
  if (kind === 'slow-reader') {
    // 300 pipelined requests for the 30 KB OpenAPI document, never read: about 9 MB, more than the
    // kernel's socket buffers take, so the server holds the rest until it gives up on the reader.
    const count = 300
    return {
      ...base,
      label: `${count} pipelined /openapi.json, never read`,
      judge: undefined,
      send: { kind: 'raw', plan: { payload: `GET /openapi.json HTTP/1.1\r\n${host}\r\n`.repeat(count), neverRead: true } },
    }
  }
  const [target, chunked] = pick(ctx.random, [
    [MCP_PATH, false],
    [MCP_PATH, true],
    [PATH.health, false],
  ] as const)
  const framing = chunked ? 'Transfer-Encoding: chunked\r\n\r\n1000\r\n' : 'Content-Length: 100000\r\n\r\n'
  return {
    ...base,
    label: `body trickled to ${target}${chunked ? ' (chunked)' : ''}`,
    send: {
      kind: 'raw',
      plan: {
        payload: `POST ${target} HTTP/1.1\r\n${host}Content-Type: application/json\r\n${framing}{"jsonrpc":"2.0",`,
        trickle: { bytes: ' ', everyMs: 500 },
      },
    },
  }
}
