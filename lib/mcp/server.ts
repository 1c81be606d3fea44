/**
 * The official MCP SDK serving the catalog through its public API: an `McpServer` per exchange with the
 * catalog's tools and resources registered on it, connected to the SDK's transport of one 2026-07-28
 * exchange or, for 2025-era messages, to a transport of one exchange that collects its answers.
 * Requests get here only when gate.ts found nothing the contract answers itself before dispatch, so
 * the SDK's answers go out as it wrote them; how each answered its call is read from it, and a refusal
 * of a request is put in the contract's words (gate.ts).
 */
import * as sdk from '@modelcontextprotocol/server'
import type { JSONRPCMessage, jsonSchemaValidator, ServerOptions, StandardSchemaWithJSON, Transport } from '@modelcontextprotocol/server'
import { MCP_CACHE_HINTS, MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../contract/constants.ts'
import type { McpCatalog } from './catalog.ts'
import { refusalInContractWords, type McpDispatch } from './gate.ts'
import { errorAnswer, errorMessage, outcomeOf, type McpAnswer } from './protocol.ts'

/**
 * A tool's schema as McpServer takes one (a Standard Schema with its JSON Schema): the JSON Schema
 * read when the SDK asks for it, values taken as given, input and output alike. Input: McpServer would
 * answer invalid arguments in its own words, and the contract's tool error names the valid ids, so
 * each tool validates its own arguments. Output: every result is a REST body built once from the same
 * schemas, and the tests check each against the tool's outputSchema.
 */
const schemaAsGiven = (jsonSchema: () => Record<string, unknown>): StandardSchemaWithJSON => ({
  '~standard': { version: 1, vendor: 'cadence', validate: (value) => ({ value }), jsonSchema: { input: jsonSchema, output: jsonSchema } },
})
/** The server's own JSON Schema validator (it elicits nothing): without one, every new instance would build the SDK's default, Ajv. */
const AS_GIVEN: jsonSchemaValidator = { getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }) }
/** Read-only lists that never change while the server runs. */
const CAPABILITIES = { resources: {}, tools: {} }
const CACHED = ['tools/list', 'resources/list', 'resources/templates/list', 'resources/read'].map((method) => [method, MCP_CACHE_HINTS.listsAndReads])

const decoder = new TextDecoder()

/** The catalog's server as the SDK builds one: a factory of `McpServer`s, one per exchange. */
export function mcpServerFactory(catalog: McpCatalog): () => sdk.McpServer {
  const options: ServerOptions = {
    capabilities: CAPABILITIES,
    instructions: catalog.instructions,
    jsonSchemaValidator: AS_GIVEN,
    supportedProtocolVersions: [...MCP_SUPPORTED_PROTOCOL_VERSIONS],
    cacheHints: Object.fromEntries([['server/discover', MCP_CACHE_HINTS.discover], ...CACHED]),
  }
  // Each tool as McpServer registers it, with the contract's JSON Schemas (the ones OpenAPI publishes):
  // the SDK reads them to list the tools, and a called tool's output schema to answer its call.
  const tools = [...catalog.tools].map(([name, { title, description, annotations, definition, call }]) => {
    const schemas = { inputSchema: schemaAsGiven(() => definition().inputSchema), outputSchema: schemaAsGiven(() => definition().outputSchema) }
    return { name, config: { title, description, annotations, ...schemas }, call }
  })
  // The SDK's server/discover lists only the 2026-07-28 revisions; the contract lists every version served.
  const discovered = { supportedVersions: [...MCP_SUPPORTED_PROTOCOL_VERSIONS], capabilities: CAPABILITIES, instructions: catalog.instructions }

  return () => {
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
}

/** Serves a dispatch of gate.ts: the SDK's answer, with how it answered the call. */
export function createMcpEndpoint(catalog: McpCatalog): (dispatch: McpDispatch) => Promise<McpAnswer> {
  const createMcpServer = mcpServerFactory(catalog)
  // The SDK's refusal of a request (its error answer) in the contract's words, where gate.ts has them.
  const refusalOf = (answer: JSONRPCMessage, request: JSONRPCMessage | undefined) =>
    'error' in answer && request !== undefined && sdk.isJSONRPCRequest(request) ? refusalInContractWords(request, catalog) : undefined

  return async (dispatch) => {
    const server = createMcpServer()
    if (dispatch.leg === 'legacy') {
      const { messages, batch, decided } = dispatch
      const served = messages.filter((_, index) => !decided.has(index))
      // Each answer names the request it answers (ids are unique within a batch: gate.ts).
      const byId = new Map(served.map((message) => ['id' in message ? message.id : undefined, message]))
      const answered = new Map<unknown, JSONRPCMessage>()
      for (const answer of await exchange(server, served)) {
        const id = 'id' in answer ? answer.id : undefined
        const refusal = refusalOf(answer, byId.get(id))
        answered.set(id, refusal ? errorMessage(refusal) : answer)
      }
      // One answer per request, in the order of the batch.
      const answers = messages.flatMap((message, index) => decided.get(index) ?? ('id' in message ? (answered.get(message.id) ?? []) : []))
      const body = answers.length === 0 ? null : Buffer.from(JSON.stringify(batch ? answers : answers[0]))
      return { status: body ? 200 : 202, body, headers: [], error: !batch && answers[0] ? outcomeOf(answers[0]) : null }
    }
    // The SDK's building blocks of one 2026-07-28 exchange, as `createMcpHandler` composes them: that
    // entry installs its own server/discover, which lists only the 2026-07-28 revisions. Never a stream.
    const transport = new sdk.PerRequestHTTPServerTransport({ classification: dispatch.classification, responseMode: 'json' })
    await server.connect(transport)
    const response = await transport.handleMessage(dispatch.message).finally(() => server.close().catch(() => {}))
    const bytes = new Uint8Array(await response.arrayBuffer())
    if (bytes.length === 0) return { status: response.status, body: null, headers: [], error: null }
    // Read, never rewritten: how the SDK answered the call (a result, a tool error, a refusal) is in its answer.
    const answer = JSON.parse(decoder.decode(bytes)) as JSONRPCMessage
    const refusal = refusalOf(answer, dispatch.message)
    return refusal ? errorAnswer(refusal) : { status: response.status, body: bytes, headers: [], error: outcomeOf(answer) }
  }
}

/**
 * 2025-era messages handed to the server over a transport of one exchange, and its answers collected
 * as messages (one per request). The SDK's own 2025 transport insists on an Accept naming SSE and
 * answers a batch of one request with a bare object.
 */
async function exchange(server: sdk.McpServer, messages: readonly JSONRPCMessage[]): Promise<JSONRPCMessage[]> {
  const answers: JSONRPCMessage[] = []
  // The messages are JSON-RPC as the SDK's classifier found them: each request is answered once.
  const expected = messages.filter((message) => 'method' in message && 'id' in message).length
  let answered = () => {}
  const done = new Promise<void>((resolve) => (answered = resolve))
  const transport: Transport = {
    start: async () => {},
    close: async () => transport.onclose?.(),
    send: async (message) => {
      if ('result' in message || 'error' in message) answers.push(message)
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
