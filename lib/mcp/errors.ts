/**
 * Every error answer of POST /mcp in the contract's form (decisions.md): HTTP status, `id` (the
 * request's own when readable, else null), a JSON-RPC error whose `data` carries `detail`, `resolution`
 * and, where the table names one, the machine `code`. The endpoint's own answers are built here, and
 * `fromSdkError` is the one mapping of the SDK's error answers onto the table.
 */
import { ProtocolError, ProtocolErrorCode, type StandardSchemaV1 } from '@modelcontextprotocol/server'
import { MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../contract/constants.ts'
import { PROBLEMS, type ProblemCode } from '../contract/problems.ts'
import type { HeaderList } from '../http/headers.ts'
import { applicationErrorCode, HEADER_MISMATCH, MCP_ALLOWED_METHODS, MCP_MAX_BODY_BYTES, type JsonObject, type JsonRpcId } from './protocol.ts'

export type JsonRpcErrorObject = { code: number; message: string; data?: JsonObject }

/** Extra headers: Allow. */
export type McpErrorAnswer = { status: number; id: JsonRpcId | null; error: JsonRpcErrorObject; headers?: HeaderList }

const RESOLUTION = {
  request:
    'Send one JSON-RPC 2.0 request object: {"jsonrpc":"2.0","id":<string or integer>,"method":<string>,"params":<object>}. Only legacy (2025-03-26) clients may send a batch array.',
  methods:
    'Use server/discover, tools/list, tools/call, resources/list, resources/templates/list or resources/read (legacy clients also initialize and ping).',
  params: 'Correct the params the message names and retry; tools/list gives the input schema of every tool.',
  retry: 'Retry later; report the problem if it persists.',
}

function answer(status: number, id: JsonRpcId | null, code: number, message: string, data: JsonObject, headers?: HeaderList): McpErrorAnswer {
  return { status, id, error: { code, message, data }, ...(headers ? { headers } : {}) }
}

function withContractCode(code: ProblemCode, detail: string, extra: JsonObject = {}): JsonObject {
  return { code, detail, resolution: PROBLEMS[code].resolution, ...extra }
}

/** `the header is missing` → `The header is missing.` */
function sentence(text: string): string {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1)
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`
}

export function parseError(detail = 'The request body is not valid JSON (UTF-8).'): McpErrorAnswer {
  return answer(400, null, ProtocolErrorCode.ParseError, 'Parse error', { detail, resolution: 'Send one JSON-RPC 2.0 message as a UTF-8 JSON body.' })
}

export function invalidRequest(id: JsonRpcId | null, detail: string): McpErrorAnswer {
  return answer(400, id, ProtocolErrorCode.InvalidRequest, 'Invalid Request', { detail, resolution: RESOLUTION.request })
}

/** A mirrored header that disagrees with the body (-32020). */
export function headerMismatch(id: JsonRpcId | null, detail: string): McpErrorAnswer {
  return answer(400, id, HEADER_MISMATCH, `Header mismatch: ${detail}`, withContractCode('mcp_header_mismatch', sentence(detail)))
}

/** A 2026-07-28 `_meta` envelope of the wrong shape (-32602, HTTP 400). */
export function envelopeInvalid(id: JsonRpcId | null, detail: string): McpErrorAnswer {
  return answer(400, id, ProtocolErrorCode.InvalidParams, `Invalid params: ${detail}`, withContractCode('mcp_header_mismatch', sentence(detail)))
}

/** A call other than `initialize` pins a protocol version this server does not serve (-32022). */
export function unsupportedProtocolVersion(id: JsonRpcId | null, requested: string): McpErrorAnswer {
  const supported = [...MCP_SUPPORTED_PROTOCOL_VERSIONS]
  const detail = `Protocol version ${JSON.stringify(requested)} is not served here; supported versions: ${supported.join(', ')}.`
  const resolution = `Retry with one of the supported versions: send MCP-Protocol-Version and _meta ${JSON.stringify('io.modelcontextprotocol/protocolVersion')} of ${supported[0]}, or start a legacy session with initialize.`
  return answer(400, id, ProtocolErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', { supported, requested, detail, resolution })
}

export function methodNotAllowed(method: string): McpErrorAnswer {
  const detail = `${method} is not served on the MCP endpoint. ${PROBLEMS.mcp_method_not_allowed.detail}`
  return answer(405, null, applicationErrorCode(405), 'Method not allowed', withContractCode('mcp_method_not_allowed', detail), [
    ['Allow', MCP_ALLOWED_METHODS],
  ])
}

/** The 503 or 429 of a refused admission, echoing the request's id. */
export function refused(
  reason: 'public_agent_access_disabled' | 'rate_limit_exceeded',
  id: JsonRpcId | null,
  retryAfterSeconds: number,
): McpErrorAnswer {
  const { status, title, detail } = PROBLEMS[reason]
  return answer(status, id, applicationErrorCode(status), title, withContractCode(reason, detail, { retryAfterSeconds }))
}

/** A present `Origin` (or, on a loopback bind, `Host`) that is not allowed: DNS-rebinding protection. */
export function forbiddenOrigin(detail: string): McpErrorAnswer {
  const resolution =
    'Call the MCP endpoint from a server-side client (no Origin header), from the site itself, or from an origin the operator lists in MCP_ALLOWED_ORIGINS.'
  return answer(403, null, ProtocolErrorCode.InvalidRequest, 'Forbidden', { detail, resolution })
}

export function bodyTooLarge(): McpErrorAnswer {
  const detail = `The request body exceeds ${MCP_MAX_BODY_BYTES} bytes.`
  return answer(413, null, applicationErrorCode(413), 'Request body too large', {
    detail,
    resolution: `Send one JSON-RPC message of at most ${MCP_MAX_BODY_BYTES} bytes.`,
  })
}

export function unsupportedMediaType(received: string | null): McpErrorAnswer {
  const detail = received ? `Content-Type ${JSON.stringify(received)} is not JSON.` : 'The request has no Content-Type.'
  return answer(415, null, applicationErrorCode(415), 'Unsupported media type', {
    detail,
    resolution: 'Send the JSON-RPC message with Content-Type: application/json.',
  })
}

export function internalError(): McpErrorAnswer {
  return answer(500, null, ProtocolErrorCode.InternalError, 'Internal error', {
    detail: 'The server failed while answering this request.',
    resolution: RESOLUTION.retry,
  })
}

/** The in-band -32602 of a request whose params fail the SDK's schema of its method, naming each issue. */
export function invalidParams(issues: ReadonlyArray<StandardSchemaV1.Issue>): ProtocolError {
  const summary = issues
    .map(({ path, message }) =>
      path?.length ? `${path.map((key) => String(typeof key === 'object' ? key.key : key)).join('.')}: ${message}` : message,
    )
    .join('; ')
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params: ${summary}`, {
    detail: `Invalid params: ${summary}`,
    resolution: RESOLUTION.params,
  })
}

