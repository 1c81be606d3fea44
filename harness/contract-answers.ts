/**
 * The one judge of right answers, written from the contract and decisions.md rather than from the code
 * under test, and used by the tests, `npm run verify` and `npm run soak` alike: each function lists how
 * an answer breaks the contract, empty when it is a defined one. REST exactly, by the route its path
 * names; MCP by the decisions.md table (status ↔ JSON-RPC code ↔ `error.data.code`, id) and the payload
 * each method returns; the discovery documents and pages by what the contract says of them. A caller
 * states the class of answer it expects (AnswerClass); what a right answer of that class is, is said here.
 */
import type { z } from 'zod'
import { CONTRACT_VERSION, MCP_LEGACY_PROTOCOL_VERSIONS, MCP_SUPPORTED_PROTOCOL_VERSIONS, PUBLIC_RESOURCE_IDS } from '../lib/contract/constants.ts'
import {
  AgentCapabilitiesSchema,
  AgentHealthSchema,
  AgentResourceListSchema,
  AgentResourceSchema,
  ProblemDetailsSchema,
} from '../lib/contract/schemas.ts'

/** One HTTP answer as a client saw it (header names lower-case). */
export interface Answer {
  status: number
  headers: Record<string, string | undefined>
  body: string
}

const RATE_LIMIT_POLICY = '"public-agent-rest";q=120;w=60;burst=30'
const STACK_TRACE = /\n\s+at [\w$.<>[\] ]+ \(|node:internal|webpack-internal|\.next\/server|\/node_modules\//

/** Traces of server internals that no answer may carry. */
function leakProblems(answer: Answer): string[] {
  return STACK_TRACE.test(answer.body) ? [`the body shows server internals: ${answer.body.slice(0, 200)}`] : []
}

/**
 * The rate-limit headers of standards §1.4. `spent`: the request was admitted (the five headers,
 * Reset = ceil((150 − Remaining) / 2), no Retry-After); `refused`: the exact 429 values at 2 tokens/s;
 * `none`: the answer spent nothing (preflight, disabled, refused before admission) and shows none.
 */
function quotaHeaderProblems(headers: Answer['headers'], state: 'spent' | 'refused' | 'none'): string[] {
  const problems: string[] = []
  const expectHeader = (name: string, value: string | undefined) => {
    if (headers[name] !== value) problems.push(`${name}: expected ${value ?? '(absent)'}, got ${headers[name] ?? '(absent)'}`)
  }
  if (state === 'none') {
    for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'ratelimit']) expectHeader(name, undefined)
    return problems
  }
  expectHeader('ratelimit-limit', '150')
  expectHeader('ratelimit-policy', RATE_LIMIT_POLICY)
  if (state === 'refused') {
    expectHeader('ratelimit-remaining', '0')
    expectHeader('ratelimit-reset', '1')
    expectHeader('retry-after', '1')
    expectHeader('ratelimit', '"public-agent-rest";r=0;t=1')
    return problems
  }
  const remaining = Number(headers['ratelimit-remaining'])
  if (!Number.isInteger(remaining) || remaining < 0 || remaining > 149) {
    problems.push(`ratelimit-remaining: expected an integer 0…149, got ${headers['ratelimit-remaining'] ?? '(absent)'}`)
    return problems
  }
  const reset = Math.ceil((150 - remaining) / 2)
  expectHeader('ratelimit-reset', String(reset))
  expectHeader('ratelimit', `"public-agent-rest";r=${remaining};t=${reset}`)
  expectHeader('retry-after', undefined)
  return problems
}

/** When a client sent a request and when its answer came, on the client's monotonic clock. */
export interface TimedExchange {
  sentAt: number
  answeredAt: number
}

/**
 * The refills (a token every 500 ms) a bucket may have had by one of its decisions, as a client sees
 * them: the bucket starts at its first decision, made after the first request was sent and before its
 * answer came, and each decision falls between its request and its answer; the server's wall clock
 * and the client's monotonic clock may misjudge a decision next to a refill by 25 ms.
 */
