/**
 * The fixed vocabulary of POST /mcp, defined once: JSON-RPC and MCP error codes, the application
 * codes of the contract's errors (-31000 minus the HTTP status), request limits, caching hints and
 * the `_meta` keys of the 2026-07-28 per-request envelope.
 */
import { MCP_PROTOCOL_VERSION } from '../contract/constants.ts'

export const JSONRPC_VERSION = '2.0'

export const JSONRPC_ERROR = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** MCP `HeaderMismatch`. */
  headerMismatch: -32020,
  /** MCP `UnsupportedProtocolVersion`. */
  unsupportedProtocolVersion: -32022,
} as const

/** Application error codes live outside -32768…-32000: -31000 minus the HTTP status (decisions.md). */
export function applicationErrorCode(httpStatus: number): number {
  return -31000 - httpStatus
}

/** Largest accepted request body; a larger one is answered 413 before it is parsed. */
export const MCP_MAX_BODY_BYTES = 2 * 1024 * 1024
/** Largest accepted JSON-RPC batch (legacy 2025-03-26 clients only). */
export const MCP_MAX_BATCH_MESSAGES = 20

export const MCP_ALLOWED_METHODS = 'POST'

/** Caching hints of the cacheable results (standards.md open choice 17). */
export const MCP_CACHE_HINTS = {
  discover: { ttlMs: 3_600_000, cacheScope: 'public' },
  listsAndReads: { ttlMs: 300_000, cacheScope: 'public' },
} as const

export const META_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
} as const

/** The `_meta` keys only a 2026-07-28 request carries; legacy requests are forwarded without them. */
export const ENVELOPE_META_KEYS: readonly string[] = Object.values(META_KEYS)

export const MODERN_PROTOCOL_VERSION = MCP_PROTOCOL_VERSION
/** The legacy version a client asking for an unsupported one (2026-07-28 included) is given by `initialize`. */
export const NEWEST_LEGACY_PROTOCOL_VERSION = '2025-11-25'

/** Methods whose `Mcp-Name` header mirrors a body field (2026-07-28 transport, SEP-2243 and SEP-2663). */
export const MCP_NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
}

export const MCP_HEADERS = {
  protocolVersion: 'mcp-protocol-version',
  method: 'mcp-method',
  name: 'mcp-name',
  sessionId: 'mcp-session-id',
} as const
