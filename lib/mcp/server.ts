/**
 * The official MCP SDK serving the catalog: it classifies (`classifyInboundRequest`), validates,
 * dispatches and negotiates; `createMcpHandler` serves 2026-07-28 traffic, the SDK's stateless
 * Streamable HTTP transport 2025-era traffic, both as one JSON body. Where the SDK cannot be
 * configured to give the contract's answer, the spot says so; `fromSdkError` maps its errors.
 */
import {
  classifyInboundRequest,
  createMcpHandler,
  JSONRPC_VERSION,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  specTypeSchemas,
} from '@modelcontextprotocol/server'
import {
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
  type ServerOptions,
  type StandardSchemaV1Sync,
} from '@modelcontextprotocol/server'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv'
import { MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../contract/constants.ts'
import { CONTENT_TYPES } from '../http/headers.ts'
import type { McpCatalog } from './catalog.ts'
import { claimsLegacyVersion, contractProblem, isHandshake, legacyHeaderProblem, withoutEnvelope, type MirroredHeaders } from './contract.ts'
import { fromSdkError, invalidParams, type JsonRpcErrorObject, type McpErrorAnswer } from './errors.ts'
import { isPlainObject, MCP_CACHE_HINTS, MCP_HEADERS, readableId, type McpAnswer } from './protocol.ts'

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>

/** The SDK's schema of each request this server has a handler for. */
const REQUEST_SCHEMAS: Readonly<Record<string, StandardSchemaV1Sync>> = {
  ...{ initialize: specTypeSchemas.InitializeRequest, ping: specTypeSchemas.PingRequest, 'server/discover': specTypeSchemas.DiscoverRequest },
  ...{
    'tools/list': specTypeSchemas.ListToolsRequest,
    'tools/call': specTypeSchemas.CallToolRequest,
    'resources/list': specTypeSchemas.ListResourcesRequest,
  },
  ...{ 'resources/templates/list': specTypeSchemas.ListResourceTemplatesRequest, 'resources/read': specTypeSchemas.ReadResourceRequest },
}

/** The SDK's server with the two answers it cannot be configured to give. */
class ContractServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    // The SDK's server/discover lists only the 2026-07-28 revisions; the contract lists every version served.
    const inner: Handler =
      method === 'server/discover'
        ? async (request, ctx) => ({ ...(await handler(request, ctx)), supportedVersions: [...MCP_SUPPORTED_PROTOCOL_VERSIONS] })
        : handler
    const wrapped = super._wrapHandler(method, inner)
    const schema = REQUEST_SCHEMAS[method]
    if (!schema) return wrapped
    // The SDK answers a request whose params fail its schema with -32603 and the raw issue list (tools/call:
    // -32602); the contract answers -32602 naming each issue, so the request meets the same schema here first.
    return (request, ctx) => {
      const { issues } = schema['~standard'].validate(request)
      return issues ? Promise.reject(invalidParams(issues)) : wrapped(request, ctx)
    }
  }
}

function catalogError(detail: string, resolution: string, message: string, data: Record<string, string>): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, { ...data, detail, resolution })
}

const EMPTY_TEMPLATES = { resourceTemplates: [] }

/** One server instance for one exchange. Everything it returns was built once in the catalog. */
function createMcpServer(catalog: McpCatalog, options: ServerOptions): Server {
  const server = new ContractServer(catalog.serverInfo, options)
  server.setRequestHandler('tools/list', () => catalog.toolList)
  server.setRequestHandler('tools/call', ({ params: { name, arguments: args } }) => {
    const tool = catalog.tools.get(name)
    if (tool) return server.projectCallToolResult(tool.call(args), tool.outputSchema)
    const detail = `No tool is named ${JSON.stringify(name)}. Tools: ${[...catalog.tools.keys()].join(', ')}.`
    throw catalogError(detail, 'Call tools/list and retry with a returned tool name.', `Unknown tool: ${name}`, { name })
  })
  server.setRequestHandler('resources/list', () => catalog.resourceList)
  server.setRequestHandler('resources/templates/list', () => EMPTY_TEMPLATES)
  server.setRequestHandler('resources/read', ({ params: { uri } }) => {
    const result = catalog.reads.get(uri)
    if (result) return result
    // In-band, HTTP 200 (decisions.md).
    const detail = `No public resource has the URI ${JSON.stringify(uri)}. Public resource URIs: ${catalog.resourceUris.join(', ')}.`
    throw catalogError(detail, 'Call resources/list and retry with a returned URI.', `Resource not found: ${uri}`, {
      uri,
      code: 'agent_resource_not_found',
    })
  })
  return server
}

export type McpEndpoint = ReturnType<typeof createMcpEndpoint>

