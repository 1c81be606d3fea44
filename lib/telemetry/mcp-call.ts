/**
 * Reads, for telemetry, what an MCP request asks and how it was answered: method, tool, protocol
 * version, id, client name, the `_meta` trace context, and whether the answer is a tool error or a
 * JSON-RPC error. Called by lib/mcp/handler.ts; does nothing for a request nobody observes.
 */
import { CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, TRACEPARENT_META_KEY, TRACESTATE_META_KEY } from '@modelcontextprotocol/server'
import { isPlainObject, MCP_HEADERS } from '../mcp/protocol.ts'
import { observationOf } from './observe.ts'

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)

/** Notes the request of a parsed body (a batch is noted as `batch`). */
export function noteMcpRequest(request: Request, body: unknown): void {
  const seen = observationOf(request)
  if (!seen) return
  const startedAt = performance.timeOrigin + performance.now()
  if (!isPlainObject(body)) {
    seen.mcp = { ...EMPTY, method: Array.isArray(body) ? 'batch' : null, startedAt }
    return
  }
  const params = isPlainObject(body.params) ? body.params : {}
  const meta = isPlainObject(params._meta) ? params._meta : {}
  const method = text(body.method)
  // 2026-07-28 carries clientInfo in every request's _meta; a 2025 client sends it once, in initialize.
  const info = isPlainObject(meta[CLIENT_INFO_META_KEY]) ? meta[CLIENT_INFO_META_KEY] : params.clientInfo
  const clientInfo = isPlainObject(info) ? info : {}
  const id = body.id
  seen.mcp = {
    method,
    tool: method === 'tools/call' ? text(params.name) : null,
    resourceUri: method === 'resources/read' ? text(params.uri) : null,
    protocolVersion:
      request.headers.get(MCP_HEADERS.protocolVersion) ??
      text(meta[PROTOCOL_VERSION_META_KEY]) ??
      (method === 'initialize' ? text(params.protocolVersion) : null),
    requestId: typeof id === 'string' || typeof id === 'number' ? String(id) : null,
    clientName: clientInfo.name,
    traceparent: text(meta[TRACEPARENT_META_KEY]),
    tracestate: text(meta[TRACESTATE_META_KEY]),
    startedAt,
    error: null,
  }
}

const EMPTY = {
  ...{ tool: null, resourceUri: null, protocolVersion: null, requestId: null },
  ...{ clientName: undefined, traceparent: null, tracestate: null, error: null },
}

const decoder = new TextDecoder()
// Every answer starts `{"jsonrpc":"2.0","id":…,` (lib/mcp/server.ts errorAnswer, the SDK's serialisation).
const ERROR_CODE = /^\{"jsonrpc":"2\.0","id":(?:null|-?\d+|"(?:[^"\\]|\\.)*"),"error":\{"code":(-?\d+)/
const HEAD_BYTES = 1024
const TOOL_ERROR = '"isError":true'
const TOOL_ERROR_BYTES = Buffer.from(TOOL_ERROR)

/** Notes how the request was answered: `tool_error` for a tool result with isError, else the JSON-RPC error code. */
export function noteMcpAnswer(request: Request, body: string | Uint8Array | null): void {
  const mcp = observationOf(request)?.mcp
  if (!mcp || body === null) return
  // Only the head is decoded: precomputed answers are bytes, and this runs on every observed call.
  const code = ERROR_CODE.exec(typeof body === 'string' ? body.slice(0, HEAD_BYTES) : decoder.decode(body.subarray(0, HEAD_BYTES)))
  if (code) mcp.error = code[1] as string
  else if (mcp.method === 'tools/call' && isToolError(body)) mcp.error = 'tool_error'
}

function isToolError(body: string | Uint8Array): boolean {
  return typeof body === 'string' ? body.includes(TOOL_ERROR) : Buffer.from(body.buffer, body.byteOffset, body.byteLength).includes(TOOL_ERROR_BYTES)
}
