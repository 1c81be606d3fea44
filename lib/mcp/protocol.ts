/**
 * What POST /mcp adds to the SDK's vocabulary, defined once (the contract's codes, headers, limits and
 * error table are in lib/contract/): the answer as it goes on the wire, and how it answered the call.
 */
import { JSONRPC_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/server'
import type { McpErrorAnswer } from '../contract/mcp-errors.ts'
import type { HeaderList } from '../http/header-list.ts'

/**
 * An answer as it goes on the wire: status, JSON body (null: none) and extra headers (Allow, the
 * admission's), with how it answered the call for telemetry: `tool_error`, the JSON-RPC error code, or null.
 */
export type McpAnswer = { status: number; body: Uint8Array | null; headers: HeaderList; error: string | null }

/** A contract error answer as the JSON-RPC message it sends. */
export const errorMessage = ({ id, error }: McpErrorAnswer) => ({ jsonrpc: JSONRPC_VERSION, id, error }) as JSONRPCMessage

/** An error answer on the wire; `extraHeaders`: the admission's. */
export const errorAnswer = (problem: McpErrorAnswer, extraHeaders: HeaderList = []): McpAnswer => ({
  status: problem.status,
  body: Buffer.from(JSON.stringify(errorMessage(problem))),
  headers: [...(problem.headers ?? []), ...extraHeaders],
  error: String(problem.error.code),
})

/** How a JSON-RPC answer answered its call: `tool_error` for a tool result with `isError`, the error code, or null. */
export function outcomeOf(answer: JSONRPCMessage): string | null {
  if ('error' in answer) return String(answer.error.code)
  return 'result' in answer && answer.result.isError === true ? 'tool_error' : null
}
