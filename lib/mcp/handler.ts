/**
 * POST /mcp as one web-standard handler. In order: the Origin policy (403), any method but POST (the
 * SDK's 405), the body read once by the SDK's reader under the size limit, admission (the one seam
 * for rollout state and quota, decided before anything else: 503/429), media type (415), size (413),
 * JSON (-32700), then a precomputed answer or the SDK (lib/mcp/server.ts). Every answer is one
 * JSON-RPC body with the API headers; nothing in the request can make it throw, stream or hang.
 */
import { isJsonContentType, readRequestBody } from '@modelcontextprotocol/server'
import { admitAgentRequest } from '../admission.ts'
import { MCP_PATH } from '../contract/constants.ts'
import { API_HEADERS, CONTENT_TYPES, type HeaderList } from '../http/headers.ts'
import { respond } from '../http/respond.ts'
import { perSite } from '../site.ts'
import { noteMcpAnswer, noteMcpRequest } from '../telemetry/mcp-call.ts'
import { observeAgentRoute } from '../telemetry/observe.ts'
import { getMcpCatalog } from './catalog.ts'
import { bodyTooLarge, forbiddenOrigin, internalError, parseError, refused, unsupportedMediaType } from './errors.ts'
import { buildOriginPolicy, checkOrigin } from './origin.ts'
import { createPrecomputedAnswers } from './precomputed.ts'
import { MCP_MAX_BODY_BYTES, readableId, type McpAnswer } from './protocol.ts'
import { createMcpEndpoint, errorAnswer } from './server.ts'

const getRuntime = perSite((site) => {
  const catalog = getMcpCatalog()
  const endpoint = createMcpEndpoint(catalog)
  return { policy: buildOriginPolicy(site.config), endpoint, precomputed: createPrecomputedAnswers(catalog, endpoint) }
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

/** Handles any request to /mcp (observed: lib/telemetry/observe.ts). */
export const handleMcpRequest = observeAgentRoute(MCP_PATH, answerMcpRequest)

async function answerMcpRequest(request: Request): Promise<Response> {
  try {
    return await handle(request)
  } catch {
    return send(request, errorAnswer(internalError()), NO_HEADERS)
  }
}

async function handle(request: Request): Promise<Response> {
  const { policy, endpoint, precomputed } = getRuntime()
  const verdict = checkOrigin(request.headers.get('origin'), request.headers.get('host'), policy)
  if (!verdict.ok) return send(request, errorAnswer(forbiddenOrigin(verdict.detail)), NO_HEADERS)
  if (request.method !== 'POST') return send(request, await endpoint.refuseMethod(request), NO_HEADERS)

  const body = await readBody(request)
  if (typeof body === 'object') noteMcpRequest(request, body.json)
  // Every POST spends the quota exactly once, before anything else is decided about it.
  const admission = await admitAgentRequest(request)
  if (!admission.admitted) {
    const id = typeof body === 'object' ? readableId(body.json) : null
    return send(request, errorAnswer(refused(admission.reason, id, admission.retryAfterSeconds)), admission.headers)
  }
  const contentType = request.headers.get('content-type')
  if (!isJsonContentType(contentType)) return send(request, errorAnswer(unsupportedMediaType(contentType)), admission.headers)
  if (body === 'too-large') return send(request, errorAnswer(bodyTooLarge()), admission.headers)
  if (typeof body !== 'object')
    return send(request, errorAnswer(parseError(body === 'empty' ? 'The request body is empty.' : undefined)), admission.headers)
  const answer = (await precomputed(request, body.json)) ?? (await endpoint.answer(request, body.json))
  return send(request, answer, admission.headers)
}

function send(request: Request, answer: McpAnswer, admission: HeaderList): Response {
  noteMcpAnswer(request, answer.body)
  const bytes = typeof answer.body === 'string' ? encoder.encode(answer.body) : answer.body
  return respond(request, answer.status, bytes && { bytes }, CONTENT_TYPES.json, API_HEADERS, admission, answer.headers)
}