function resolutionOf(code: number, status: number): string {
  if (code === ProtocolErrorCode.MethodNotFound) return RESOLUTION.methods
  if (code === HEADER_MISMATCH || (code === ProtocolErrorCode.InvalidParams && status === 400)) return PROBLEMS.mcp_header_mismatch.resolution
  if (code === ProtocolErrorCode.InvalidParams) return RESOLUTION.params
  if (code === ProtocolErrorCode.InvalidRequest || code === ProtocolErrorCode.ParseError) return RESOLUTION.request
  return RESOLUTION.retry
}

/**
 * The one mapping of an error the SDK answered (HTTP status and JSON-RPC error) onto the decisions.md
 * table, for a request whose HTTP method, JSON-RPC method (of a single message) and readable id are
 * given: the SDK echoes other ids too, or none. Its codes stand where the table agrees; these differ:
 * - 405 (the SDK's -32000) is the application code -31405 with `mcp_method_not_allowed`;
 * - with `maxSubscriptions: 0` the SDK refuses every `subscriptions/listen` with an in-band -32603:
 *   the contract never streams, so the method is one this server does not serve (404, -32601);
 * - its -32022 lists only 2026-07-28: the table's lists every version served;
 * - -32020, and the 400 -32602 of a malformed `_meta` envelope, carry `mcp_header_mismatch`.
 */
export function fromSdkError(
  status: number,
  error: JsonRpcErrorObject,
  httpMethod: string,
  rpcMethod: string | null,
  id: JsonRpcId | null,
): McpErrorAnswer {
  if (status === 405) return methodNotAllowed(httpMethod)
  if (rpcMethod === 'subscriptions/listen' && error.code === ProtocolErrorCode.InternalError && status === 200) {
    const detail =
      'This server offers no subscriptions: it never opens a stream, and its lists change only when it is redeployed (see their ttlMs caching hints).'
    return answer(404, id, ProtocolErrorCode.MethodNotFound, 'Method not found', { detail, method: rpcMethod, resolution: RESOLUTION.methods })
  }
  if (error.code === ProtocolErrorCode.UnsupportedProtocolVersion) return unsupportedProtocolVersion(id, String(error.data?.requested))
  const data: JsonObject = { ...error.data }
  if (error.code === HEADER_MISMATCH || (error.code === ProtocolErrorCode.InvalidParams && status === 400)) data.code = 'mcp_header_mismatch'
  const unserved = error.code === ProtocolErrorCode.MethodNotFound && rpcMethod !== null
  data.detail ??= unserved ? `This server does not serve the method ${JSON.stringify(rpcMethod)}.` : error.message
  data.resolution ??= resolutionOf(error.code, status)
  return { status, id, error: { code: error.code, message: error.message, data } }
}
