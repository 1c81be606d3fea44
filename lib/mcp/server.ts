/**
 * The official MCP SDK serving the catalog through its public API: an `McpServer` per exchange with the
 * catalog's tools and resources registered on it, `createMcpHandler` serving 2026-07-28 traffic, and,
 * for 2025-era traffic, the same server connected to a transport that hands back the SDK's answers
 * as messages, which become one JSON body. Requests reach it only once gate.ts has found nothing the
 * contract answers otherwise, so its answers pass through as the SDK wrote them.
 */
import {
  createMcpHandler,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  McpServer,
  type JSONRPCMessage,
  type ServerOptions,
  type StandardSchemaWithJSON,
  type Transport,
} from '@modelcontextprotocol/server'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv'
import { MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../contract/constants.ts'
import type { McpCatalog } from './catalog.ts'
import { MCP_CACHE_HINTS, type JsonObject, type McpAnswer } from './protocol.ts'

/**
 * A schema as McpServer registers it: the contract's JSON Schema (the one OpenAPI publishes too) and
 * a validation. Tool input is accepted as given: McpServer would answer invalid arguments with its
 * own text, and the contract's tool error names the valid ids, so each tool validates its arguments.
 */
function registered(
  jsonSchema: JsonObject,
  validate: StandardSchemaWithJSON['~standard']['validate'] = (value) => ({ value }),
): StandardSchemaWithJSON {
  return { '~standard': { version: 1, vendor: 'cadence', validate, jsonSchema: { input: () => jsonSchema, output: () => jsonSchema } } }
}

/** The capabilities every answer advertises: read-only lists that never change while the server runs. */
const CAPABILITIES = { resources: {}, tools: {} }

function createMcpServer(catalog: McpCatalog, options: ServerOptions): McpServer {
  const server = new McpServer(catalog.serverInfo, options)
  for (const [name, tool] of catalog.tools) {
    const { title, description, annotations } = tool.definition
    const inputSchema = registered(tool.definition.inputSchema as JsonObject)
    const outputSchema = registered(tool.definition.outputSchema as JsonObject, tool.validateOutput)
    server.registerTool(name, { title, description, annotations, inputSchema, outputSchema }, (args) => tool.call(args))
  }
  for (const { uri, name, ...metadata } of catalog.resourceList.resources) {
    server.registerResource(name, uri, metadata, () => catalog.reads.get(uri) as NonNullable<ReturnType<typeof catalog.reads.get>>)
  }
  // McpServer advertises listChanged on tools and resources; these lists change only with a deployment
  // and no stream ever carries a notification, so the flags are withdrawn (an undefined flag is not sent).
  server.server.registerCapabilities({ tools: { listChanged: undefined }, resources: { listChanged: undefined } } as never)
  // The SDK's server/discover lists only the 2026-07-28 revisions; the contract lists every version served.
  server.server.setRequestHandler('server/discover', () => ({
    supportedVersions: [...MCP_SUPPORTED_PROTOCOL_VERSIONS],
    capabilities: CAPABILITIES,
    instructions: catalog.instructions,
  }))
  return server
}

/**
 * One 2025-era exchange: a fresh server connected to a transport of one exchange, the messages handed
 * to it, and every answer the SDK sends collected as a message (one per request; notifications get
 * none). The SDK's own 2025 transport would need an Accept naming SSE and answers a batch of one
 * request with a bare object; this one serves any Accept, and the batch keeps its array.
 */
async function exchange(server: McpServer, messages: readonly JSONRPCMessage[]): Promise<JSONRPCMessage[]> {
  const answers: JSONRPCMessage[] = []
  const expected = messages.filter(isJSONRPCRequest).length
  let answered = () => {}
  const done = new Promise<void>((resolve) => (answered = resolve))
  const transport: Transport = {
    start: async () => {},
    close: async () => transport.onclose?.(),
    send: async (message) => {
      if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return
      answers.push(message)
      if (answers.length === expected) answered()
    },
  }
  await server.connect(transport)
  try {
    for (const message of messages) transport.onmessage?.(message)
    if (expected > 0) await done
    return answers
  } finally {
    server.close().catch(() => {})
  }
}

export type McpEndpoint = ReturnType<typeof createMcpEndpoint>

export function createMcpEndpoint(catalog: McpCatalog) {
  // One validator for every instance: the SDK would otherwise build an Ajv instance per request.
  const options: ServerOptions = {
    capabilities: CAPABILITIES,
    instructions: catalog.instructions,
    jsonSchemaValidator: new AjvJsonSchemaValidator(),
    supportedProtocolVersions: [...MCP_SUPPORTED_PROTOCOL_VERSIONS],
    cacheHints: Object.fromEntries([
      ['server/discover', MCP_CACHE_HINTS.discover],
      ...['tools/list', 'resources/list', 'resources/templates/list', 'resources/read'].map((method) => [method, MCP_CACHE_HINTS.listsAndReads]),
    ]),
  }
  const factory = () => createMcpServer(catalog, options)
  // subscriptions/listen never reaches it (gate.ts), and the contract never streams.
  const modern = createMcpHandler(factory, { legacy: 'reject', responseMode: 'json', maxSubscriptions: 0 })

  return {
    /** A 2026-07-28 message, as `createMcpHandler` answers it. */
    modern: async (request: Request, body: unknown): Promise<McpAnswer> => {
      const response = await modern.fetch(request, { parsedBody: body })
      const bytes = new Uint8Array(await response.arrayBuffer())
      return { status: response.status, body: bytes.length === 0 ? null : bytes, headers: [] }
    },
    /** 2025-era messages (`batch`: they came as an array, and are answered as one), with answers decided before for some (by index). */
    legacy: async (
      messages: readonly JSONRPCMessage[],
      batch: boolean,
      decided: ReadonlyMap<number, JSONRPCMessage> = new Map(),
    ): Promise<McpAnswer> => {
      const answers = [
        ...decided.values(),
        ...(await exchange(
          factory(),
          messages.filter((_, index) => !decided.has(index)),
        )),
      ]
      if (answers.length === 0) return { status: 202, body: null, headers: [] }
      return { status: 200, body: JSON.stringify(batch ? answers : answers[0]), headers: [] }
    },
  }
}
