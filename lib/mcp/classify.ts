/**
 * The validation ladder of POST /mcp as one pure function: from the parsed body and the mirrored
 * headers to a route (`initialize`, legacy, modern 2026-07-28) or the exact error answer of
 * decisions.md. Whatever it routes to the SDK is a well-formed JSON-RPC message whose headers agree
 * with its body, so the SDK never has to answer a contract error itself.
 */
import { isJSONRPCNotification, isJSONRPCRequest } from '@modelcontextprotocol/server'
import { MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../contract/constants.ts'
import {
  batchTooLarge,
  envelopeInvalid,
  headerMismatch,
  invalidRequest,
  methodNotFound,
  unsupportedProtocolVersion,
  type JsonRpcId,
  type McpErrorAnswer,
} from './errors.ts'
import { decodeMcpNameHeader, isPlainFieldValue } from './header-values.ts'
import { ENVELOPE_META_KEYS, JSONRPC_VERSION, MCP_MAX_BATCH_MESSAGES, MCP_NAME_SOURCE, META_KEYS, MODERN_PROTOCOL_VERSION } from './protocol.ts'

/** The raw values of the headers that mirror the body (absent headers are `undefined`). */
export interface McpMirroredHeaders {
  protocolVersion?: string | undefined
  method?: string | undefined
  name?: string | undefined
}

export type McpRoute =
  /** A legacy handshake: always negotiated, whatever version header or `_meta` came with it. */
  | { kind: 'initialize'; id: JsonRpcId; forward: JsonRpcObject }
  /** A 2025-era message (or a batch of them), forwarded without 2026-07-28 envelope keys. */
  | { kind: 'legacy'; id: JsonRpcId | null; method: string | null; batch: boolean; forward: JsonRpcObject | JsonRpcObject[] }
  /** A validated 2026-07-28 request or notification, forwarded as received. */
  | { kind: 'modern'; id: JsonRpcId | null; method: string; notification: boolean }
  | { kind: 'reject'; answer: McpErrorAnswer }

export type JsonRpcObject = Record<string, unknown>

const SUPPORTED: readonly string[] = MCP_SUPPORTED_PROTOCOL_VERSIONS
const MESSAGE_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params'])
const LOG_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'])

function isPlainObject(value: unknown): value is JsonRpcObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))
}

/** The `id` of a message when it can be read (for echoing in an error), else null. */
export function readableId(message: unknown): JsonRpcId | null {
  return isPlainObject(message) && isJsonRpcId(message.id) ? message.id : null
}

/** Why a value is not a JSON-RPC request or notification object; `undefined` when it is one. */
function shapeProblem(message: unknown): string | undefined {
  if (!isPlainObject(message)) return 'The body is not a JSON-RPC message object.'
  if (message.jsonrpc !== JSONRPC_VERSION) return 'The member "jsonrpc" must be "2.0".'
  if (!('method' in message) && ('result' in message || 'error' in message)) {
    return 'JSON-RPC responses cannot be posted to this endpoint: the server sends no requests to answer.'
  }
  if (typeof message.method !== 'string') return 'The member "method" must be a string.'
  if ('id' in message && !isJsonRpcId(message.id)) return 'The member "id" must be a string or an integer.'
  if ('params' in message && !isPlainObject(message.params)) return 'The member "params" must be an object.'
  for (const key of Object.keys(message)) {
    if (!MESSAGE_MEMBERS.has(key)) return `Unknown member ${JSON.stringify(key)}: a request has only jsonrpc, id, method and params.`
  }
  return undefined
}

/** The SDK's own definition of a request or notification: the last gate before a message is forwarded. */
function passesSdkShape(message: JsonRpcObject): boolean {
  return isJSONRPCRequest(message) || isJSONRPCNotification(message)
}

function metaOf(message: JsonRpcObject): unknown {
  const params = message.params
  return isPlainObject(params) ? params._meta : undefined
}

/** The message without the 2026-07-28 envelope keys in `params._meta` (same object when it has none). */
function withoutEnvelope(message: JsonRpcObject): JsonRpcObject {
  const params = message.params
  if (!isPlainObject(params) || !isPlainObject(params._meta)) return message
  const meta = params._meta
  if (!ENVELOPE_META_KEYS.some((key) => Object.hasOwn(meta, key))) return message
  const nextMeta: JsonRpcObject = {}
  for (const [key, value] of Object.entries(meta)) if (!ENVELOPE_META_KEYS.includes(key)) nextMeta[key] = value
  const nextParams: JsonRpcObject = { ...params }
  if (Object.keys(nextMeta).length > 0) nextParams._meta = nextMeta
  else delete nextParams._meta
  return { ...message, params: nextParams }
}

function reject(answer: McpErrorAnswer): McpRoute {
  return { kind: 'reject', answer }
}

