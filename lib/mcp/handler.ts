/**
 * POST /mcp as one web-standard handler. In order: Origin/Host check (403), method (405), bounded
 * body read, admission (the one seam for rollout state and quota: 503/429), media type (415), size
 * (413), JSON (-32700), the validation ladder (lib/mcp/classify.ts), then the official SDK; its
 * answers are normalised at the edge (one JSON body, supported versions, `error.data`). Every answer
 * is JSON-RPC with the API headers; nothing in the request can make it throw, stream or hang.
 */
import { isJsonContentType } from '@modelcontextprotocol/server'
import { admitAgentRequest } from '../admission.ts'
import { MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../contract/constants.ts'
import { API_HEADERS, CONTENT_TYPES, type HeaderList } from '../http/headers.ts'
import { prepareBody, respond, type PreparedBody } from '../http/respond.ts'
import { perSite } from '../site.ts'
import { readBodyText } from './body.ts'
import { getMcpCatalog } from './catalog.ts'
import { classifyMcpBody, readableId, type McpRoute } from './classify.ts'
import {
  accessDisabled,
  bodyTooLarge,
  forbiddenOrigin,
  methodNotAllowed,
  parseError,
  rateLimited,
  sdkErrorGuidance,
  summariseSchemaIssues,
  unsupportedMediaType,
  type JsonRpcId,
  type McpErrorAnswer,
} from './errors.ts'
import { buildOriginPolicy, checkOrigin, type OriginPolicy } from './origin.ts'
import { applicationErrorCode, JSONRPC_ERROR, JSONRPC_VERSION, MCP_HEADERS, MCP_MAX_BODY_BYTES } from './protocol.ts'
import { createMcpServing, type McpServing } from './server.ts'

interface McpRuntime {
  policy: OriginPolicy
  serving: McpServing
}

const getRuntime = perSite(
  (site): McpRuntime => ({
    policy: buildOriginPolicy(site.config),
    serving: createMcpServing(getMcpCatalog()),
  }),
)

const NO_HEADERS: HeaderList = []
const LEGACY_ACCEPT = 'application/json, text/event-stream'

/** Handles any request to /mcp. */
export async function handleMcpRequest(request: Request): Promise<Response> {
  try {
    return await handle(request)
  } catch {
    return errorResponse(request, internalError(), NO_HEADERS)
  }
}

async function handle(request: Request): Promise<Response> {
  const runtime = getRuntime()
  const verdict = checkOrigin(request.headers.get('origin'), request.headers.get('host'), runtime.policy)
  if (!verdict.ok) return errorResponse(request, forbiddenOrigin(verdict.detail), NO_HEADERS)
  if (request.method !== 'POST') return errorResponse(request, methodNotAllowed(request.method), NO_HEADERS)

  const body = await readBodyText(request, MCP_MAX_BODY_BYTES)
  let parsed: { ok: true; value: unknown } | { ok: false } = { ok: false }
  if (body.kind === 'text' && body.text.length > 0) {
    try {
      parsed = { ok: true, value: JSON.parse(body.text) }
    } catch {
      parsed = { ok: false }
    }
  }

  // Every POST spends the quota exactly once, before anything else is decided about it.
  const admission = await admitAgentRequest(request)
  const id = parsed.ok ? readableId(parsed.value) : null
  if (!admission.admitted) {
    const refusal =
      admission.reason === 'public_agent_access_disabled'
        ? accessDisabled(id, admission.retryAfterSeconds, NO_HEADERS)
        : rateLimited(id, admission.retryAfterSeconds, NO_HEADERS)
    const hasRetryAfter = admission.headers.some(([name]) => name.toLowerCase() === 'retry-after')
    return errorResponse(request, refusal, hasRetryAfter ? admission.headers : [...admission.headers, ['Retry-After', String(admission.retryAfterSeconds)]])
  }
  const admitted = admission.headers

  const contentType = request.headers.get('content-type')
  if (!isJsonContentType(contentType)) return errorResponse(request, unsupportedMediaType(contentType), admitted)
  if (body.kind === 'too-large') return errorResponse(request, bodyTooLarge(), admitted)
  if (body.kind === 'unreadable') return errorResponse(request, parseError('The request body could not be read as UTF-8.'), admitted)
  if (!parsed.ok) {
    return errorResponse(request, parseError(body.text.length === 0 ? 'The request body is empty.' : undefined), admitted)
  }

  const route = classifyMcpBody(parsed.value, {
    protocolVersion: headerValue(request, MCP_HEADERS.protocolVersion),
    method: headerValue(request, MCP_HEADERS.method),
    name: headerValue(request, MCP_HEADERS.name),
  })
  if (route.kind === 'reject') return errorResponse(request, route.answer, admitted)

  const { serving } = runtime
  const sdkResponse =
    route.kind === 'modern'
      ? await serving.modern.fetch(request, { parsedBody: parsed.value })
      : await serving.legacy(legacyRequest(request, route.kind === 'initialize'), route.forward)
  return finish(request, route, sdkResponse, admitted)
}

function headerValue(request: Request, name: string): string | undefined {
  return request.headers.get(name) ?? undefined
}

/**
 * The request the legacy transport sees. It insists on `Accept: application/json, text/event-stream`
 * (406 otherwise) although it answers JSON here; a client that accepts only JSON gets the same
 * answer, so such a request is re-issued with that header (the body is already parsed). An
 * `initialize` goes without `MCP-Protocol-Version`: it negotiates whatever that header says
 * (decisions.md), but the transport checks the header on an initialize whose params are malformed
 * and would answer 400 -32000 instead of the in-band -32602 of any malformed initialize.
 */
function legacyRequest(request: Request, initialize: boolean): Request {
  const accept = request.headers.get('accept') ?? ''
  const version = request.headers.get(MCP_HEADERS.protocolVersion)
  if (accept.includes('application/json') && accept.includes('text/event-stream') && !(initialize && version !== null)) return request
  const headers = new Headers({ 'content-type': CONTENT_TYPES.json, accept: LEGACY_ACCEPT })
  if (version !== null && !initialize) headers.set(MCP_HEADERS.protocolVersion, version)
  return new Request(request.url, { method: 'POST', headers, signal: request.signal })
}

function internalError(id: JsonRpcId | null = null): McpErrorAnswer {
  return {
    status: 500,
    id,
    error: {
      code: JSONRPC_ERROR.internalError,
      message: 'Internal error',
      data: { detail: 'The server failed while answering this request.', resolution: 'Retry later; report the problem if it persists.' },
    },
  }
}

function errorResponse(request: Request, answer: McpErrorAnswer, admissionHeaders: HeaderList): Response {
  const payload = { jsonrpc: JSONRPC_VERSION, id: answer.id, error: answer.error }
  return respond(request, answer.status, prepareBody(JSON.stringify(payload)), CONTENT_TYPES.json, API_HEADERS, admissionHeaders, answer.headers ?? NO_HEADERS)
}

type JsonObject = Record<string, unknown>

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const utf8 = new TextDecoder()
/** How the SDK serializes a successful answer: `{"result":…}` first; such a body needs no rewrite. */
const RESULT_PREFIX = new TextEncoder().encode('{"result":')

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.byteLength < prefix.byteLength) return false
  for (let index = 0; index < prefix.byteLength; index++) if (bytes[index] !== prefix[index]) return false
  return true
}