export function quotaRefills(first: TimedExchange, decision: TimedExchange): [number, number] {
  return [Math.max(0, Math.floor((decision.sentAt - first.answeredAt - 25) / 500)), Math.floor((decision.answeredAt - first.sentAt + 25) / 500)]
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

// ---------------------------------------------------------------------------------------------
// REST

/**
 * The contract's REST operations (section 4.1), written out as the contract states them: every path
 * that answers 200, with the schema of its body. Nothing here is derived from the code under test.
 */
const CONTRACT_OPERATIONS: Readonly<Record<string, z.ZodType>> = {
  '/api/agent/v1/health': AgentHealthSchema,
  '/api/agent/v1/capabilities': AgentCapabilitiesSchema,
  '/api/agent/v1/resources': AgentResourceListSchema,
  '/api/agent/v1/resources/product-overview': AgentResourceSchema,
  '/api/agent/v1/resources/developer-resources': AgentResourceSchema,
  '/api/agent/v1/resources/agent-boundaries': AgentResourceSchema,
}
/** `GET /api/agent/v1/resources/{resourceId}`: one path segment; an id the catalog does not list is 404 agent_resource_not_found. */
const RESOURCE_ID_PATH = /^\/api\/agent\/v1\/resources\/([^/]+)$/

type RestRoute =
  | { kind: 'preflight' }
  | { kind: 'operation'; pathname: string; schema: z.ZodType; resourceId?: string }
  | { kind: 'problem'; code: 'agent_endpoint_not_found' | 'agent_resource_not_found' | 'method_not_allowed'; pathname: string }

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

/**
 * What the contract answers a request under /api/agent/v1 when it is admitted: the path is
 * normalised as a URL (dot segments, `%2e`, `\`); a path of CONTRACT_OPERATIONS (a resource id may
 * be percent-encoded) is that operation, 405 for a method other than GET/HEAD; another
 * `resources/{id}` path is `agent_resource_not_found` (405 for other methods); any other path is
 * `agent_endpoint_not_found` whatever the method.
 */
function restRoute(rawTarget: string, method: string, headers: Record<string, string | undefined> = {}): RestRoute {
  if (method === 'OPTIONS' && headers['access-control-request-method'] !== undefined) return { kind: 'preflight' }
  const pathname = new URL(rawTarget, 'http://127.0.0.1').pathname
  const read = method === 'GET' || method === 'HEAD'
  const resource = RESOURCE_ID_PATH.exec(pathname)
  const id = resource ? safeDecode(resource[1] as string) : null
  const operationPath = id === null ? pathname : `/api/agent/v1/resources/${id}`
  const schema = CONTRACT_OPERATIONS[operationPath]
  if (schema) {
    if (!read) return { kind: 'problem', code: 'method_not_allowed', pathname }
    return { kind: 'operation', pathname, schema, ...(resource ? { resourceId: id as string } : {}) }
  }
  if (resource)
    return read ? { kind: 'problem', code: 'agent_resource_not_found', pathname } : { kind: 'problem', code: 'method_not_allowed', pathname }
  return { kind: 'problem', code: 'agent_endpoint_not_found', pathname }
}

const PROBLEM_STATUS = {
  agent_endpoint_not_found: 404,
  agent_resource_not_found: 404,
  method_not_allowed: 405,
  rate_limit_exceeded: 429,
  public_agent_access_disabled: 503,
} as const

export interface RestRequest {
  method: string
  /** The request target as sent (origin-form). */
  target: string
  headers?: Record<string, string | undefined>
  /** Base URL of the site: problem `type` and `instance` are absolute under it. */
  baseUrl: string
  /** Whether a 503 (capability switched off, e.g. by an override cookie) is a possible answer. */
  mayBeDisabled?: boolean
}

/** Problems of a REST answer against the contract's answer for that request. */
export function restAnswerProblems(request: RestRequest, answer: Answer): string[] {
  const problems = leakProblems(answer)
  const h = answer.headers
  const route = restRoute(request.target, request.method, request.headers)
  const head = request.method === 'HEAD'
  if (h['api-version'] !== CONTRACT_VERSION) problems.push(`API-Version: expected ${CONTRACT_VERSION}, got ${h['api-version'] ?? '(absent)'}`)

  if (route.kind === 'preflight') {
    if (answer.status !== 204) problems.push(`a CORS preflight: expected 204, got ${answer.status}`)
    if (answer.body !== '') problems.push('a 204 has a body')
    if (h['access-control-allow-methods'] !== 'GET, HEAD') problems.push(`Access-Control-Allow-Methods: ${h['access-control-allow-methods']}`)
    return [...problems, ...quotaHeaderProblems(h, 'none')]
  }

  let expectedCode: keyof typeof PROBLEM_STATUS | null = route.kind === 'problem' ? route.code : null
  if (answer.status === 429) expectedCode = 'rate_limit_exceeded'
  else if (answer.status === 503 && request.mayBeDisabled) expectedCode = 'public_agent_access_disabled'

  if (expectedCode === null) {
    // An admitted operation: 200 with the body of its schema.
    if (answer.status !== 200)
      return [...problems, `${request.method} ${route.pathname}: expected 200, got ${answer.status} ${answer.body.slice(0, 160)}`]
    if (h['content-type'] !== 'application/json') problems.push(`Content-Type: expected application/json, got ${h['content-type']}`)
    problems.push(...quotaHeaderProblems(h, 'spent'))
    if (head) {
      if (answer.body !== '') problems.push('a HEAD answer has a body')
      return problems
    }
    const parsed = parseJson(answer.body)
    if (!parsed.ok) return [...problems, 'the 200 body is not JSON']
    const result = (route as Extract<RestRoute, { kind: 'operation' }>).schema.safeParse(parsed.value)
    if (!result.success) problems.push(`the 200 body does not match its schema: ${result.error.issues[0]?.message}`)
    if (route.kind === 'operation' && route.resourceId && (parsed.value as { id?: unknown }).id !== route.resourceId) {
      problems.push(`the resource body has id ${(parsed.value as { id?: unknown }).id}, expected ${route.resourceId}`)
    }
    return problems
  }

  const status = PROBLEM_STATUS[expectedCode]
  if (answer.status !== status)
    return [...problems, `${request.method} ${route.pathname}: expected ${status} ${expectedCode}, got ${answer.status} ${answer.body.slice(0, 160)}`]
  if (h['content-type'] !== 'application/problem+json') problems.push(`Content-Type: expected application/problem+json, got ${h['content-type']}`)
  if (status === 405 && h.allow !== 'GET, HEAD') problems.push(`Allow: expected "GET, HEAD", got ${h.allow}`)
  if (status === 503) {
    if (!/^\d+$/.test(h['retry-after'] ?? '')) problems.push(`a 503 without an integer Retry-After (${h['retry-after']})`)
    problems.push(...quotaHeaderProblems(h, 'none'))
  } else {
    problems.push(...quotaHeaderProblems(h, status === 429 ? 'refused' : 'spent'))
  }
  if (head) {
    if (answer.body !== '') problems.push('a HEAD answer has a body')
    return problems
  }
  const parsed = parseJson(answer.body)
  if (!parsed.ok) return [...problems, `the ${status} body is not JSON`]
  const result = ProblemDetailsSchema.safeParse(parsed.value)
  if (!result.success) return [...problems, `the ${status} body is not ProblemDetails: ${result.error.issues[0]?.message}`]
  const problem = result.data
  if (problem.code !== expectedCode) problems.push(`code: expected ${expectedCode}, got ${problem.code}`)
  if (problem.status !== status) problems.push(`status member ${problem.status} ≠ ${status}`)
  if (problem.type !== `${request.baseUrl}/problems/${expectedCode}`) problems.push(`type: ${problem.type}`)
  if (problem.instance !== `${request.baseUrl}${route.pathname}`)
    problems.push(`instance: expected ${request.baseUrl}${route.pathname}, got ${problem.instance}`)
  return problems
}

// ---------------------------------------------------------------------------------------------
// MCP

/** JSON-RPC error codes each HTTP status of POST /mcp may carry (decisions.md, developers.md). */
const MCP_ERROR_CODES_BY_STATUS: Record<number, readonly number[]> = {
  200: [-32601, -32602],
  400: [-32700, -32600, -32020, -32602, -32022],
  403: [-32600],
  404: [-32601],
  405: [-31405],
  413: [-31413],
  415: [-31415],
  429: [-31429],
  503: [-31503],
}
const MCP_STATUSES = [
  200,
  202,
  ...Object.keys(MCP_ERROR_CODES_BY_STATUS)
    .map(Number)
    .filter((s) => s !== 200),
].sort()

/** `error.data.code` the table requires for a JSON-RPC code (at a status). */
function requiredDataCode(code: number, status: number): string | undefined {
  if (code === -32020) return 'mcp_header_mismatch'
  if (code === -32602 && status === 400) return 'mcp_header_mismatch'
  if (code === -31405) return 'mcp_method_not_allowed'
  if (code === -31429) return 'rate_limit_exceeded'
  if (code === -31503) return 'public_agent_access_disabled'
  return undefined
}

type JsonObject = Record<string, unknown>
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The `id` of a request body the server can echo: a string or a safe integer of a single message. */
function readableRequestId(body: unknown): string | number | null {
  if (!isObject(body)) return null
  const id = body.id
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null
}

export interface McpRequestFacts {
  /** The parsed request body when it was JSON (undefined when not JSON or not sent). */
  body?: unknown
  /** Whether a 503 is possible (capability switched off). */
  mayBeDisabled?: boolean
  /** The request's method, when it matters: a HEAD answer has no body; a 405 names the method refused. */
  method?: string
}

function messageProblems(message: unknown, status: number, facts: McpRequestFacts, index: number | null): string[] {
  const where = index === null ? '' : `[${index}] `
  if (!isObject(message)) return [`${where}not a JSON-RPC message object`]
  const problems: string[] = []
  if (message.jsonrpc !== '2.0') problems.push(`${where}jsonrpc is ${JSON.stringify(message.jsonrpc)}`)
  const id = message.id
  if (!(id === null || typeof id === 'string' || typeof id === 'number')) problems.push(`${where}id is ${JSON.stringify(id)}`)
  const hasResult = 'result' in message
  const hasError = 'error' in message
  if (hasResult === hasError) return [...problems, `${where}a message needs exactly one of result and error`]
  const requestId = index === null ? readableRequestId(facts.body) : null
  if (hasResult) {
    if (status !== 200) problems.push(`${where}a result with HTTP ${status}`)
    if (index === null && id !== requestId) problems.push(`${where}result id ${JSON.stringify(id)} ≠ request id ${JSON.stringify(requestId)}`)
    if (!isObject(message.result)) problems.push(`${where}result is not an object`)
    return problems
  }
  const error = message.error
  if (!isObject(error) || typeof error.code !== 'number' || typeof error.message !== 'string') return [...problems, `${where}malformed error object`]
  const allowed = MCP_ERROR_CODES_BY_STATUS[status] ?? []
  if (!allowed.includes(error.code)) problems.push(`${where}HTTP ${status} with JSON-RPC code ${error.code} (${error.message.slice(0, 120)})`)
  if (index === null && id !== null && id !== requestId)
    problems.push(`${where}error id ${JSON.stringify(id)} is neither the request id ${JSON.stringify(requestId)} nor null`)
  const data = error.data
  if (!isObject(data) || typeof data.detail !== 'string' || typeof data.resolution !== 'string') {
    problems.push(`${where}error ${error.code} without data.detail and data.resolution strings`)
    return problems
  }
  const dataCode = requiredDataCode(error.code, status)
  if (dataCode !== undefined && data.code !== dataCode)
    problems.push(`${where}error ${error.code}: data.code expected ${dataCode}, got ${JSON.stringify(data.code)}`)
  if (error.code === -32022) {
    if (JSON.stringify(data.supported) !== JSON.stringify(MCP_SUPPORTED_PROTOCOL_VERSIONS))
      problems.push(`${where}-32022 data.supported is ${JSON.stringify(data.supported)}`)
    if (typeof data.requested !== 'string') problems.push(`${where}-32022 without data.requested`)
  }
  if (error.code === -31405 && facts.method !== undefined && !String(data.detail).startsWith(`${facts.method} is not served`))
    problems.push(`${where}405 detail ${JSON.stringify(data.detail)} does not name ${facts.method}`)
  if (error.code === -32602 && data.code === 'agent_resource_not_found' && typeof data.uri !== 'string')
    problems.push(`${where}resource not found without data.uri`)
  return problems
}

/** Problems of a POST /mcp (or other method on /mcp) answer against the decisions table. */
export function mcpAnswerProblems(facts: McpRequestFacts, answer: Answer): string[] {
  const problems = leakProblems(answer)
  const h = answer.headers
  const status = answer.status
  if (!MCP_STATUSES.includes(status) || (status === 503 && !facts.mayBeDisabled))
    return [...problems, `HTTP ${status} is not an answer of the MCP endpoint: ${answer.body.slice(0, 200)}`]
  if (h['api-version'] !== CONTRACT_VERSION) problems.push(`API-Version: expected ${CONTRACT_VERSION}, got ${h['api-version'] ?? '(absent)'}`)
  if (h['mcp-session-id'] !== undefined) problems.push('an Mcp-Session-Id was minted')
  // Refused before admission (403 origin, 405 method) or by the rollout (503): nothing spent.
  const quotaState = status === 429 ? 'refused' : status === 403 || status === 405 || status === 503 ? 'none' : 'spent'
  problems.push(...quotaHeaderProblems(h, quotaState))
  if (status === 405 && h.allow !== 'POST') problems.push(`Allow: expected POST, got ${h.allow}`)
  if (status === 503 && !/^\d+$/.test(h['retry-after'] ?? '')) problems.push('a 503 without an integer Retry-After')
  if (status === 202 || facts.method === 'HEAD') {
    if (answer.body !== '') problems.push(`a ${status === 202 ? '202' : 'HEAD answer'} has a body`)
    return problems
  }
  if (h['content-type'] !== 'application/json') problems.push(`Content-Type: expected application/json, got ${h['content-type']}`)
  const parsed = parseJson(answer.body)
  if (!parsed.ok) return [...problems, `HTTP ${status} body is not JSON: ${answer.body.slice(0, 120)}`]
  const payload = parsed.value
  if (Array.isArray(payload)) {
    // Only a legacy batch is answered with an array, always with HTTP 200.
    if (status !== 200 || !Array.isArray(facts.body))
      problems.push(`an array answer to a ${Array.isArray(facts.body) ? 'batch' : 'single message'} with HTTP ${status}`)
    for (const [index, message] of payload.entries()) problems.push(...messageProblems(message, status, facts, index))
    return problems
  }
  return [...problems, ...messageProblems(payload, status, facts, null)]
}

/**
 * The payload the contract answers a well-formed MCP request with, beyond its envelope: what each
 * method returns (discovery's versions and capabilities, three resources and three tools, a
 * resource's Markdown, a tool's structured result or, for an id the catalog does not list, a tool
 * error), the version `initialize` negotiates, one result per request of a legacy batch.
 */
function mcpPayloadProblems(requestBody: unknown, payload: unknown): string[] {
  if (Array.isArray(requestBody)) {
    const requests = requestBody.filter((message) => isObject(message) && 'id' in message)
    return Array.isArray(payload) && payload.length === requests.length && payload.every((message) => isObject(message) && isObject(message.result))
      ? []
      : [`batch answer ${JSON.stringify(payload).slice(0, 160)}`]
  }
  if (!isObject(requestBody) || !isObject(payload)) return []
  const params = isObject(requestBody.params) ? requestBody.params : {}
  const result = isObject(payload.result) ? payload.result : undefined
  const error = isObject(payload.error) ? payload.error : undefined
  const method = requestBody.method
  if (method === 'resources/read') {
    const id = typeof params.uri === 'string' ? params.uri.slice(params.uri.lastIndexOf('/') + 1) : undefined
    if (!(PUBLIC_RESOURCE_IDS as readonly unknown[]).includes(id)) {
      const data = isObject(error?.data) ? error.data : {}
      return error?.code === -32602 && data.code === 'agent_resource_not_found' ? [] : ['an unknown URI without -32602 agent_resource_not_found']
    }
    const contents = Array.isArray(result?.contents) ? result.contents[0] : undefined
    return isObject(contents) && contents.mimeType === 'text/markdown' && typeof contents.text === 'string' && contents.text.length > 0
      ? []
      : ['resources/read without Markdown']
  }
  if (result === undefined) return [`expected a result, got ${JSON.stringify(payload).slice(0, 160)}`]
  if (method === 'server/discover') {
    const problems: string[] = []
    if (JSON.stringify(result.supportedVersions) !== JSON.stringify(MCP_SUPPORTED_PROTOCOL_VERSIONS))
      problems.push(`supportedVersions ${JSON.stringify(result.supportedVersions)}, expected ${JSON.stringify(MCP_SUPPORTED_PROTOCOL_VERSIONS)}`)
    const capabilities = isObject(result.capabilities) ? result.capabilities : {}
    if (!isObject(capabilities.resources) || !isObject(capabilities.tools))
      problems.push(`capabilities ${JSON.stringify(result.capabilities)} lack resources and tools`)
    return problems
  }
  if (method === 'initialize') {
    const asked = params.protocolVersion
    const negotiated = (MCP_LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(asked) ? asked : MCP_LEGACY_PROTOCOL_VERSIONS[0]
    return result.protocolVersion === negotiated ? [] : [`initialize ${asked} negotiated ${result.protocolVersion}, expected ${negotiated}`]
  }
  if (method === 'resources/list')
    return Array.isArray(result.resources) && result.resources.length === PUBLIC_RESOURCE_IDS.length ? [] : ['resources/list without 3 resources']
  if (method === 'tools/list') return Array.isArray(result.tools) && result.tools.length === 3 ? [] : ['tools/list without 3 tools']
  if (method === 'tools/call') {
    const args = isObject(params.arguments) ? params.arguments : {}
    if ('resourceId' in args && !(PUBLIC_RESOURCE_IDS as readonly unknown[]).includes(args.resourceId))
      return result.isError === true ? [] : ['an unknown resourceId is not a tool error']
    if (result.isError === true || !isObject(result.structuredContent)) return [`tool call failed: ${JSON.stringify(payload).slice(0, 160)}`]
    if ('resourceId' in args) {
      const resource = AgentResourceSchema.safeParse(result.structuredContent)
      if (!resource.success) return [`structuredContent is no AgentResource: ${resource.error.issues[0]?.message ?? ''}`]
      if (resource.data.id !== args.resourceId) return [`structuredContent is resource ${resource.data.id}, expected ${args.resourceId}`]
    }
  }
  return []
}

// ---------------------------------------------------------------------------------------------
// Documents and pages

/** The discovery documents the contract publishes, with their media types (section 5). */
export const CONTRACT_DOCUMENTS: Readonly<Record<string, string>> = {
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
/** Every problem code the contract documents under /problems/{code} (section 7). */
export const CONTRACT_PROBLEM_CODES = [
  'agent_endpoint_not_found',
  'agent_resource_not_found',
  'method_not_allowed',
  'rate_limit_exceeded',
  'public_agent_access_disabled',
  'mcp_header_mismatch',
  'mcp_method_not_allowed',
] as const

/**
 * A document's answer: 200 with its media type (problem pages: Markdown) and a body (none for HEAD),
 * never spending the agent quota; 304 without a body to a matching If-None-Match.
 */
function documentAnswerProblems(request: { method: string; path: string; conditional?: boolean }, answer: Answer): string[] {
  if (request.conditional) return answer.status === 304 && answer.body === '' ? [] : [`a matching If-None-Match got ${answer.status}`]
  if (answer.status !== 200) return [`expected 200, got ${answer.status}`]
  const problems: string[] = []
  const contentType = request.path.startsWith('/problems/') ? 'text/markdown; charset=utf-8' : CONTRACT_DOCUMENTS[request.path]
  if (contentType && answer.headers['content-type'] !== contentType)
    problems.push(`Content-Type ${answer.headers['content-type']}, expected ${contentType}`)
  if (request.method === 'GET' && answer.body.length === 0) problems.push('an empty document')
  if (request.method === 'HEAD' && answer.body.length !== 0) problems.push('a HEAD answer has a body')
  if (answer.headers['ratelimit-remaining'] !== undefined) problems.push('a static document spent the quota')
  return problems
}

/** The homepage: varies by Accept, names its relations in Link, HTML or its Markdown twin as Accept prefers; 304 to a matching If-None-Match. */
function homepageAnswerProblems(request: { markdown: boolean; accept: string; conditional?: boolean }, answer: Answer): string[] {
  const problems: string[] = []
  if (!/\baccept\b/i.test(answer.headers.vary ?? '')) problems.push(`Vary without Accept: ${answer.headers.vary}`)
  if (!(answer.headers.link ?? '').includes('rel="service-desc"')) problems.push('no Link relations')
  if (request.conditional) return answer.status === 304 ? problems : [...problems, `a matching If-None-Match got ${answer.status}`]
  if (answer.status !== 200) return [...problems, `expected 200, got ${answer.status}`]
  const type = request.markdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8'
  if (answer.headers['content-type'] !== type)
    problems.push(`Accept ${JSON.stringify(request.accept)} got ${answer.headers['content-type']}, expected ${type}`)
  return problems
}

/** A page asked for as HTML: `status` (200 for a page of the site, 404 for any other path) and HTML either way. */
function pageAnswerProblems(status: 200 | 404, answer: Answer): string[] {
  if (answer.status !== status) return [`expected ${status}, got ${answer.status}`]
  return (answer.headers['content-type'] ?? '').startsWith('text/html') ? [] : [`Content-Type ${answer.headers['content-type']}`]
}

// ---------------------------------------------------------------------------------------------
// Answer classes: the answer a request must get, as the soak's table and verify's checks state it

/**
 * - `rest`: the contract's REST answer for the request (restAnswerProblems); `admitted`: the client
 *   is far below its quota, so never a 429;
 * - `mcp`: an answer of the decisions table (mcpAnswerProblems) with this HTTP status and, for an
 *   error, this JSON-RPC code; without a code, the payload the method returns (mcpPayloadProblems);
 *   `says`: words the body must contain;
 *   `refusable`: the client is above its quota, so the exact 429 is right too;
 * - `document`: a discovery document or problem page (documentAnswerProblems), 304 to If-None-Match;
 * - `homepage`: the homepage as HTML or, when Accept prefers it, Markdown (homepageAnswerProblems);
 * - `page`: a page asked for as HTML, 200 or 404 (pageAnswerProblems);
 * - `status`: one of these statuses (requests outside the contract's operations: pages, documents,
 *   bytes that are no HTTP request).
 */
export type AnswerClass =
  | { kind: 'rest'; admitted?: boolean }
  | { kind: 'mcp'; status: number; code?: number; says?: RegExp; refusable?: boolean }
  | { kind: 'document' }
  | { kind: 'homepage'; markdown: boolean }
  | { kind: 'page'; status: 200 | 404 }
  | { kind: 'status'; statuses: readonly number[] }

export const answerClass = {
  rest: (admitted = false): AnswerClass => ({ kind: 'rest', admitted }),
  mcp: (status: number, code?: number, says?: RegExp): AnswerClass => ({
    kind: 'mcp',
    status,
    ...(code === undefined ? {} : { code }),
    ...(says ? { says } : {}),
  }),
  document: (): AnswerClass => ({ kind: 'document' }),
  homepage: (markdown: boolean): AnswerClass => ({ kind: 'homepage', markdown }),
  page: (status: 200 | 404): AnswerClass => ({ kind: 'page', status }),
  status: (...statuses: number[]): AnswerClass => ({ kind: 'status', statuses }),
}

export interface JudgedRequest {
  method: string
  /** The request target as sent. */
  target: string
  /** Header names lower-case. */
  headers?: Record<string, string | undefined>
  /** An MCP request's body, parsed (undefined when it was no JSON). */
  body?: unknown
  baseUrl: string
  mayBeDisabled?: boolean
}

/** Problems of an answer against the class the request's answer must be of (empty: it is one). */
export function answerProblems(request: JudgedRequest, answer: Answer, expected: AnswerClass): string[] {
  if (expected.kind === 'status')
    return expected.statuses.includes(answer.status)
      ? []
      : [`expected ${expected.statuses.join('/')}, got ${answer.status} ${answer.body.slice(0, 120)}`]
  const conditional = request.headers?.['if-none-match'] !== undefined
  if (expected.kind === 'document')
    return documentAnswerProblems({ method: request.method, path: new URL(request.target, 'http://x').pathname, conditional }, answer)
  if (expected.kind === 'homepage')
    return homepageAnswerProblems({ markdown: expected.markdown, accept: request.headers?.accept ?? '', conditional }, answer)
  if (expected.kind === 'page') return pageAnswerProblems(expected.status, answer)
  if (expected.kind === 'rest') {
    const problems = restAnswerProblems(request, answer)
    if (expected.admitted && answer.status === 429) problems.push('a 429 for a client far below its quota')
    return problems
  }
  const problems = mcpAnswerProblems({ body: request.body, method: request.method, mayBeDisabled: request.mayBeDisabled }, answer)
  if (expected.refusable && answer.status === 429) return problems
  if (answer.status !== expected.status) return [...problems, `expected HTTP ${expected.status}, got ${answer.status} ${answer.body.slice(0, 160)}`]
  if (expected.says && !expected.says.test(answer.body)) problems.push(`the answer does not say ${expected.says}: ${answer.body.slice(0, 160)}`)
  if (answer.status === 202 || request.method === 'HEAD') return problems
  const parsed = parseJson(answer.body)
  if (!parsed.ok) return problems
  const payload = parsed.value as { error?: { code?: unknown } } | undefined
  if (expected.code !== undefined && payload?.error?.code !== expected.code)
    problems.push(`expected JSON-RPC ${expected.code}, got ${JSON.stringify(payload?.error ?? 'a result').slice(0, 160)}`)
  // An unknown resource URI is an error at 200; its code and data are the payload resources/read returns.
  const readsResource = isObject(request.body) && request.body.method === 'resources/read'
  if (expected.code === undefined || readsResource) problems.push(...mcpPayloadProblems(request.body, parsed.value))
  return problems
}
