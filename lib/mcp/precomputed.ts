/**
 * Precomputed answers: the requests the catalog answers the same way every time (`server/discover`,
 * the lists, each resource read and each valid tool call, at each served protocol version) with the
 * envelope and headers clients send. The SDK answers each one once (`serve`, the public API); later
 * ones get those bytes with their own id, without a per-request SDK server. Anything else goes to
 * the SDK.
 */
import { randomUUID } from 'node:crypto'
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server'
import { MCP_LEGACY_PROTOCOL_VERSIONS, MCP_PROTOCOL_VERSION } from '../contract/constants.ts'
import type { McpCatalog } from './catalog.ts'
import { isJsonRpcId, isPlainObject, MCP_HEADERS, MCP_NAME_SOURCE, type JsonObject, type McpAnswer } from './protocol.ts'

/** `_meta` of a 2026-07-28 request asking for nothing but the protocol: the version, no capabilities, at most a plain clientInfo. */
function isBareEnvelope(meta: unknown): boolean {
  if (!isPlainObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== MCP_PROTOCOL_VERSION) return false
  const [capabilities, info] = [meta[CLIENT_CAPABILITIES_META_KEY], meta[CLIENT_INFO_META_KEY]]
  const plainInfo = isPlainObject(info) && Object.keys(info).length === 2 && typeof info.name === 'string' && typeof info.version === 'string'
  const keys = info === undefined ? 2 : plainInfo ? 3 : 0
  return isPlainObject(capabilities) && Object.keys(capabilities).length === 0 && Object.keys(meta).length === keys
}

const key = (version: string | null, method: string, params: JsonObject) =>
  `${version}\n${method}\n${JSON.stringify(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1)))}`
/** A param value as all precomputed ones are: a string or an object of strings (nothing deeper is walked). */
const isFlat = (value: unknown) =>
  typeof value === 'string' || (isPlainObject(value) && Object.values(value).every((item) => typeof item === 'string'))

/**
 * The key of a request shaped like the precomputed ones: a JSON-RPC request with flat params and
 * nothing else; at 2026-07-28 a bare envelope and the mirrored headers equal to the body (Mcp-Name
 * plain); at a 2025 version or none, neither `_meta` nor mirrored headers.
 */
function keyOf(request: Request, body: unknown): string | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || !isJsonRpcId(body.id) || typeof body.method !== 'string' || !isPlainObject(body.params))
    return
  const { _meta: meta, ...params } = body.params
  const [version, method] = [request.headers.get(MCP_HEADERS.protocolVersion), body.method]
  const [methodHeader, nameHeader] = [request.headers.get(MCP_HEADERS.method), request.headers.get(MCP_HEADERS.name)]
  const nameField = Object.hasOwn(MCP_NAME_SOURCE, method) ? MCP_NAME_SOURCE[method] : undefined
  const mirrored = methodHeader === method && (nameField === undefined || nameHeader === params[nameField])
  const legacy = meta === undefined && methodHeader === null && nameHeader === null
  const modern = version === MCP_PROTOCOL_VERSION && isBareEnvelope(meta) && mirrored
  if (Object.keys(body).length === 4 && Object.values(params).every(isFlat) && (modern || (version !== MCP_PROTOCOL_VERSION && legacy)))
    return key(version, method, params)
}

export function createPrecomputedAnswers(catalog: McpCatalog, serve: (request: Request, body: unknown) => Promise<McpAnswer>) {
  const served: [string, JsonObject][] = [
    ['tools/list', {}],
    ['resources/list', {}],
    ['resources/templates/list', {}],
  ]
  served.push(...catalog.resourceUris.map((uri): [string, JsonObject] => ['resources/read', { uri }]))
  served.push(...catalog.calls.map((call): [string, JsonObject] => ['tools/call', call]))
  // Every precomputed key, with its answer cut where the request's id goes, filled the first time it is asked for.
  const templates = new Map<string, (Omit<McpAnswer, 'body'> & { parts: Buffer[] }) | undefined>()
  for (const [method, params] of [['server/discover', {}] as [string, JsonObject], ...served])
    templates.set(key(MCP_PROTOCOL_VERSION, method, params), undefined)
  for (const version of [null, ...MCP_LEGACY_PROTOCOL_VERSIONS])
    for (const [method, params] of served) templates.set(key(version, method, params), undefined)
  const marker = `precomputed-${randomUUID()}`

  return async (request: Request, body: unknown): Promise<McpAnswer | undefined> => {
    const found = keyOf(request, body)
    if (found === undefined || !templates.has(found)) return undefined
    let template = templates.get(found)
    if (!template) {
      const { status, body: bytes, headers } = await serve(request, { ...(body as JsonObject), id: marker })
      const parts = Buffer.from(bytes ?? '')
        .toString()
        .split(JSON.stringify(marker))
      template = { status, headers, parts: parts.map((part) => Buffer.from(part)) }
      templates.set(found, template)
    }
    const id = Buffer.from(JSON.stringify((body as JsonObject).id))
    return { ...template, body: Buffer.concat(template.parts.flatMap((part, index) => (index === 0 ? [part] : [id, part]))) }
  }
}