/** A body already encoded by the SDK, passed through without decoding it. */
function preparedBytes(bytes: Uint8Array): PreparedBody {
  return {
    get text() {
      return utf8.decode(bytes)
    },
    bytes,
  }
}

/** How long an SSE answer (never expected: the SDK is configured for JSON) is read before it is cut. */
const SSE_READ_LIMIT_MS = 10_000

/** Reads a streamed body to its end, or until the deadline: an open stream can never hang the request. */
async function readStreamText(response: Response, limitMs: number): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), limitMs)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
    }
  } catch {
    // cancelled at the deadline: use what arrived
  } finally {
    clearTimeout(timer)
  }
  return utf8.decode(Buffer.concat(chunks))
}

/** The data of the last JSON event of an SSE stream (the SDK is configured for JSON; this is a safety net). */
function lastSseData(text: string): string {
  let last = ''
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n')
    if (/^\s*[[{]/.test(data)) last = data
  }
  return last
}

/** Shapes what the SDK answered into the contract's answer (see the module comment). */
async function finish(request: Request, route: Exclude<McpRoute, { kind: 'reject' }>, sdk: Response, admitted: HeaderList): Promise<Response> {
  const isDiscover = route.kind === 'modern' && route.method === 'server/discover'
  const isBatch = route.kind === 'legacy' && route.batch
  let text: string
  if ((sdk.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    text = lastSseData(await readStreamText(sdk, SSE_READ_LIMIT_MS))
  } else {
    const bytes = new Uint8Array(await sdk.arrayBuffer())
    if (sdk.status === 200 && !isDiscover && !isBatch && startsWith(bytes, RESULT_PREFIX)) {
      return respond(request, 200, preparedBytes(bytes), CONTENT_TYPES.json, API_HEADERS, admitted)
    }
    text = utf8.decode(bytes)
  }
  if (text.length === 0) {
    // A notification was accepted: 202 without a body.
    return respond(request, sdk.status, null, null, API_HEADERS, admitted)
  }
  let payload: unknown
  try {
    payload = JSON.parse(text)
  } catch {
    return errorResponse(request, internalError(route.id), admitted)
  }
  const method = route.kind === 'initialize' ? 'initialize' : route.method
  if (Array.isArray(payload)) payload.forEach((item) => normaliseMessage(item, sdk.status, null))
  else normaliseMessage(payload, sdk.status, method)
  if (isDiscover && isPlainObject(payload) && isPlainObject(payload.result)) {
    payload.result.supportedVersions = [...MCP_SUPPORTED_PROTOCOL_VERSIONS]
  }
  if (isBatch && !Array.isArray(payload)) payload = [payload]
  return respond(request, sdk.status, prepareBody(JSON.stringify(payload)), CONTENT_TYPES.json, API_HEADERS, admitted, sdk.status === 405 ? [['Allow', 'POST']] : NO_HEADERS)
}

/** Adds the contract's `error.data` members to an error the SDK produced; fixes its version list. */
function normaliseMessage(message: unknown, status: number, method: string | null): void {
  if (!isPlainObject(message) || !isPlainObject(message.error)) return
  const error = message.error
  let code = typeof error.code === 'number' ? error.code : undefined
  let text = typeof error.message === 'string' ? error.message : ''
  const data: JsonObject = isPlainObject(error.data) ? error.data : {}
  const issues = code === JSONRPC_ERROR.internalError || code === JSONRPC_ERROR.invalidParams ? summariseSchemaIssues(text) : undefined
  if (issues !== undefined) {
    code = JSONRPC_ERROR.invalidParams
    text = `Invalid params: ${issues}`
    error.code = code
    error.message = text
  }
  if (code === JSONRPC_ERROR.unsupportedProtocolVersion) {
    data.supported = [...MCP_SUPPORTED_PROTOCOL_VERSIONS]
    if (typeof data.requested !== 'string') data.requested = 'unknown'
  }
  if (code === JSONRPC_ERROR.headerMismatch || (code === JSONRPC_ERROR.invalidParams && status === 400)) {
    data.code ??= 'mcp_header_mismatch'
  }
  if (status === 405) {
    error.code = applicationErrorCode(405)
    data.code ??= 'mcp_method_not_allowed'
  }
  if (code === JSONRPC_ERROR.methodNotFound && method !== null) data.detail ??= `This server does not serve the method ${JSON.stringify(method)}.`
  const guidance = code === undefined ? undefined : sdkErrorGuidance(code, status)
  data.detail ??= text
  if (guidance) data.resolution ??= guidance.resolution
  error.data = data
}
