/**
 * Everything the contract answers itself: decided before the SDK dispatches, the SDK's own classifier
 * (`classifyInboundRequest`: JSON-RPC shape, envelope, mirrored headers that disagree) mapped onto the
 * decisions table, what the contract adds (versions, batch limits, mirrored headers required on
 * 2026-07-28 and checked on 2025-era messages too) and the methods this server does not serve; after
 * the SDK answered, its refusal of a served method (params failing its schema, an unknown tool or
 * resource) in the contract's words. What passes goes to the SDK (server.ts); each rule names the SDK
 * behaviour it stands in for.
 */
import * as sdk from '@modelcontextprotocol/server'
import type { InboundHttpRequest, JSONRPCMessage, StandardSchemaV1Sync } from '@modelcontextprotocol/server'
import { MCP_LEGACY_PROTOCOL_VERSIONS, MCP_MAX_BATCH_MESSAGES, MCP_PROTOCOL_VERSION, MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../contract/constants.ts'
import * as answers from '../contract/mcp-errors.ts'
import { isPlainObject, type JsonObject, type JsonRpcId } from '../contract/mcp-errors.ts'
import type { McpCatalog } from './catalog.ts'
import { errorMessage } from './protocol.ts'

/** The raw values of the headers that mirror the body, as the SDK's classifier takes them. */
export type MirroredHeaders = Pick<InboundHttpRequest, 'protocolVersionHeader' | 'mcpMethodHeader' | 'mcpNameHeader'>
type Problem = answers.McpErrorAnswer | undefined

const { PROTOCOL_VERSION_META_KEY: VERSION_KEY, isJSONRPCRequest: isRequest } = sdk
const ENVELOPE_KEYS: readonly string[] = [VERSION_KEY, sdk.CLIENT_INFO_META_KEY, sdk.CLIENT_CAPABILITIES_META_KEY, sdk.LOG_LEVEL_META_KEY]
/** Methods whose `Mcp-Name` header mirrors a body field (2026-07-28 transport). */
const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  ...{ 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' },
  ...{ 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' },
}
const isMessage = (value: unknown) => isRequest(value) || sdk.isJSONRPCNotification(value)
const isOneOf = (values: readonly string[], value: unknown) => (values as readonly unknown[]).includes(value)
/** A message's `_meta` when it is an object. */
const envelopeOf = (body: unknown) =>
  isPlainObject(body) && isPlainObject(body.params) && isPlainObject(body.params._meta) ? body.params._meta : undefined

/**
 * The message without 2026-07-28 envelope keys, which would make the SDK classify it as a modern
 * request: `initialize`, and a message whose `_meta` names a 2025 version (the SDK reads any version
 * in `_meta` as a 2026-07-28 claim and refuses a 2025 one as unsupported, -32022).
 */
function withoutEnvelope(message: JsonObject): JsonObject {
  const meta = envelopeOf(message)
  if (!meta) return message
  const _meta = Object.fromEntries(Object.entries(meta).filter(([key]) => !ENVELOPE_KEYS.includes(key)))
  return { ...message, params: { ...(message.params as JsonObject), _meta } }
}

const methodMismatch = (id: JsonRpcId | null, header: string, method: unknown) =>
  answers.headerMismatch(id, `the Mcp-Method header names ${JSON.stringify(header)} but the body method is ${JSON.stringify(method)}`)

/**
 * The contract's answer to a well-formed body (a handshake aside) before the SDK classifies it, or
 * undefined; a malformed one gets the SDK's -32600.
 * - An MCP-Protocol-Version this server does not serve is -32022 on any message (the SDK would first
 *   weigh it against `_meta`, -32020, or pass a batch on to its 2025 serving).
 * - Under the 2026-07-28 header a `_meta` that is not an object is a malformed envelope, -32602 (the
 *   SDK fails the whole message as not JSON-RPC, -32600).
 * - Batches (2025-03-26 clients only): at most 20 messages (the SDK takes 100), none under the
 *   2026-07-28 header, no posted response, no id twice, no initialize, and an Mcp-Method equal to
 *   every method. Element by element, in that order.
 */
function contractProblem(body: unknown, headers: MirroredHeaders): Problem {
  const version = headers.protocolVersionHeader
  const { _meta: meta, ...params } = isPlainObject(body) && isPlainObject(body.params) ? body.params : {}
  if (Array.isArray(body) ? body.length === 0 : !isMessage(meta === undefined ? body : { ...(body as JsonObject), params })) return undefined
  if (Array.isArray(body) && body.length > MCP_MAX_BATCH_MESSAGES)
    return answers.invalidRequest(null, `A JSON-RPC batch may hold at most ${MCP_MAX_BATCH_MESSAGES} messages.`)
  if (version !== undefined && !isOneOf(MCP_SUPPORTED_PROTOCOL_VERSIONS, version))
    return answers.unsupportedProtocolVersion(answers.readableId(body), version)
  if (!Array.isArray(body))
    return version === MCP_PROTOCOL_VERSION && meta !== undefined && !isPlainObject(meta)
      ? answers.envelopeInvalid(answers.readableId(body), 'params._meta must be an object.')
      : undefined
  if (version === MCP_PROTOCOL_VERSION)
    return answers.invalidRequest(null, 'JSON-RPC batches are not part of protocol 2026-07-28: send each request as its own POST.')
  const ids = body.map(answers.readableId)
  for (const [index, element] of body.entries()) {
    const message = isPlainObject(element) ? element : {}
    const at = `Batch element ${index}:`
    if (!('method' in message) && ('result' in message || 'error' in message))
      return answers.invalidRequest(null, `${at} a JSON-RPC response cannot be posted: the server sends no requests to answer.`)
    if (!isMessage(element)) return undefined
    if (ids[index] !== null && ids.indexOf(ids[index] as JsonRpcId) !== index)
      return answers.invalidRequest(null, `${at} the id ${JSON.stringify(ids[index])} is used twice in the batch.`)
    if (message.method === 'initialize') return answers.invalidRequest(null, `${at} initialize cannot be part of a batch.`)
    if (envelopeOf(message)?.[VERSION_KEY] !== undefined) return undefined
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
 * A mirrored header missing from a 2026-07-28 request (`required`) or disagreeing with any message
 * (-32020): `Mcp-Method` against its method, `Mcp-Name` against its name or URI. The SDK's classifier
 * leaves the missing ones to `createMcpHandler`, and checks none on 2025-era messages.
 */
function headerProblem(
  body: JsonObject,
  { mcpMethodHeader: method, mcpNameHeader: name, protocolVersionHeader }: MirroredHeaders,
  required = false,
): Problem {
  const id = answers.readableId(body)
  const missing = (header: string) => answers.headerMismatch(id, `the required ${header} header is missing`)
  if (required && protocolVersionHeader === undefined) return missing('MCP-Protocol-Version')
  if (required && method === undefined) return missing('Mcp-Method')
  if (method !== undefined && method !== body.method) return methodMismatch(id, method, body.method)
  const field = typeof body.method === 'string' && Object.hasOwn(NAME_SOURCE, body.method) ? NAME_SOURCE[body.method] : undefined
  const value = field && isPlainObject(body.params) ? body.params[field] : undefined
  if (required && name === undefined && typeof value === 'string') return missing('Mcp-Name')
  if (name === undefined || field === undefined) return undefined
  const decoded = decodeName(name)
  if (decoded === undefined) return answers.headerMismatch(id, 'the Mcp-Name header carries an invalid Base64 sentinel value')
  if (typeof value !== 'string' || decoded === value) return undefined
  return answers.headerMismatch(id, `the Mcp-Name header names ${JSON.stringify(decoded)} but params.${field} is ${JSON.stringify(value)}`)
}

/** The SDK's schema of each request this server serves, per era: every other method is one it does not serve. */
const { ListToolsRequest, CallToolRequest, ListResourcesRequest, ListResourceTemplatesRequest, ReadResourceRequest } = sdk.specTypeSchemas
const SERVED_BOTH: Readonly<Record<string, StandardSchemaV1Sync>> = {
  ...{ 'tools/list': ListToolsRequest, 'tools/call': CallToolRequest, 'resources/list': ListResourcesRequest },
  ...{ 'resources/templates/list': ListResourceTemplatesRequest, 'resources/read': ReadResourceRequest },
}
const SERVED = { ...SERVED_BOTH, 'server/discover': sdk.specTypeSchemas.DiscoverRequest }
const SERVED_LEGACY = { ...SERVED_BOTH, initialize: sdk.specTypeSchemas.InitializeRequest, ping: sdk.specTypeSchemas.PingRequest }
const SCHEMAS: Readonly<Record<string, StandardSchemaV1Sync>> = { ...SERVED, ...SERVED_LEGACY }

/**
 * A request for a method this server does not serve, in the contract's words: the SDK's -32601 has
 * no detail, and subscriptions/listen it would serve as a stream. Notifications are acknowledged
 * whatever they say.
 */
function unservedMethod(message: unknown, served: Readonly<Record<string, StandardSchemaV1Sync>>): Problem {
  if (!isRequest(message) || Object.hasOwn(served, message.method)) return undefined
  return answers.methodNotFound(answers.readableId(message), message.method, served === SERVED ? 404 : 200)
}

/**
 * The SDK's refusal of a request for a served method, in the contract's words: the SDK checks the
 * params against its schema of the method and looks up the tool or resource as it dispatches, and
 * answers in its own words (-32602 with the raw issues, or a bare message). The same checks, made only
 * once the SDK has refused, name what is wrong: invalid params naming each issue, the unknown tool
 * with the tools, the unknown resource with `agent_resource_not_found` and the URIs. Undefined when
 * none applies (the SDK's answer stands).
 */
export function refusalInContractWords(message: sdk.JSONRPCRequest, catalog: McpCatalog): Problem {
  const id = answers.readableId(message)
  const issues = Object.hasOwn(SCHEMAS, message.method) ? SCHEMAS[message.method]?.['~standard'].validate(message).issues : undefined
  if (issues) return answers.invalidParams(id, issues)
  const { name, uri } = (message.params ?? {}) as { name: string; uri: string }
  if (message.method === 'tools/call' && !catalog.tools.has(name)) return answers.unknownTool(id, name, [...catalog.tools.keys()])
  if (message.method === 'resources/read' && !catalog.reads.has(uri)) return answers.resourceNotFound(id, uri, catalog.resourceUris)
  return undefined
}

/** Where the SDK serves a request: as 2026-07-28 (classified), or 2025-era messages, some answered here (batch elements, by index). */
export type McpDispatch =
  | { leg: 'modern'; message: sdk.JSONRPCRequest | sdk.JSONRPCNotification; classification: sdk.MessageClassification }
  | { leg: 'legacy'; messages: JSONRPCMessage[]; batch: boolean; decided: Map<number, JSONRPCMessage> }

/** A single 2025-era message: its header problem, a method not served, else the SDK's. */
const legacy = (message: JsonObject, headers: MirroredHeaders): answers.McpErrorAnswer | McpDispatch =>
  headerProblem(message, headers) ??
  unservedMethod(message, SERVED_LEGACY) ?? { leg: 'legacy', messages: [message as JSONRPCMessage], batch: false, decided: new Map() }

/** The contract's answer to a parsed body, or where the SDK serves it. */
export function dispatchMcpRequest(body: unknown, headers: MirroredHeaders): answers.McpErrorAnswer | McpDispatch {
  // A legacy handshake: decisions.md has initialize negotiate whatever version header or `_meta` comes with it.
  if (isPlainObject(body) && body.method === 'initialize' && isRequest(body)) return legacy(withoutEnvelope(body), headers)
  const problem = contractProblem(body, headers)
  if (problem) return problem
  const claimed = envelopeOf(body)?.[VERSION_KEY]
  const claimsLegacy = isOneOf(MCP_LEGACY_PROTOCOL_VERSIONS, claimed) && (headers.protocolVersionHeader ?? claimed) === claimed
  const message = claimsLegacy ? withoutEnvelope(body as JsonObject) : body
  const outcome = sdk.classifyInboundRequest({ httpMethod: 'POST', body: message, ...headers })
  if (outcome.kind === 'reject') return answers.fromLadderRejection(outcome, answers.readableId(message))
  if (outcome.kind === 'modern') {
    const modern: McpDispatch = { leg: 'modern', message: outcome.message, classification: outcome.classification }
    if (outcome.messageKind === 'notification') return modern
    // The SDK would refuse a `_meta` version it does not serve with a -32022 listing 2026-07-28 only.
    const version = envelopeOf(outcome.message)?.[VERSION_KEY]
    if (!isOneOf(MCP_SUPPORTED_PROTOCOL_VERSIONS, version))
      return answers.unsupportedProtocolVersion(answers.readableId(outcome.message), String(version))
    return headerProblem(outcome.message, headers, true) ?? unservedMethod(outcome.message, SERVED) ?? modern
  }
  // The 2025 serving would accept a posted response (202), but this server sends no requests to answer.
  if (outcome.reason === 'response')
    return answers.invalidRequest(answers.readableId(message), 'A JSON-RPC response cannot be posted: the server sends no requests to answer.')
  if (!Array.isArray(message)) return legacy(message as JsonObject, headers)
  const decided = new Map<number, JSONRPCMessage>()
  for (const [index, element] of message.entries()) {
    const refused = unservedMethod(element, SERVED_LEGACY)
    if (refused) decided.set(index, errorMessage(refused))
  }
  return { leg: 'legacy', messages: message as JSONRPCMessage[], batch: true, decided }
}
