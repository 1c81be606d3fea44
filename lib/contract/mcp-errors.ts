/**
 * The MCP error table of decisions.md as the answers POST /mcp gives: HTTP status, `id` (the
 * request's own when readable, else null), a JSON-RPC error whose `data` carries `detail`,
 * `resolution` and, where the table names one, the machine `code` of section 7. It sits beside
 * PROBLEMS, the REST answers of the same codes. lib/mcp decides which answer applies;
 * `fromLadderRejection` is the one mapping of the SDK classifier's verdict onto the table.
 */
import { ProtocolErrorCode as Code, type InboundLadderRejection, type StandardSchemaV1 } from '@modelcontextprotocol/server'
import { applicationErrorCode, HEADER_MISMATCH, MCP_ALLOWED_METHODS, MCP_MAX_BODY_BYTES, MCP_SUPPORTED_PROTOCOL_VERSIONS } from './constants.ts'
import { PROBLEMS, type ProblemCode } from './problems.ts'

export type JsonObject = Record<string, unknown>
export const isPlainObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)
export type JsonRpcId = string | number
type Id = JsonRpcId | null
/** `headers`: extra headers of the answer (Allow). */
export type McpErrorAnswer = {
  status: number
  id: Id
  error: { code: number; message: string; data?: JsonObject }
  headers?: ReadonlyArray<readonly [string, string]>
}

/** A JSON-RPC id an answer can echo: a string or a safe integer. */
const isJsonRpcId = (value: unknown): value is JsonRpcId => typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))
/** The id an error answer to this body echoes: the message's own when readable, else null. */
export const readableId = (body: unknown): Id => (isPlainObject(body) && isJsonRpcId(body.id) ? body.id : null)

const INVALID_REQUEST_RESOLUTION =
  'Send one JSON-RPC 2.0 request object: {"jsonrpc":"2.0","id":<string or integer>,"method":<string>,"params":<object>}. Only legacy (2025-03-26) clients may send a batch array.'
const RETRY_RESOLUTION = 'Retry later; report the problem if it persists.'

