/**
 * The official MCP SDK serving the catalog through its public API: an `McpServer` per exchange with the
 * catalog's tools and resources registered on it, connected to the SDK's transport of one 2026-07-28
 * exchange or, for 2025-era messages, to a transport of one exchange that collects its answers.
 * Requests get here only when gate.ts found nothing the contract answers itself, so the SDK's answers
 * pass through unchanged.
 */
import * as sdk from '@modelcontextprotocol/server'
import type { JSONRPCMessage, JsonSchemaType, jsonSchemaValidator, ServerOptions, Transport } from '@modelcontextprotocol/server'
import { MCP_CACHE_HINTS, MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../contract/constants.ts'
import type { McpCatalog } from './catalog.ts'
import type { McpDispatch } from './gate.ts'
import type { McpAnswer } from './protocol.ts'

/**
 * Values are taken as given, input and output alike. Input: McpServer would answer invalid arguments
 * in its own words, and the contract's tool error names the valid ids, so each tool validates its own
 * arguments. Output: every result is a REST body built once from the same schemas, and the tests check
 * each against the tool's outputSchema; validating it again would compile Ajv validators in every new
 * instance, the largest single cost of its first tools/call.
 */
const AS_GIVEN: jsonSchemaValidator = { getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }) }
/** Read-only lists that never change while the server runs. */
const CAPABILITIES = { resources: {}, tools: {} }
const CACHED = ['tools/list', 'resources/list', 'resources/templates/list', 'resources/read'].map((method) => [method, MCP_CACHE_HINTS.listsAndReads])

/** Serves a dispatch of gate.ts; `error` is left to the caller. */
export function createMcpEndpoint(catalog: McpCatalog): (dispatch: McpDispatch) => Promise<McpAnswer> {
  const options: ServerOptions = {
    capabilities: CAPABILITIES,
    instructions: catalog.instructions,
    jsonSchemaValidator: AS_GIVEN,
    supportedProtocolVersions: [...MCP_SUPPORTED_PROTOCOL_VERSIONS],
    cacheHints: Object.fromEntries([['server/discover', MCP_CACHE_HINTS.discover], ...CACHED]),
  }
  // Each tool as McpServer registers it, with the contract's JSON Schemas (the ones OpenAPI publishes).
  const tools = [...catalog.tools].map(([name, { definition, call }]) => {
    const { title, description, annotations, inputSchema, outputSchema } = definition
    const json = (schema: unknown) => schema as JsonSchemaType
    const schemas = { inputSchema: sdk.fromJsonSchema(json(inputSchema), AS_GIVEN), outputSchema: sdk.fromJsonSchema(json(outputSchema), AS_GIVEN) }
    return { name, config: { title, description, annotations, ...schemas }, call }
  })
  // The SDK's server/discover lists only the 2026-07-28 revisions; the contract lists every version served.
  const discovered = { supportedVersions: [...MCP_SUPPORTED_PROTOCOL_VERSIONS], capabilities: CAPABILITIES, instructions: catalog.instructions }

  const createMcpServer = () => {
    const server = new sdk.McpServer(catalog.serverInfo, options)
    for (const { name, config, call } of tools) server.registerTool(name, config, (args) => call(args))
    for (const { uri, name, ...metadata } of catalog.resourceList.resources)
      server.registerResource(name, uri, metadata, () => catalog.reads.get(uri) as sdk.ReadResourceResult)
    // McpServer advertises listChanged on both; these lists change only with a deployment and no stream
    // ever carries a notification, so the flags are withdrawn (a flag set to undefined is not sent).
    server.server.registerCapabilities({ tools: { listChanged: undefined }, resources: { listChanged: undefined } })
    server.server.setRequestHandler('server/discover', () => discovered)
    return server
  }

  return async (dispatch) => {
    const server = createMcpServer()
    if (dispatch.leg === 'legacy') {
      const { messages, batch, decided } = dispatch
      const answers = [
        ...decided.values(),
        ...(await exchange(
          server,
          messages.filter((_, index) => !decided.has(index)),
        )),
      ]
      const body = answers.length === 0 ? null : Buffer.from(JSON.stringify(batch ? answers : answers[0]))
      return { status: body ? 200 : 202, body, headers: [], error: null }
    }
    // The SDK's building blocks of one 2026-07-28 exchange, as `createMcpHandler` composes them: that
    // entry installs its own server/discover, which lists only the 2026-07-28 revisions. Never a stream.
    const transport = new sdk.PerRequestHTTPServerTransport({ classification: dispatch.classification, responseMode: 'json' })
    await server.connect(transport)
    const response = await transport.handleMessage(dispatch.message).finally(() => server.close().catch(() => {}))
    const bytes = new Uint8Array(await response.arrayBuffer())
    return { status: response.status, body: bytes.length === 0 ? null : bytes, headers: [], error: null }
  }
}

/**
 * 2025-era messages handed to the server over a transport of one exchange, and its answers collected
 * as messages (one per request). The SDK's own 2025 transport insists on an Accept naming SSE and
 * answers a batch of one request with a bare object.
 */
async function exchange(server: sdk.McpServer, messages: readonly JSONRPCMessage[]): Promise<JSONRPCMessage[]> {
  const answers: JSONRPCMessage[] = []
  const expected = messages.filter(sdk.isJSONRPCRequest).length
  let answered = () => {}
  const done = new Promise<void>((resolve) => (answered = resolve))
  const transport: Transport = {
    start: async () => {},
    close: async () => transport.onclose?.(),
    send: async (message) => {
      if (sdk.isJSONRPCResultResponse(message) || sdk.isJSONRPCErrorResponse(message)) answers.push(message)
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
