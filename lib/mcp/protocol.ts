/**
 * What POST /mcp adds to the SDK's vocabulary, defined once (the contract's codes, limits and caching
 * hints are in lib/contract/constants.ts): the mirrored headers, the answer as it goes on the wire and
 * the readings of a JSON-RPC body every module needs.
 */
import type { HeaderList } from '../http/header-list.ts'

export const MCP_ALLOWED_METHODS = 'POST'
export const MCP_HEADERS = { protocolVersion: 'mcp-protocol-version', method: 'mcp-method', name: 'mcp-name' } as const
/** Methods whose `Mcp-Name` header mirrors a body field (2026-07-28 transport). */
export const MCP_NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  ...{ 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' },
  ...{ 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' },
}

/** An answer as it goes on the wire: status, JSON body (null: none) and extra headers (Allow). */
export type McpAnswer<Body = string | Uint8Array> = { status: number; body: Body | null; headers: HeaderList }
export type JsonObject = Record<string, unknown>
export type JsonRpcId = string | number

export const isPlainObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)
/** A JSON-RPC id an answer can echo: a string or a safe integer. */
export const isJsonRpcId = (value: unknown): value is JsonRpcId =>
  typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))
/** The id an error answer to this body echoes (decisions.md): the message's own when readable, else null. */
export const readableId = (body: unknown): JsonRpcId | null => (isPlainObject(body) && isJsonRpcId(body.id) ? body.id : null)
