/**
 * What POST /mcp adds to the SDK's vocabulary, defined once (the contract's codes, limits and caching
 * hints are in lib/contract/constants.ts): the mirrored headers, the answer as it goes on the wire and
 * the readings of a JSON-RPC body every module needs.
 */
import type { HeaderList } from '../http/header-list.ts'

export const MCP_ALLOWED_METHODS = 'POST'
export const MCP_HEADERS = { protocolVersion: 'mcp-protocol-version', method: 'mcp-method', name: 'mcp-name' } as const

/**
 * An answer as it goes on the wire: status, JSON body (null: none) and extra headers (Allow, the
 * admission's), with how it answered the call for telemetry: `tool_error`, the JSON-RPC error code, or null.
 */
export type McpAnswer = { status: number; body: Uint8Array | null; headers: HeaderList; error: string | null }
export type JsonObject = Record<string, unknown>
export type JsonRpcId = string | number

export const isPlainObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)
/** A JSON-RPC id an answer can echo: a string or a safe integer. */
export const isJsonRpcId = (value: unknown): value is JsonRpcId =>
  typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))
/** The id an error answer to this body echoes (decisions.md): the message's own when readable, else null. */
export const readableId = (body: unknown): JsonRpcId | null => (isPlainObject(body) && isJsonRpcId(body.id) ? body.id : null)
