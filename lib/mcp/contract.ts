/**
 * What the contract asks of a request beyond the SDK's own ladder, checked before the SDK sees it,
 * and the messages reshaped so the SDK answers them as the contract does. Each rule names the SDK
 * behaviour it stands in for.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isJSONRPCNotification,
  isJSONRPCRequest,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server'
import type { InboundHttpRequest } from '@modelcontextprotocol/server'
import { MCP_LEGACY_PROTOCOL_VERSIONS, MCP_PROTOCOL_VERSION, MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../contract/constants.ts'
import { envelopeInvalid, headerMismatch, invalidRequest, unsupportedProtocolVersion, type McpErrorAnswer } from './errors.ts'
import { isPlainObject, MCP_MAX_BATCH_MESSAGES, MCP_NAME_SOURCE, readableId, type JsonObject, type JsonRpcId } from './protocol.ts'

/** The raw values of the headers that mirror the body, as the SDK's classifier takes them. */
export type MirroredHeaders = Pick<InboundHttpRequest, 'protocolVersionHeader' | 'mcpMethodHeader' | 'mcpNameHeader'>

const ENVELOPE_KEYS: readonly string[] = [PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY]

const isMessage = (value: unknown) => isJSONRPCRequest(value) || isJSONRPCNotification(value)
/** A legacy handshake: decisions.md has `initialize` negotiate whatever version header or `_meta` comes with it. */
export function isHandshake(body: unknown): body is JsonObject {
  return isJSONRPCRequest(body) && body.method === 'initialize'
}

/** The message without 2026-07-28 envelope keys, which would make the SDK classify it as a modern request. */
export function withoutEnvelope(message: JsonObject): JsonObject {
  const params = message.params
  if (!isPlainObject(params) || !isPlainObject(params._meta)) return message
  return {
    ...message,
    params: { ...params, _meta: Object.fromEntries(Object.entries(params._meta).filter(([key]) => !ENVELOPE_KEYS.includes(key))) },
  }
}

/**
 * A message whose `_meta` names a 2025 version that no MCP-Protocol-Version contradicts. The SDK
 * reads any version in `_meta` as a 2026-07-28 envelope claim and refuses a 2025 one as unsupported
 * (-32022), although this server serves it: it goes to the SDK as the 2025 message it is.
 */
export function claimsLegacyVersion(body: unknown, header: string | undefined): body is JsonObject {
  const meta = isPlainObject(body) && isPlainObject(body.params) ? body.params._meta : undefined
  const claimed = isPlainObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined
  return (MCP_LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(claimed) && (header === undefined || header === claimed)
}

function methodMismatch(id: JsonRpcId | null, header: string, method: unknown): McpErrorAnswer {
  return headerMismatch(id, `the Mcp-Method header names ${JSON.stringify(header)} but the body method is ${JSON.stringify(method)}`)
}

/**
 * The contract's answer to a well-formed body (a handshake aside) before the SDK classifies it, or
 * undefined; a malformed one gets the SDK's -32600.
 * - An MCP-Protocol-Version this server does not serve is -32022 on any message (the SDK would first
 *   weigh it against `_meta`, -32020, or pass a batch on to its 2025 transport, 400 -32000).
 * - Under the 2026-07-28 header a `_meta` that is not an object is a malformed envelope, -32602 (the
 *   SDK fails the whole message as not JSON-RPC, -32600).
 * - Batches (2025-03-26 clients only): at most 20 messages (the SDK takes 100), none under the
 *   2026-07-28 header (it serves them), no posted response (it drops them), no id twice (its transport
 *   would answer one), no initialize (it serves an invalid one), and an Mcp-Method equal to every
 *   method (it checks none on 2025 traffic). Element by element, in that order.
 */
export function contractProblem(body: unknown, headers: MirroredHeaders): McpErrorAnswer | undefined {
  const version = headers.protocolVersionHeader
  const { _meta: meta, ...params } = isPlainObject(body) && isPlainObject(body.params) ? body.params : {}
  if (Array.isArray(body) ? body.length === 0 : !isMessage(meta === undefined ? body : { ...(body as JsonObject), params })) return undefined
  if (Array.isArray(body) && body.length > MCP_MAX_BATCH_MESSAGES)
    return invalidRequest(null, `A JSON-RPC batch may hold at most ${MCP_MAX_BATCH_MESSAGES} messages.`)
  if (version !== undefined && !(MCP_SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version))
    return unsupportedProtocolVersion(readableId(body), version)
  if (!Array.isArray(body))
    return version === MCP_PROTOCOL_VERSION && meta !== undefined && !isPlainObject(meta)
      ? envelopeInvalid(readableId(body), 'params._meta must be an object.')
      : undefined
  if (version === MCP_PROTOCOL_VERSION)
    return invalidRequest(null, 'JSON-RPC batches are not part of protocol 2026-07-28: send each request as its own POST.')
  const ids = body.map(readableId)
  for (const [index, element] of body.entries()) {
    const message = isPlainObject(element) ? element : {}
    const at = `Batch element ${index}:`
    if (!('method' in message) && ('result' in message || 'error' in message))
      return invalidRequest(null, `${at} a JSON-RPC response cannot be posted: the server sends no requests to answer.`)
    if (!isMessage(element)) return undefined
    if (ids[index] !== null && ids.indexOf(ids[index] as JsonRpcId) !== index)
      return invalidRequest(null, `${at} the id ${JSON.stringify(ids[index])} is used twice in the batch.`)
    if (message.method === 'initialize') return invalidRequest(null, `${at} initialize cannot be part of a batch.`)
    if (isPlainObject(message.params) && isPlainObject(message.params._meta) && PROTOCOL_VERSION_META_KEY in message.params._meta) return undefined
    if (headers.mcpMethodHeader !== undefined && headers.mcpMethodHeader !== message.method)
      return methodMismatch(null, headers.mcpMethodHeader, message.method)
  }
  return undefined
}

const SENTINEL = /^=\?base64\?((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)\?=$/
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** An `Mcp-Name` value as the transport reads it (a `=?base64?…?=` sentinel carries UTF-8), or undefined for an invalid sentinel. */
function decodeName(raw: string): string | undefined {
  if (!(raw.startsWith('=?base64?') && raw.endsWith('?='))) return raw
  const encoded = SENTINEL.exec(raw)?.[1]
  try {
    return encoded && utf8.decode(Buffer.from(encoded, 'base64'))
  } catch {}
}

/**
 * The contract rejects a mirrored header that disagrees with a 2025-era message (-32020) as it does
 * on 2026-07-28 ones, where the SDK checks them: `Mcp-Method` against its method, `Mcp-Name` against
 * its name or URI.
 */
export function legacyHeaderProblem(body: JsonObject, { mcpMethodHeader: method, mcpNameHeader: name }: MirroredHeaders): McpErrorAnswer | undefined {
  if (method !== undefined && method !== body.method) return methodMismatch(readableId(body), method, body.method)
  const field = typeof body.method === 'string' && Object.hasOwn(MCP_NAME_SOURCE, body.method) ? MCP_NAME_SOURCE[body.method] : undefined
  if (name === undefined || field === undefined) return undefined
  const value = isPlainObject(body.params) ? body.params[field] : undefined
  const decoded = decodeName(name)
  if (decoded === undefined) return headerMismatch(readableId(body), 'the Mcp-Name header carries an invalid Base64 sentinel value')
  if (typeof value !== 'string' || decoded === value) return undefined
  return headerMismatch(readableId(body), `the Mcp-Name header names ${JSON.stringify(decoded)} but params.${field} is ${JSON.stringify(value)}`)
}
