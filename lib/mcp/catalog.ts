/**
 * What the MCP server serves, built once per process from the contract: tools derived from
 * AGENT_OPERATIONS (schemas from the same zod schemas as REST, results equal to the REST bodies of
 * getAgentCatalog()), the three Markdown resources, and the identity and instructions. Pure data.
 */
import type { CallToolResult, ListResourcesResult, ListToolsResult, ReadResourceResult, Tool } from '@modelcontextprotocol/server'
import { z } from 'zod'
import { PRODUCT_NAME, PUBLIC_RESOURCE_IDS, RESOURCE_MIME_TYPE, type PublicResourceId } from '../contract/constants.ts'
import { AGENT_OPERATIONS, type AgentOperation, type AgentOperationId } from '../contract/operations.ts'
import { buildAgentCatalog, getAgentCatalog, resourceUri, type AgentCatalog } from '../agent/catalog.ts'
import { perSite, type Site } from '../site.ts'
import { buildMcpServerIdentity, type McpServerIdentity } from './identity.ts'

type JsonObject = Record<string, unknown>

export interface McpTool {
  definition: Tool
  operationId: AgentOperationId
  /** The advertised output schema, for the SDK's era-aware result projection. */
  outputSchema: JsonObject
  /** Answers a call: the REST body as structured content, or an `isError` result for bad arguments. */
  call: (args: unknown) => CallToolResult
}

export interface McpCatalog {
  serverInfo: McpServerIdentity
  instructions: string
  toolList: ListToolsResult
  tools: ReadonlyMap<string, McpTool>
  resourceList: ListResourcesResult
  /** `resources/read` results by URI. */
  reads: ReadonlyMap<string, ReadResourceResult>
  resourceUris: readonly string[]
}

/** The tool name of an operation: `<service>.<mcpTool.name>`. */
export function toolName(serviceName: string, operation: AgentOperation): string | null {
  return operation.mcpTool ? `${serviceName}.${operation.mcpTool.name}` : null
}

/** The REST body an operation answers for validated arguments (the path parameter for getPublicResource). */
function restBody(catalog: AgentCatalog, operationId: AgentOperationId, args: JsonObject): unknown {
  switch (operationId) {
    case 'getAgentHealth':
      return catalog.health
    case 'getPublicCapabilities':
      return catalog.capabilities
    case 'listPublicResources':
      return catalog.resourceList
    case 'getPublicResource':
      return catalog.resources[args.resourceId as PublicResourceId]
  }
}

function toJsonSchema(schema: z.ZodType): JsonObject {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'throw' }) as JsonObject
}

const TOOL_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true }
}

/**
 * A string id is quoted back; any other value only by its kind: quoting it could overflow
 * `JSON.stringify` (a deeply nested array), turning a tool error into an internal error.
 */
function describeGivenResourceId(given: unknown): string {
  if (typeof given === 'string') return `Unknown resourceId ${JSON.stringify(given)}.`
  const kind = given === null ? 'null' : Array.isArray(given) ? 'an array' : typeof given === 'object' ? 'an object' : `a ${typeof given}`
  return `The argument resourceId must be a string, not ${kind}.`
}

/** Explains invalid arguments in words an agent can act on, naming the valid resource ids. */
function describeInvalidArguments(name: string, serviceName: string, args: unknown, issues: z.core.$ZodIssue[]): string {
  const validIds = PUBLIC_RESOURCE_IDS.join(', ')
  const listTool = `${serviceName}.list_public_resources`
  if (issues.some((issue) => issue.path[0] === 'resourceId')) {
    const given = typeof args === 'object' && args !== null ? (args as JsonObject).resourceId : undefined
    const what = given === undefined ? 'The argument resourceId is required.' : describeGivenResourceId(given)
    return `${what} Valid ids: ${validIds}. ${listTool} lists them.`
  }
  const unknownKeys = issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys : []))
  if (unknownKeys.length > 0) {
    return `Invalid arguments for ${name}: unexpected ${unknownKeys.map((key) => JSON.stringify(key)).join(', ')}. Its input schema lists every accepted argument.`
  }
  return `Invalid arguments for ${name}: ${issues.map((issue) => issue.message).join('; ')}.`
}

function buildTool(site: Site, catalog: AgentCatalog, operation: AgentOperation, name: string): McpTool {
  const mcpTool = operation.mcpTool as NonNullable<AgentOperation['mcpTool']>
  const outputSchema = toJsonSchema(operation.response)
  const definition: Tool = {
    name,
    title: mcpTool.title,
    description: mcpTool.description,
    inputSchema: toJsonSchema(operation.input) as Tool['inputSchema'],
    outputSchema: outputSchema as Tool['outputSchema'],
    annotations: { ...TOOL_ANNOTATIONS },
  }
  // Results are built once per distinct valid input (a handful) and shared by every call.
  const results = new Map<string, CallToolResult>()
  const call = (args: unknown): CallToolResult => {
    const parsed = operation.input.safeParse(args ?? {})
    if (!parsed.success) return toolError(describeInvalidArguments(name, site.config.serviceName, args, parsed.error.issues))
    const key = JSON.stringify(parsed.data)
    let result = results.get(key)
    if (!result) {
      const body = restBody(catalog, operation.operationId, parsed.data as JsonObject)
      result = { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body as JsonObject }
      results.set(key, result)
    }
    return result
  }
  return { definition, operationId: operation.operationId, outputSchema, call }
}

export function buildMcpCatalog(site: Site, catalog: AgentCatalog = buildAgentCatalog(site)): McpCatalog {
  const { serviceName } = site.config
  const tools = new Map<string, McpTool>()
  for (const operation of AGENT_OPERATIONS) {
    const name = toolName(serviceName, operation)
    if (name) tools.set(name, buildTool(site, catalog, operation, name))
  }

  const encoder = new TextEncoder()
  const reads = new Map<string, ReadResourceResult>()
  const resources = PUBLIC_RESOURCE_IDS.map((id) => {
    const resource = catalog.resources[id]
    const uri = resourceUri(serviceName, id)
    reads.set(uri, { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: resource.content }] })
    return {
      uri,
      name: id,
      title: resource.name,
      description: resource.description,
      mimeType: RESOURCE_MIME_TYPE,
      size: encoder.encode(resource.content).byteLength,
    }
  })

  const firstTool = [...tools.keys()][0] ?? `${serviceName}.get_public_capabilities`
  return {
    serverInfo: buildMcpServerIdentity(site.config),
    instructions: `Read-only public ${PRODUCT_NAME} product, developer and agent-integration metadata: no authentication, no private data, no writes. Start with ${firstTool}; the resources are the same Markdown documents as the REST API.`,
    toolList: { tools: [...tools.values()].map((tool) => tool.definition) },
    tools,
    resourceList: { resources },
    reads,
    resourceUris: [...reads.keys()],
  }
}

/** The catalog of this deployment, built on first use. */
export const getMcpCatalog = perSite((site) => buildMcpCatalog(site, getAgentCatalog()))
