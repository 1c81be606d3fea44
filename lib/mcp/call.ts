/**
 * What an MCP request asks, as the handler returns it for telemetry: method, tool, resource, protocol
 * version, id, client name and the `_meta` trace context. How it was answered (`error`) is set by the
 * handler where it decides the answer.
 */
import { CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, TRACEPARENT_META_KEY, TRACESTATE_META_KEY } from '@modelcontextprotocol/server'
import { isPlainObject, MCP_HEADERS } from './protocol.ts'

export interface McpCall {
  method: string | null
  tool: string | null
  resourceUri: string | null
  protocolVersion: string | null
  requestId: string | null
  clientName: unknown
  traceparent: string | null
  tracestate: string | null
  /** Epoch ms when the body was read: the MCP operation starts there. */
  startedAt: number
  /** `tool_error`, a JSON-RPC error code, or null. */
  error: string | null
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)

const EMPTY = {
  ...{ tool: null, resourceUri: null, protocolVersion: null, requestId: null },
  ...{ clientName: undefined, traceparent: null, tracestate: null, error: null },
}

/** The call of a parsed body (a batch is described as `batch`). */
export function describeMcpCall(request: Request, body: unknown, startedAt: number): McpCall {
  if (!isPlainObject(body)) return { ...EMPTY, method: Array.isArray(body) ? 'batch' : null, startedAt }
  const params = isPlainObject(body.params) ? body.params : {}
  const meta = isPlainObject(params._meta) ? params._meta : {}
  const method = text(body.method)
  // 2026-07-28 carries clientInfo in every request's _meta; a 2025 client sends it once, in initialize.
  const info = isPlainObject(meta[CLIENT_INFO_META_KEY]) ? meta[CLIENT_INFO_META_KEY] : params.clientInfo
  const id = body.id
  return {
    method,
    tool: method === 'tools/call' ? text(params.name) : null,
    resourceUri: method === 'resources/read' ? text(params.uri) : null,
    protocolVersion:
      request.headers.get(MCP_HEADERS.protocolVersion) ??
      text(meta[PROTOCOL_VERSION_META_KEY]) ??
      (method === 'initialize' ? text(params.protocolVersion) : null),
    requestId: typeof id === 'string' || typeof id === 'number' ? String(id) : null,
    clientName: isPlainObject(info) ? info.name : undefined,
    traceparent: text(meta[TRACEPARENT_META_KEY]),
    tracestate: text(meta[TRACESTATE_META_KEY]),
    startedAt,
    error: null,
  }
}