/** `answer`: to an admitted POST whose body parsed as JSON; `refuseMethod`: to any other HTTP method (the SDK's 405). */
export function createMcpEndpoint(catalog: McpCatalog) {
  // One validator for every instance: the SDK would otherwise build an Ajv instance per request.
  const options: ServerOptions = {
    capabilities: { resources: {}, tools: {} },
    instructions: catalog.instructions,
    jsonSchemaValidator: new AjvJsonSchemaValidator(),
    supportedProtocolVersions: [...MCP_SUPPORTED_PROTOCOL_VERSIONS],
    cacheHints: Object.fromEntries([
      ['server/discover', MCP_CACHE_HINTS.discover],
      ...['tools/list', 'resources/list', 'resources/templates/list', 'resources/read'].map((method) => [method, MCP_CACHE_HINTS.listsAndReads]),
    ]),
  }
  const factory = () => createMcpServer(catalog, options)
  // maxSubscriptions 0: the contract never streams, and the SDK serves subscriptions/listen as a stream whatever responseMode says.
  const modern = createMcpHandler(factory, { legacy: 'reject', responseMode: 'json', maxSubscriptions: 0 })

  /**
   * The 2025 leg: the SDK's stateless idiom (a fresh server and transport per request, no session id)
   * with `enableJsonResponse`, which the SDK's own `legacyStatelessFallback` does not expose: the
   * contract answers one JSON body. Its transport answers 406 unless Accept names both JSON and SSE
   * although it answers JSON, and the contract serves any Accept: it gets the Accept it insists on,
   * and no MCP-Protocol-Version, which the contract checked already (and an initialize ignores).
   */
  async function legacy(request: Request, body: unknown): Promise<Response> {
    const server = factory()
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    await server.connect(transport)
    try {
      const headers = { 'content-type': CONTENT_TYPES.json, accept: 'application/json, text/event-stream' }
      return await transport.handleRequest(new Request(request.url, { method: 'POST', headers, signal: request.signal }), { parsedBody: body })
    } finally {
      transport.close().catch(() => {})
      server.close().catch(() => {})
    }
  }

  /** The SDK's own classification picks the leg; what the contract adds is checked on the way (contract.ts). */
  function route(request: Request, received: unknown): Promise<Response> | McpErrorAnswer {
    const get = (name: string) => request.headers.get(name) ?? undefined
    const headers: MirroredHeaders = {
      protocolVersionHeader: get(MCP_HEADERS.protocolVersion),
      mcpMethodHeader: get(MCP_HEADERS.method),
      mcpNameHeader: get(MCP_HEADERS.name),
    }
    if (isHandshake(received)) return legacyHeaderProblem(received, headers) ?? legacy(request, withoutEnvelope(received))
    const problem = contractProblem(received, headers)
    if (problem) return problem
    const body = claimsLegacyVersion(received, headers.protocolVersionHeader) ? withoutEnvelope(received) : received
    const outcome = classifyInboundRequest({ httpMethod: 'POST', body, ...headers })
    // A posted response goes to the strict modern handler, which refuses it: the 2025 transport would
    // accept it (202), but this server sends no requests to answer.
    if (outcome.kind !== 'legacy' || outcome.reason === 'response') return modern.fetch(request, { parsedBody: body })
    return (isPlainObject(body) && legacyHeaderProblem(body, headers)) || legacy(request, body)
  }

  return {
    answer: async (request: Request, body: unknown): Promise<McpAnswer<string>> => {
      const routed = route(request, body)
      return routed instanceof Promise ? await fromSdk(request, body, await routed) : errorAnswer(routed)
    },
    refuseMethod: async (request: Request): Promise<McpAnswer<string>> => await fromSdk(request, undefined, await modern.fetch(request)),
  }
}

export function errorAnswer({ status, id, error, headers = [] }: McpErrorAnswer): McpAnswer<string> {
  return { status, body: JSON.stringify({ jsonrpc: JSONRPC_VERSION, id, error }), headers }
}

/** The SDK's answer in the contract's form: successes as the SDK wrote them, errors through `fromSdkError`. */
async function fromSdk(request: Request, body: unknown, response: Response): Promise<McpAnswer<string>> {
  const { status } = response
  const text = await response.text()
  if (text === '') return { status, body: null, headers: [] }
  const payload: unknown = JSON.parse(text)
  const rpcMethod = isPlainObject(body) && typeof body.method === 'string' ? body.method : null
  const error = (message: unknown) =>
    isPlainObject(message) && isPlainObject(message.error) ? (message.error as unknown as JsonRpcErrorObject) : undefined
  if (!Array.isArray(body) || status !== 200) {
    const sdkError = error(payload)
    return sdkError ? errorAnswer(fromSdkError(status, sdkError, request.method, rpcMethod, readableId(body))) : { status, body: text, headers: [] }
  }
  // A batch's answers. The SDK's JSON transport answers a batch holding one request with that response
  // alone, where JSON-RPC answers a batch with an array.
  const messages = (Array.isArray(payload) ? payload : [payload]).map((message: unknown) => {
    const sdkError = error(message)
    return sdkError ? { ...(message as object), error: fromSdkError(status, sdkError, request.method, null, readableId(message)).error } : message
  })
  return { status, body: JSON.stringify(messages), headers: [] }
}
