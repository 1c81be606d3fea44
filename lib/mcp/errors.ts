/**
 * Every JSON-RPC error answer of POST /mcp, as data: HTTP status, `id` (echoed when the request had
 * a readable one, else null) and the error object. `error.data.code` carries the contract's machine
 * code where decisions.md names one; every answer built here has `data.detail` and `data.resolution`.
 */
import { MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../contract/constants.ts'
import { PROBLEMS, type ProblemCode } from '../contract/problems.ts'
import type { HeaderList } from '../http/headers.ts'
import { applicationErrorCode, JSONRPC_ERROR, MCP_ALLOWED_METHODS, MCP_MAX_BATCH_MESSAGES, MCP_MAX_BODY_BYTES } from './protocol.ts'

export type JsonRpcId = string | number

export interface JsonRpcErrorObject {
  code: number
  message: string
  data?: Record<string, unknown>
}

export interface McpErrorAnswer {
  status: number
  id: JsonRpcId | null
  error: JsonRpcErrorObject
  /** Extra response headers (Allow, Retry-After, rate-limit headers). */
  headers?: HeaderList
}

function answer(status: number, id: JsonRpcId | null, code: number, message: string, data: Record<string, unknown>, headers?: HeaderList): McpErrorAnswer {
  return { status, id, error: { code, message, data }, ...(headers ? { headers } : {}) }
}

/** `the header is missing` → `The header is missing.` */
function sentence(text: string): string {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1)
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`
}

function withContractCode(code: ProblemCode, detail: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { code, detail, resolution: PROBLEMS[code].resolution, ...extra }
}

export function parseError(detail = 'The request body is not valid JSON (UTF-8).'): McpErrorAnswer {
  return answer(400, null, JSONRPC_ERROR.parseError, 'Parse error', {
    detail,
    resolution: 'Send one JSON-RPC 2.0 message as a UTF-8 JSON body.',
  })
}

export function invalidRequest(id: JsonRpcId | null, detail: string): McpErrorAnswer {
  return answer(400, id, JSONRPC_ERROR.invalidRequest, 'Invalid Request', {
    detail,
    resolution:
      'Send one JSON-RPC 2.0 request object: {"jsonrpc":"2.0","id":<string or integer>,"method":<string>,"params":<object>}. Only legacy (2025-03-26) clients may send a batch array.',
  })
}

/** A required MCP header is missing, malformed, or disagrees with the body (-32020). */
export function headerMismatch(id: JsonRpcId | null, detail: string): McpErrorAnswer {
  return answer(400, id, JSONRPC_ERROR.headerMismatch, `Header mismatch: ${detail}`, withContractCode('mcp_header_mismatch', sentence(detail)))
}

/** A required `_meta` key of the 2026-07-28 envelope is missing or of the wrong type (-32602, HTTP 400). */
export function envelopeInvalid(id: JsonRpcId | null, detail: string): McpErrorAnswer {
  return answer(400, id, JSONRPC_ERROR.invalidParams, `Invalid params: ${detail}`, withContractCode('mcp_header_mismatch', sentence(detail)))
}

/** A call other than `initialize` pins a protocol version this server does not serve (-32022). */
export function unsupportedProtocolVersion(id: JsonRpcId | null, requested: string): McpErrorAnswer {
  const supported = [...MCP_SUPPORTED_PROTOCOL_VERSIONS]
  return answer(400, id, JSONRPC_ERROR.unsupportedProtocolVersion, 'Unsupported protocol version', {
    supported,
    requested,
    detail: `Protocol version ${JSON.stringify(requested)} is not served here; supported versions: ${supported.join(', ')}.`,
    resolution: `Retry with one of the supported versions: send MCP-Protocol-Version and _meta ${JSON.stringify('io.modelcontextprotocol/protocolVersion')} of ${supported[0]}, or start a legacy session with initialize.`,
  })
}

export function methodNotAllowed(method: string): McpErrorAnswer {
  return answer(
    405,
    null,
    applicationErrorCode(405),
    'Method not allowed',
    withContractCode('mcp_method_not_allowed', `${method} is not served on the MCP endpoint. ${PROBLEMS.mcp_method_not_allowed.detail}`),
    [['Allow', MCP_ALLOWED_METHODS]],
  )
}

export function accessDisabled(id: JsonRpcId | null, retryAfterSeconds: number, headers: HeaderList): McpErrorAnswer {
  return answer(
    503,
    id,
    applicationErrorCode(503),
    PROBLEMS.public_agent_access_disabled.title,
    withContractCode('public_agent_access_disabled', PROBLEMS.public_agent_access_disabled.detail, { retryAfterSeconds }),
    headers,
  )
}

export function rateLimited(id: JsonRpcId | null, retryAfterSeconds: number, headers: HeaderList): McpErrorAnswer {
  return answer(
    429,
    id,
    applicationErrorCode(429),
    PROBLEMS.rate_limit_exceeded.title,
    withContractCode('rate_limit_exceeded', PROBLEMS.rate_limit_exceeded.detail, { retryAfterSeconds }),
    headers,
  )
}

/** A present `Origin` (or, on a loopback bind, `Host`) that is not allowed: DNS-rebinding protection. */
export function forbiddenOrigin(detail: string): McpErrorAnswer {
  return answer(403, null, JSONRPC_ERROR.invalidRequest, 'Forbidden', {
    detail,
    resolution:
      'Call the MCP endpoint from a server-side client (no Origin header), from the site itself, or from an origin the operator lists in MCP_ALLOWED_ORIGINS.',
  })
}

export const SERVED_METHODS_RESOLUTION =
  'Use server/discover, tools/list, tools/call, resources/list, resources/templates/list or resources/read (legacy clients also initialize and ping).'

/** A method this server does not serve (-32601, HTTP 404 on the 2026-07-28 transport). */
export function methodNotFound(id: JsonRpcId | null, method: string, detail: string): McpErrorAnswer {
  return answer(404, id, JSONRPC_ERROR.methodNotFound, 'Method not found', { detail: `${detail}`, method, resolution: SERVED_METHODS_RESOLUTION })
}

export function bodyTooLarge(): McpErrorAnswer {
  return answer(413, null, applicationErrorCode(413), 'Request body too large', {
    detail: `The request body exceeds ${MCP_MAX_BODY_BYTES} bytes.`,
    resolution: `Send one JSON-RPC message of at most ${MCP_MAX_BODY_BYTES} bytes.`,
  })
}

export function unsupportedMediaType(received: string | null): McpErrorAnswer {
  return answer(415, null, applicationErrorCode(415), 'Unsupported media type', {
    detail: received ? `Content-Type ${JSON.stringify(received)} is not JSON.` : 'The request has no Content-Type.',
    resolution: 'Send the JSON-RPC message with Content-Type: application/json.',
  })
}

export function batchTooLarge(): McpErrorAnswer {
  return invalidRequest(null, `A JSON-RPC batch may hold at most ${MCP_MAX_BATCH_MESSAGES} messages.`)
}

/** Detail and resolution for errors the SDK produced itself (method not found and the like). */
export function sdkErrorGuidance(code: number, status: number): { resolution: string } | undefined {
  switch (code) {
    case JSONRPC_ERROR.methodNotFound:
      return { resolution: SERVED_METHODS_RESOLUTION }
    case JSONRPC_ERROR.invalidParams:
      return status === 400
        ? { resolution: PROBLEMS.mcp_header_mismatch.resolution }
        : { resolution: 'Correct the params the message names and retry; tools/list gives the input schema of every tool.' }
    case JSONRPC_ERROR.headerMismatch:
      return { resolution: PROBLEMS.mcp_header_mismatch.resolution }
    case JSONRPC_ERROR.invalidRequest:
    case JSONRPC_ERROR.parseError:
      return { resolution: 'Send one JSON-RPC 2.0 request object as a UTF-8 JSON body.' }
    default:
      return undefined
  }
}

/**
 * The SDK reports invalid params of a request as the raw list of zod issues (for most methods with
 * the code -32603, as if the server had failed). Returns a readable summary, or undefined.
 */
export function summariseSchemaIssues(message: string): string | undefined {
  const start = message.indexOf('[')
  if (start < 0) return undefined
  try {
    const issues: unknown = JSON.parse(message.slice(start))
    if (!Array.isArray(issues) || issues.length === 0) return undefined
    const parts = issues.map((issue) => {
      if (typeof issue !== 'object' || issue === null || typeof issue.message !== 'string') throw new Error('not an issue')
      const path = Array.isArray((issue as { path?: unknown }).path) ? (issue as { path: unknown[] }).path.join('.') : ''
      return path ? `${path}: ${issue.message}` : issue.message
    })
    return parts.join('; ')
  } catch {
    return undefined
  }
}