/** Classifies one parsed POST body; `headers` carries the raw mirrored header values. */
export function classifyMcpBody(body: unknown, headers: McpMirroredHeaders): McpRoute {
  if (Array.isArray(body)) return classifyBatch(body, headers)
  const problem = shapeProblem(body)
  if (problem) return reject(invalidRequest(readableId(body), problem))
  return classifyMessage(body as JsonRpcObject, headers)
}

function headerCharacterProblem(headers: McpMirroredHeaders): string | undefined {
  if (headers.protocolVersion !== undefined && !isPlainFieldValue(headers.protocolVersion)) {
    return 'the MCP-Protocol-Version header contains characters outside visible ASCII'
  }
  if (headers.method !== undefined && !isPlainFieldValue(headers.method)) return 'the Mcp-Method header contains characters outside visible ASCII'
  return undefined
}

function classifyMessage(message: JsonRpcObject, headers: McpMirroredHeaders): McpRoute {
  const isRequest = 'id' in message
  const id = isRequest ? (message.id as JsonRpcId) : null
  const method = message.method as string
  const characterProblem = headerCharacterProblem(headers)
  if (characterProblem) return reject(headerMismatch(id, characterProblem))

  if (isRequest && method === 'initialize') {
    // decisions.md: initialize always negotiates, even with a modern header or _meta.
    if (headers.method !== undefined && headers.method !== method) return reject(methodMismatch(id, headers.method, method))
    const forward = withoutEnvelope(message)
    if (!passesSdkShape(forward)) return reject(invalidRequest(id, 'The initialize request does not have the JSON-RPC 2.0 request shape.'))
    return { kind: 'initialize', id: id as JsonRpcId, forward }
  }

  const headerVersion = headers.protocolVersion
  if (headerVersion !== undefined && !SUPPORTED.includes(headerVersion)) return reject(unsupportedProtocolVersion(id, headerVersion))

  const meta = metaOf(message)
  let metaVersion: string | undefined
  if (isPlainObject(meta) && Object.hasOwn(meta, META_KEYS.protocolVersion)) {
    const claimed = meta[META_KEYS.protocolVersion]
    if (typeof claimed !== 'string') return reject(envelopeInvalid(id, `params._meta["${META_KEYS.protocolVersion}"] must be a string.`))
    if (headerVersion === undefined) {
      if (!SUPPORTED.includes(claimed)) return reject(unsupportedProtocolVersion(id, claimed))
      if (claimed === MODERN_PROTOCOL_VERSION) {
        return reject(headerMismatch(id, 'the required MCP-Protocol-Version header is missing'))
      }
    } else if (headerVersion !== claimed) {
      return reject(
        headerMismatch(id, `the MCP-Protocol-Version header names ${headerVersion} but params._meta["${META_KEYS.protocolVersion}"] names ${claimed}`),
      )
    }
    metaVersion = claimed
  }

  if ((headerVersion ?? metaVersion) === MODERN_PROTOCOL_VERSION) return classifyModern(message, id, method, headers)
  return classifyLegacy(message, id, method, headers)
}

function methodMismatch(id: JsonRpcId | null, header: string, method: string): McpErrorAnswer {
  return headerMismatch(id, `the Mcp-Method header names ${JSON.stringify(header)} but the body method is ${JSON.stringify(method)}`)
}

/** The `Mcp-Name` rule: `required` makes a missing header an error when the body carries the value. */
function nameProblem(message: JsonRpcObject, method: string, header: string | undefined, required: boolean): string | undefined {
  if (!Object.hasOwn(MCP_NAME_SOURCE, method)) return undefined
  const field = MCP_NAME_SOURCE[method] as string
  const params = message.params
  const raw = isPlainObject(params) ? params[field] : undefined
  const bodyValue = typeof raw === 'string' ? raw : undefined
  if (header === undefined) {
    return required && bodyValue !== undefined ? `the required Mcp-Name header is missing (params.${field} is ${JSON.stringify(bodyValue)})` : undefined
  }
  const decoded = decodeMcpNameHeader(header)
  if (!decoded.ok) return decoded.reason
  if (bodyValue !== undefined && decoded.value !== bodyValue) {
    return `the Mcp-Name header names ${JSON.stringify(decoded.value)} but params.${field} is ${JSON.stringify(bodyValue)}`
  }
  return undefined
}

function envelopeProblem(meta: unknown): string | undefined {
  if (meta === undefined) {
    return `params._meta is missing: a 2026-07-28 request carries "${META_KEYS.protocolVersion}" and "${META_KEYS.clientCapabilities}" there.`
  }
  if (!isPlainObject(meta)) return 'params._meta must be an object.'
  if (!Object.hasOwn(meta, META_KEYS.protocolVersion)) return `params._meta is missing the required key "${META_KEYS.protocolVersion}".`
  if (!Object.hasOwn(meta, META_KEYS.clientCapabilities)) return `params._meta is missing the required key "${META_KEYS.clientCapabilities}".`
  if (!isPlainObject(meta[META_KEYS.clientCapabilities])) return `params._meta["${META_KEYS.clientCapabilities}"] must be an object.`
  if (Object.hasOwn(meta, META_KEYS.clientInfo)) {
    const info = meta[META_KEYS.clientInfo]
    if (!isPlainObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') {
      return `params._meta["${META_KEYS.clientInfo}"] must be an object with string "name" and "version".`
    }
  }
  if (Object.hasOwn(meta, META_KEYS.logLevel) && !LOG_LEVELS.has(meta[META_KEYS.logLevel] as string)) {
    return `params._meta["${META_KEYS.logLevel}"] must be a logging level such as "info".`
  }
  return undefined
}

