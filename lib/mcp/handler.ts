/**
 * POST /mcp as one web-standard handler. In order: the Origin policy (403), any method but POST (405),
 * the body read once by the SDK's reader under the size limit, admission (the one seam for rollout
 * state and quota, decided before anything else: 503/429), media type (415), size (413), JSON
 * (-32700), then a precomputed answer, the contract's own answer (gate.ts) or the SDK (server.ts).
 * Every answer is one JSON-RPC body with the API headers; nothing in the request can make it throw,
 * stream or hang. It returns what it decided on the way (admission, the MCP call and how it was
 * answered) with the answer.
 */
import { isJsonContentType, isJSONRPCRequest, readRequestBody } from '@modelcontextprotocol/server'
import { admitAgentRequest, type Admission } from '../admission.ts'
import { API_HEADERS, CONTENT_TYPES, type HeaderList } from '../http/headers.ts'
import { respond } from '../http/respond.ts'
import { perSite } from '../site.ts'
import { describeMcpCall, type McpCall } from './call.ts'
import { getMcpCatalog, type McpCatalog } from './catalog.ts'
import {
  bodyTooLarge,
  errorAnswer,
  forbiddenOrigin,
  internalError,
  methodNotAllowed,
  parseError,
  refused,
  unsupportedMediaType,
  type McpErrorAnswer,
} from './errors.ts'
import { dispatchMcpRequest } from './gate.ts'
import { buildOriginPolicy, checkOrigin } from './origin.ts'
import { createPrecomputedAnswers } from './precomputed.ts'
import { MCP_HEADERS, MCP_MAX_BODY_BYTES, readableId, type McpAnswer } from './protocol.ts'
import { createMcpEndpoint, type McpEndpoint } from './server.ts'

/** The answer to one request to /mcp, and what was decided on the way (null: not reached). */
export interface McpOutcome {
  response: Response
  route: null
  admission: Admission | null
  mcp: McpCall | null
}

/** The contract's answer or the SDK's, and how it answered the call (`error`, as `McpCall.error`). */
async function serve(catalog: McpCatalog, endpoint: McpEndpoint, request: Request, body: unknown): Promise<McpAnswer & { error: string | null }> {
  const get = (name: string) => request.headers.get(name) ?? undefined
  const headers = {
    protocolVersionHeader: get(MCP_HEADERS.protocolVersion),
    mcpMethodHeader: get(MCP_HEADERS.method),
    mcpNameHeader: get(MCP_HEADERS.name),
  }
  const dispatch = dispatchMcpRequest(body, headers, catalog)
  if (!('leg' in dispatch)) return { ...errorAnswer(dispatch), error: String(dispatch.error.code) }
  const answer =
    dispatch.leg === 'modern'
      ? await endpoint.modern(request, dispatch.body)
      : await endpoint.legacy(dispatch.messages, dispatch.batch, dispatch.decided)
  // A valid call's outcome is the catalog's: the tool's own answer to these arguments.
  const call = isJSONRPCRequest(body) && body.method === 'tools/call' ? body.params : undefined
  const toolError = call !== undefined && catalog.tools.get(call.name as string)?.call(call.arguments).isError === true
  return { ...answer, error: toolError ? 'tool_error' : null }
}

const getRuntime = perSite((site) => {
  const catalog = getMcpCatalog()
  const endpoint = createMcpEndpoint(catalog)
  const answer = (request: Request, body: unknown) => serve(catalog, endpoint, request, body)
  return { policy: buildOriginPolicy(site.config), answer, precomputed: createPrecomputedAnswers(catalog, answer) }
})

const NO_HEADERS: HeaderList = []
const encoder = new TextEncoder()

/** The parsed body, or why there is none: 'too-large', 'empty', 'unreadable' (not JSON, or the stream failed). */
async function readBody(request: Request): Promise<{ json: unknown } | 'too-large' | 'empty' | 'unreadable'> {
  try {
    const read = await readRequestBody(request, MCP_MAX_BODY_BYTES)
    if (read.tooLarge) return 'too-large'
    return read.text === '' ? 'empty' : { json: JSON.parse(read.text) }
  } catch {
    return 'unreadable'
  }
}

/** Answers any request to /mcp. */
export async function answerMcpRequest(request: Request): Promise<McpOutcome> {
  const decided: Omit<McpOutcome, 'response'> = { route: null, admission: null, mcp: null }
  try {
    return { ...decided, response: await handle(request, decided) }
  } catch {
    return { ...decided, response: refuse(request, decided, internalError(), NO_HEADERS) }
  }
}

async function handle(request: Request, decided: Omit<McpOutcome, 'response'>): Promise<Response> {
  const { policy, answer, precomputed } = getRuntime()
  const verdict = checkOrigin(request.headers.get('origin'), request.headers.get('host'), policy)
  if (!verdict.ok) return refuse(request, decided, forbiddenOrigin(verdict.detail), NO_HEADERS)
  if (request.method !== 'POST') return refuse(request, decided, methodNotAllowed(request.method), NO_HEADERS)

  const body = await readBody(request)
  if (typeof body === 'object') decided.mcp = describeMcpCall(request, body.json, performance.timeOrigin + performance.now())
  // Every POST spends the quota exactly once, before anything else is decided about it.
  const admission = await admitAgentRequest(request)
  decided.admission = admission
  if (!admission.admitted) {
    const id = typeof body === 'object' ? readableId(body.json) : null
    return refuse(request, decided, refused(admission.reason, id, admission.retryAfterSeconds), admission.headers)
  }
  const contentType = request.headers.get('content-type')
  if (!isJsonContentType(contentType)) return refuse(request, decided, unsupportedMediaType(contentType), admission.headers)
  if (body === 'too-large') return refuse(request, decided, bodyTooLarge(), admission.headers)
  if (typeof body !== 'object')
    return refuse(request, decided, parseError(body === 'empty' ? 'The request body is empty.' : undefined), admission.headers)
  const known = await precomputed(request, body.json)
  if (known) return send(request, known, admission.headers)
  const served = await answer(request, body.json)
  if (decided.mcp) decided.mcp.error = served.error
  return send(request, served, admission.headers)
}

function refuse(request: Request, decided: Omit<McpOutcome, 'response'>, problem: McpErrorAnswer, admission: HeaderList): Response {
  if (decided.mcp) decided.mcp.error = String(problem.error.code)
  return send(request, errorAnswer(problem), admission)
}

function send(request: Request, answer: McpAnswer, admission: HeaderList): Response {
  const bytes = typeof answer.body === 'string' ? encoder.encode(answer.body) : answer.body
  return respond(request, answer.status, bytes && { bytes }, CONTENT_TYPES.json, API_HEADERS, admission, answer.headers)
}
