/**
 * POST /mcp as one handler. In order: the Origin policy (403), any method but POST (405), the body
 * read once under the size limit, admission (rollout state and quota, decided before anything else:
 * 503/429), media type (415), size (413), JSON (-32700), then the contract's own answer (gate.ts) or
 * the SDK's (server.ts), remembered (remembered.ts). Every answer is one JSON-RPC body with the API
 * headers; nothing in the request can make it throw, stream or hang. It returns what it decided on
 * the way (admission, the MCP call and how it was answered) with the answer.
 */
import * as sdk from '@modelcontextprotocol/server'
import { readBodyText, type AgentRequest } from '../http/agent-request.ts'
import { admitAgentRequest, type Admission } from '../admission.ts'
import { MCP_HEADERS, MCP_MAX_BODY_BYTES } from '../contract/constants.ts'
import * as answers from '../contract/mcp-errors.ts'
import { isPlainObject } from '../contract/mcp-errors.ts'
import { API_HEADERS, CONTENT_TYPES } from '../http/headers.ts'
import { respond } from '../http/respond.ts'
import { perSite } from '../site.ts'
import { getMcpCatalog } from './catalog.ts'
import { dispatchMcpRequest, type MirroredHeaders } from './gate.ts'
import { buildOriginPolicy, checkOrigin } from '../http/origin-policy.ts'
import { errorAnswer, type McpAnswer } from './protocol.ts'
import { rememberAnswers } from './remembered.ts'
import { createMcpEndpoint } from './server.ts'

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)

/**
 * What a parsed body asks (a batch is `batch`): the MCP call as telemetry records it (its
 * McpCallRecord, lib/telemetry/observe.ts), but for how it was answered, which the answer tells.
 */
function describeMcpCall(request: AgentRequest, body: unknown) {
  const message = isPlainObject(body) ? body : {}
  const params = isPlainObject(message.params) ? message.params : {}
  const meta = isPlainObject(params._meta) ? params._meta : {}
  const method = Array.isArray(body) ? 'batch' : text(message.method)
  // 2026-07-28 carries clientInfo in every request's _meta; a 2025 client sends it once, in initialize.
  const info = isPlainObject(meta[sdk.CLIENT_INFO_META_KEY]) ? meta[sdk.CLIENT_INFO_META_KEY] : params.clientInfo
  const version = isPlainObject(body) ? (request.headers.get(MCP_HEADERS.protocolVersion) ?? text(meta[sdk.PROTOCOL_VERSION_META_KEY])) : null
  return {
    method,
    tool: method === 'tools/call' ? text(params.name) : null,
    resourceUri: method === 'resources/read' ? text(params.uri) : null,
    protocolVersion: version ?? (method === 'initialize' ? text(params.protocolVersion) : null),
    requestId: typeof message.id === 'string' || typeof message.id === 'number' ? String(message.id) : null,
    clientName: isPlainObject(info) ? info.name : undefined,
    traceparent: text(meta[sdk.TRACEPARENT_META_KEY]),
    tracestate: text(meta[sdk.TRACESTATE_META_KEY]),
    startedAt: performance.timeOrigin + performance.now(),
  }
}

/** What was decided on the way to the answer (null: not reached). */
type Decided = { admission: Admission | null; call: ReturnType<typeof describeMcpCall> | null }

const getRuntime = perSite((site) => {
  const catalog = getMcpCatalog()
  const serveBySdk = createMcpEndpoint(catalog)
  const serve = async (body: unknown, headers: MirroredHeaders): Promise<McpAnswer> => {
    const dispatch = dispatchMcpRequest(body, headers)
    return 'leg' in dispatch ? serveBySdk(dispatch) : errorAnswer(dispatch)
  }
  return { policy: buildOriginPolicy(site.config), serve: rememberAnswers(serve) }
})

/** The parsed body, or why there is none: 'too-large', 'empty', 'unreadable' (not JSON, or the stream failed). */
async function readBody(request: AgentRequest): Promise<{ json: unknown } | 'too-large' | 'empty' | 'unreadable'> {
  try {
    const read = await readBodyText(request, MCP_MAX_BODY_BYTES)
    if (read.tooLarge) return 'too-large'
    return read.text === '' ? 'empty' : { json: JSON.parse(read.text) }
  } catch {
    return 'unreadable'
  }
}

/** Answers any request to /mcp, with the admission and the MCP call (and how it was answered) when it got that far. */
export async function answerMcpRequest(request: AgentRequest) {
  const decided: Decided = { admission: null, call: null }
  const answer = await decide(request, decided).catch(() => errorAnswer(answers.internalError()))
  return {
    answer: respond(request, answer.status, answer.body && { bytes: answer.body }, CONTENT_TYPES.json, API_HEADERS, answer.headers),
    route: null,
    admission: decided.admission,
    mcp: decided.call && { ...decided.call, error: answer.error },
  }
}

async function decide(request: AgentRequest, decided: Decided): Promise<McpAnswer> {
  const { policy, serve } = getRuntime()
  const verdict = checkOrigin(request.headers.get('origin'), request.headers.get('host'), policy)
  if (!verdict.ok) return errorAnswer(answers.forbiddenOrigin(verdict.detail))
  if (request.method !== 'POST') return errorAnswer(answers.methodNotAllowed(request.method))
  const body = await readBody(request)
  if (typeof body === 'object') decided.call = describeMcpCall(request, body.json)
  // Every POST spends the quota exactly once, before anything else is decided about it.
  const admission = await admitAgentRequest(request)
  decided.admission = admission
  const refuse = (problem: answers.McpErrorAnswer) => errorAnswer(problem, admission.headers)
  if (!admission.admitted)
    return refuse(answers.refused(admission.reason, typeof body === 'object' ? answers.readableId(body.json) : null, admission.retryAfterSeconds))
  const contentType = request.headers.get('content-type')
  if (!sdk.isJsonContentType(contentType)) return refuse(answers.unsupportedMediaType(contentType))
  if (body === 'too-large') return refuse(answers.bodyTooLarge())
  if (typeof body !== 'object') return refuse(answers.parseError(body === 'empty' ? 'The request body is empty.' : undefined))
  const header = (name: string) => request.headers.get(name) ?? undefined
  const served = await serve(body.json, {
    protocolVersionHeader: header(MCP_HEADERS.protocolVersion),
    mcpMethodHeader: header(MCP_HEADERS.method),
    mcpNameHeader: header(MCP_HEADERS.name),
  })
  return { ...served, headers: [...served.headers, ...admission.headers] }
}