function classifyModern(message: JsonRpcObject, id: JsonRpcId | null, method: string, headers: McpMirroredHeaders): McpRoute {
  const notification = id === null
  const params = message.params
  if (!notification) {
    const problem = envelopeProblem(isPlainObject(params) ? params._meta : undefined)
    if (problem) return reject(envelopeInvalid(id, problem))
    if (headers.method === undefined) return reject(headerMismatch(id, 'the required Mcp-Method header is missing'))
  } else if (isPlainObject(params) && '_meta' in params && !isPlainObject(params._meta)) {
    return reject(envelopeInvalid(id, 'params._meta must be an object.'))
  }
  if (headers.method !== undefined && headers.method !== method) return reject(methodMismatch(id, headers.method, method))
  const name = nameProblem(message, method, headers.name, !notification)
  if (name) return reject(headerMismatch(id, name))
  if (!passesSdkShape(message)) return reject(invalidRequest(id, 'The message does not have the JSON-RPC 2.0 request shape MCP defines.'))
  if (!notification && method === 'subscriptions/listen') {
    // The endpoint answers one JSON body per request and never streams; its content only changes on deploy.
    return reject(methodNotFound(id, method, 'This server offers no subscriptions: it never opens a stream, and its lists change only when it is redeployed (see their ttlMs caching hints).'))
  }
  return { kind: 'modern', id, method, notification }
}

function classifyLegacy(message: JsonRpcObject, id: JsonRpcId | null, method: string, headers: McpMirroredHeaders): McpRoute {
  if (headers.method !== undefined && headers.method !== method) return reject(methodMismatch(id, headers.method, method))
  const name = nameProblem(message, method, headers.name, false)
  if (name) return reject(headerMismatch(id, name))
  const forward = withoutEnvelope(message)
  if (!passesSdkShape(forward)) return reject(invalidRequest(id, 'The message does not have the JSON-RPC 2.0 request shape MCP defines.'))
  return { kind: 'legacy', id, method, batch: false, forward }
}

/** Batches: legacy only (2025-03-26 defined them), every element a request or notification, no initialize. */
function classifyBatch(batch: unknown[], headers: McpMirroredHeaders): McpRoute {
  if (batch.length === 0) return reject(invalidRequest(null, 'The batch is empty.'))
  if (batch.length > MCP_MAX_BATCH_MESSAGES) return reject(batchTooLarge())
  const characterProblem = headerCharacterProblem(headers)
  if (characterProblem) return reject(headerMismatch(null, characterProblem))
  const headerVersion = headers.protocolVersion
  if (headerVersion !== undefined && !SUPPORTED.includes(headerVersion)) return reject(unsupportedProtocolVersion(null, headerVersion))
  if (headerVersion === MODERN_PROTOCOL_VERSION) {
    return reject(invalidRequest(null, 'JSON-RPC batches are not part of protocol 2026-07-28: send each request as its own POST.'))
  }
  const forward: JsonRpcObject[] = []
  const ids = new Set<JsonRpcId>()
  for (const [index, element] of batch.entries()) {
    const problem = shapeProblem(element)
    if (problem) return reject(invalidRequest(null, `Batch element ${index}: ${problem}`))
    const message = element as JsonRpcObject
    if ('id' in message) {
      // Answers are matched to requests by id: a repeated id would make one of them unanswerable.
      if (ids.has(message.id as JsonRpcId)) return reject(invalidRequest(null, `Batch element ${index}: the id ${JSON.stringify(message.id)} is used twice in the batch.`))
      ids.add(message.id as JsonRpcId)
    }
    if (message.method === 'initialize') return reject(invalidRequest(null, `Batch element ${index}: initialize cannot be part of a batch.`))
    const meta = metaOf(message)
    if (isPlainObject(meta) && Object.hasOwn(meta, META_KEYS.protocolVersion)) {
      return reject(invalidRequest(null, `Batch element ${index}: a batch cannot carry 2026-07-28 requests (params._meta names a protocol version).`))
    }
    if (headers.method !== undefined && headers.method !== message.method) {
      return reject(methodMismatch(null, headers.method, message.method as string))
    }
    const next = withoutEnvelope(message)
    if (!passesSdkShape(next)) return reject(invalidRequest(null, `Batch element ${index}: the message does not have the JSON-RPC 2.0 request shape MCP defines.`))
    forward.push(next)
  }
  return { kind: 'legacy', id: null, method: null, batch: true, forward }
}
