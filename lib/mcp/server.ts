/**
 * The official MCP SDK serving the catalog: a cheap per-request server factory (handlers return
 * results built once), `createMcpHandler(...).fetch` for 2026-07-28 traffic and the SDK's stateless
 * Streamable HTTP transport in JSON mode for legacy traffic, as the SDK documents for hand-wired
 * compositions (`legacy: 'reject'` plus a legacy leg of one's own). No session id is ever minted.
 */
import {
  createMcpHandler,
  ProtocolError,
  Server,
  WebStandardStreamableHTTPServerTransport,
  type McpHttpHandler,
  type ServerOptions,
} from '@modelcontextprotocol/server'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv'
import { MCP_SUPPORTED_PROTOCOL_VERSIONS } from '../contract/constants.ts'
import type { McpCatalog } from './catalog.ts'
import { JSONRPC_ERROR, MCP_CACHE_HINTS, MCP_MAX_BODY_BYTES } from './protocol.ts'

/** One validator for every instance: the SDK would otherwise build an Ajv instance per request. */
let sharedValidator: AjvJsonSchemaValidator | undefined

function serverOptions(catalog: McpCatalog): ServerOptions {
  sharedValidator ??= new AjvJsonSchemaValidator()
  return {
    capabilities: { resources: {}, tools: {} },
    instructions: catalog.instructions,
    jsonSchemaValidator: sharedValidator,
    supportedProtocolVersions: [...MCP_SUPPORTED_PROTOCOL_VERSIONS],
    cacheHints: {
      'server/discover': MCP_CACHE_HINTS.discover,
      'tools/list': MCP_CACHE_HINTS.listsAndReads,
      'resources/list': MCP_CACHE_HINTS.listsAndReads,
      'resources/templates/list': MCP_CACHE_HINTS.listsAndReads,
      'resources/read': MCP_CACHE_HINTS.listsAndReads,
    },
  }
}

/** The JSON-RPC error of a `resources/read` for a URI that names no public resource (in-band, HTTP 200). */
export function resourceNotFound(uri: string, catalog: McpCatalog): ProtocolError {
  return new ProtocolError(JSONRPC_ERROR.invalidParams, `Resource not found: ${uri}`, {
    uri,
    code: 'agent_resource_not_found',
    detail: `No public resource has the URI ${JSON.stringify(uri)}. Public resource URIs: ${catalog.resourceUris.join(', ')}.`,
    resolution: 'Call resources/list and retry with a returned URI.',
  })
}

function unknownTool(name: string, catalog: McpCatalog): ProtocolError {
  return new ProtocolError(JSONRPC_ERROR.invalidParams, `Unknown tool: ${name}`, {
    name,
    detail: `No tool is named ${JSON.stringify(name)}. Tools: ${[...catalog.tools.keys()].join(', ')}.`,
    resolution: 'Call tools/list and retry with a returned tool name.',
  })
}

const EMPTY_TEMPLATES = { resourceTemplates: [] }

/** One server instance for one exchange. Everything it returns was built once in the catalog. */
export function createMcpServer(catalog: McpCatalog, options: ServerOptions): Server {
  const server = new Server(catalog.serverInfo, options)
  server.setRequestHandler('tools/list', () => catalog.toolList)
  server.setRequestHandler('tools/call', (request) => {
    const tool = catalog.tools.get(request.params.name)
    if (!tool) throw unknownTool(request.params.name, catalog)
    return server.projectCallToolResult(tool.call(request.params.arguments), tool.outputSchema)
  })
  server.setRequestHandler('resources/list', () => catalog.resourceList)
  server.setRequestHandler('resources/templates/list', () => EMPTY_TEMPLATES)
  server.setRequestHandler('resources/read', (request) => {
    const result = catalog.reads.get(request.params.uri)
    if (!result) throw resourceNotFound(request.params.uri, catalog)
    return result
  })
  return server
}

export interface McpServing {
  /** `createMcpHandler` in strict modern mode, JSON answers. */
  modern: McpHttpHandler
  /** Serves one legacy (2025-era) POST whose body is already parsed, answering JSON. */
  legacy: (request: Request, parsedBody: unknown) => Promise<Response>
}

export function createMcpServing(catalog: McpCatalog): McpServing {
  const options = serverOptions(catalog)
  const factory = () => createMcpServer(catalog, options)
  const modern = createMcpHandler(factory, { legacy: 'reject', responseMode: 'json', maxRequestBodySize: MCP_MAX_BODY_BYTES })

  const legacy = async (request: Request, parsedBody: unknown): Promise<Response> => {
    const server = factory()
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MCP_MAX_BODY_BYTES,
    })
    await server.connect(transport)
    try {
      return await transport.handleRequest(request, { parsedBody })
    } finally {
      transport.close().catch(() => {})
      server.close().catch(() => {})
    }
  }
  return { modern, legacy }
}