/** An error answer of POST /mcp. */
const mcpError = (status: number, id: Id, code: number, message: string, data: JsonObject, headers?: McpErrorAnswer['headers']): McpErrorAnswer => ({
  status,
  id,
  error: { code, message, data },
  ...(headers ? { headers } : {}),
})
/** The data of an answer carrying a section 7 code. */
const withProblemCode = (code: ProblemCode, detail: string, extra: JsonObject = {}) => ({
  code,
  detail,
  resolution: PROBLEMS[code].resolution,
  ...extra,
})
/** `the header is missing` → `The header is missing.` */
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`

export const parseError = (detail = 'The request body is not valid JSON (UTF-8).') =>
  mcpError(400, null, Code.ParseError, 'Parse error', { detail, resolution: 'Send one JSON-RPC 2.0 message as a UTF-8 JSON body.' })
export const invalidRequest = (id: Id, detail: string) =>
  mcpError(400, id, Code.InvalidRequest, 'Invalid Request', { detail, resolution: INVALID_REQUEST_RESOLUTION })
/** A mirrored header missing or disagreeing with the body (-32020). */
export const headerMismatch = (id: Id, detail: string) =>
  mcpError(400, id, HEADER_MISMATCH, `Header mismatch: ${detail}`, withProblemCode('mcp_header_mismatch', sentence(detail)))
/** A 2026-07-28 `_meta` envelope of the wrong shape (-32602, HTTP 400). */
export const envelopeInvalid = (id: Id, detail: string) =>
  mcpError(400, id, Code.InvalidParams, `Invalid params: ${detail}`, withProblemCode('mcp_header_mismatch', sentence(detail)))
/** A present `Origin` (or, on a loopback bind, `Host`) that is not allowed: DNS-rebinding protection. */
export const forbiddenOrigin = (detail: string) =>
  mcpError(403, null, Code.InvalidRequest, 'Forbidden', {
    detail,
    resolution:
      'Call the MCP endpoint from a server-side client (no Origin header), from the site itself, or from an origin the operator lists in MCP_ALLOWED_ORIGINS.',
  })
export const internalError = () =>
  mcpError(500, null, Code.InternalError, 'Internal error', {
    detail: 'The server failed while answering this request.',
    resolution: RETRY_RESOLUTION,
  })

/** A call other than `initialize` pins a protocol version this server does not serve (-32022). */
export function unsupportedProtocolVersion(id: Id, requested: string): McpErrorAnswer {
  const supported = [...MCP_SUPPORTED_PROTOCOL_VERSIONS]
  const detail = `Protocol version ${JSON.stringify(requested)} is not served here; supported versions: ${supported.join(', ')}.`
  const resolution = `Retry with one of the supported versions: send MCP-Protocol-Version and _meta ${JSON.stringify('io.modelcontextprotocol/protocolVersion')} of ${supported[0]}, or start a legacy session with initialize.`
  return mcpError(400, id, Code.UnsupportedProtocolVersion, 'Unsupported protocol version', { supported, requested, detail, resolution })
}

export function methodNotAllowed(method: string): McpErrorAnswer {
  const data = withProblemCode('mcp_method_not_allowed', `${method} is not served on the MCP endpoint. ${PROBLEMS.mcp_method_not_allowed.detail}`)
  return mcpError(405, null, applicationErrorCode(405), 'Method not allowed', data, [['Allow', MCP_ALLOWED_METHODS]])
}

/** The 503 or 429 of a refused admission, echoing the request's id. */
export function refused(reason: 'public_agent_access_disabled' | 'rate_limit_exceeded', id: Id, retryAfterSeconds: number): McpErrorAnswer {
  const { status, title, detail } = PROBLEMS[reason]
  return mcpError(status, id, applicationErrorCode(status), title, withProblemCode(reason, detail, { retryAfterSeconds }))
}

export const bodyTooLarge = () =>
  mcpError(413, null, applicationErrorCode(413), 'Request body too large', {
    detail: `The request body exceeds ${MCP_MAX_BODY_BYTES} bytes.`,
    resolution: `Send one JSON-RPC message of at most ${MCP_MAX_BODY_BYTES} bytes.`,
  })

export const unsupportedMediaType = (received: string | null) =>
  mcpError(415, null, applicationErrorCode(415), 'Unsupported media type', {
    detail: received ? `Content-Type ${JSON.stringify(received)} is not JSON.` : 'The request has no Content-Type.',
    resolution: 'Send the JSON-RPC message with Content-Type: application/json.',
  })

/** The in-band -32602 of a request whose params fail the SDK's schema of its method, naming each issue. */
export function invalidParams(id: Id, issues: ReadonlyArray<StandardSchemaV1.Issue>): McpErrorAnswer {
  const at = (path: StandardSchemaV1.Issue['path']) => path?.map((key) => String(typeof key === 'object' ? key.key : key)).join('.')
  const summary = `Invalid params: ${issues.map(({ path, message }) => (path?.length ? `${at(path)}: ${message}` : message)).join('; ')}`
  const resolution = 'Correct the params the message names and retry; tools/list gives the input schema of every tool.'
  return mcpError(200, id, Code.InvalidParams, summary, { detail: summary, resolution })
}

/** A method this server does not serve: 404 on 2026-07-28, in-band (200) on the 2025 transport. */
export function methodNotFound(id: Id, method: string, status: number): McpErrorAnswer {
  const detail =
    method === 'subscriptions/listen'
      ? 'This server offers no subscriptions: it never opens a stream, and its lists change only when it is redeployed (see their ttlMs caching hints).'
      : `This server does not serve the method ${JSON.stringify(method)}.`
  const resolution =
    'Use server/discover, tools/list, tools/call, resources/list, resources/templates/list or resources/read (legacy clients also initialize and ping).'
  return mcpError(status, id, Code.MethodNotFound, 'Method not found', { detail, method, resolution })
}

/** `tools/call` naming no tool of the catalog (in-band). */
export const unknownTool = (id: Id, name: string, tools: readonly string[]) =>
  mcpError(200, id, Code.InvalidParams, `Unknown tool: ${name}`, {
    name,
    detail: `No tool is named ${JSON.stringify(name)}. Tools: ${tools.join(', ')}.`,
    resolution: 'Call tools/list and retry with a returned tool name.',
  })

/** `resources/read` naming no public resource: in-band, HTTP 200. */
export const resourceNotFound = (id: Id, uri: string, uris: readonly string[]) =>
  mcpError(200, id, Code.InvalidParams, `Resource not found: ${uri}`, {
    uri,
    code: 'agent_resource_not_found',
    detail: `No public resource has the URI ${JSON.stringify(uri)}. Public resource URIs: ${uris.join(', ')}.`,
    resolution: 'Call resources/list and retry with a returned URI.',
  })

/**
 * The SDK classifier's refusal (`classifyInboundRequest`: JSON-RPC shape, mirrored headers, the
 * 2026-07-28 envelope) in the table's form, with a detail and a resolution: -32020, and the 400
 * -32602 of a malformed envelope, carry `mcp_header_mismatch`; -32022 lists every version served.
 */
export function fromLadderRejection({ httpStatus, code, message, data }: InboundLadderRejection, id: Id): McpErrorAnswer {
  const given = isPlainObject(data) ? data : {}
  if (code === Code.UnsupportedProtocolVersion) return unsupportedProtocolVersion(id, String(given.requested))
  if (code === HEADER_MISMATCH || code === Code.InvalidParams)
    return mcpError(httpStatus, id, code, message, withProblemCode('mcp_header_mismatch', message, given))
  const resolution = code === Code.InvalidRequest ? INVALID_REQUEST_RESOLUTION : RETRY_RESOLUTION
  return mcpError(httpStatus, id, code, message, { detail: message, resolution, ...given })
}
