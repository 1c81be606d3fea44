/**
 * What POST /mcp adds to the SDK's vocabulary, defined once (the contract's codes, headers, limits and
 * error table are in lib/contract/): the answer as it goes on the wire and the reading of a JSON-RPC
 * body every module needs.
 */
import { JSONRPC_VERSION } from '@modelcontextprotocol/server'
import type { JsonObject, McpErrorAnswer } from '../contract/mcp-errors.ts'
import type { HeaderList } from '../http/header-list.ts'

/**
 * An answer as it goes on the wire: status, JSON body (null: none) and extra headers (Allow, the
 * admission's), with how it answered the call for telemetry: `tool_error`, the JSON-RPC error code, or null.
 */
export type McpAnswer = { status: number; body: Uint8Array | null; headers: HeaderList; error: string | null }

export const isPlainObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)

/** An error answer on the wire; `extraHeaders`: the admission's. */
export const errorAnswer = ({ status, id, error, headers = [] }: McpErrorAnswer, extraHeaders: HeaderList = []): McpAnswer => ({
  status,
  body: Buffer.from(JSON.stringify({ jsonrpc: JSONRPC_VERSION, id, error })),
  headers: [...headers, ...extraHeaders],
  error: String(error.code),
})
