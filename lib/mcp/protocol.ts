/**
 * What POST /mcp adds to the SDK's vocabulary, defined once (the contract's codes, headers, limits and
 * error table are in lib/contract/): the answer as it goes on the wire.
 */
import { JSONRPC_VERSION } from '@modelcontextprotocol/server'
import type { McpErrorAnswer } from '../contract/mcp-errors.ts'
import type { HeaderList } from '../http/header-list.ts'

/**
 * An answer as it goes on the wire: status, JSON body (null: none) and extra headers (Allow, the
 * admission's), with how it answered the call for telemetry: `tool_error`, the JSON-RPC error code, or null.
 */
export type McpAnswer = { status: number; body: Uint8Array | null; headers: HeaderList; error: string | null }

/** An error answer on the wire; `extraHeaders`: the admission's. */
export const errorAnswer = ({ status, id, error, headers = [] }: McpErrorAnswer, extraHeaders: HeaderList = []): McpAnswer => ({
  status,
  body: Buffer.from(JSON.stringify({ jsonrpc: JSONRPC_VERSION, id, error })),
  headers: [...headers, ...extraHeaders],
  error: String(error.code),
})
