/**
 * What the MCP server serves, built once per process from the contract: tools derived from
 * AGENT_OPERATIONS (schemas from the same zod schemas as REST, results equal to the REST bodies of
 * getAgentCatalog()), the three Markdown resources, and the identity and instructions. Pure data.
 */
import type { CallToolResult, ListResourcesResult, ReadResourceResult, Tool } from '@modelcontextprotocol/server'
import { z } from 'zod'
import { buildAgentCatalog, getAgentCatalog, operationAnswers, resourceUri, type AgentCatalog, type OperationAnswer } from '../agent/catalog.ts'
import { PRODUCT_NAME, PUBLIC_RESOURCE_IDS, RESOURCE_ID_PARAMETER, RESOURCE_MIME_TYPE } from '../contract/constants.ts'
import { OPERATION_SCHEMAS } from '../contract/operation-schemas.ts'
import { mcpToolName, TOOL_OPERATIONS, type AgentOperation } from '../contract/operations.ts'
import { JSON_SCHEMA_OPTIONS } from '../contract/schemas.ts'
import { perSite, type Site } from '../site.ts'
import { isPlainObject, type JsonObject } from '../contract/mcp-errors.ts'

export type McpCatalog = ReturnType<typeof buildMcpCatalog>

const toJsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, JSON_SCHEMA_OPTIONS) as JsonObject
/** A tool as tools/list shows it: every tool of the contract has an output schema. */
type ToolDefinition = Tool & Required<Pick<Tool, 'outputSchema'>>
const TOOL_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

/**
 * A string id is quoted back; any other value only by its kind: quoting it could overflow
 * `JSON.stringify` (a deeply nested array), turning a tool error into an internal error.
 */
function describeGivenResourceId(given: unknown): string {
  if (typeof given === 'string') return `Unknown ${RESOURCE_ID_PARAMETER} ${JSON.stringify(given)}.`
  const kind = given === null ? 'null' : Array.isArray(given) ? 'an array' : typeof given === 'object' ? 'an object' : `a ${typeof given}`
  return `The argument ${RESOURCE_ID_PARAMETER} must be a string, not ${kind}.`
}

/** Explains invalid arguments in words an agent can act on, naming the valid resource ids. */
function describeInvalidArguments(name: string, serviceName: string, args: unknown, issues: z.core.$ZodIssue[]): string {
  if (issues.some((issue) => issue.path[0] === RESOURCE_ID_PARAMETER)) {
    const given = isPlainObject(args) ? args[RESOURCE_ID_PARAMETER] : undefined
    const what = given === undefined ? `The argument ${RESOURCE_ID_PARAMETER} is required.` : describeGivenResourceId(given)
    return `${what} Valid ids: ${PUBLIC_RESOURCE_IDS.join(', ')}. ${mcpToolName(serviceName, 'listPublicResources')} lists them.`
  }
  const unknownKeys = issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys.map((key) => JSON.stringify(key)) : []))
  if (unknownKeys.length > 0)
    return `Invalid arguments for ${name}: unexpected ${unknownKeys.join(', ')}. Its input schema lists every accepted argument.`
  return `Invalid arguments for ${name}: ${issues.map((issue) => issue.message).join('; ')}.`
}

/**
 * `definition()`: the tool as tools/list shows it; `call`: the REST body as structured content (one
 * result per valid argument set, built once), or an `isError` result for bad arguments.
 */
function buildTool(site: Site, answers: readonly OperationAnswer[], operation: AgentOperation, name: string) {
  const { title, description } = operation.mcpTool as NonNullable<AgentOperation['mcpTool']>
  const { input, response } = OPERATION_SCHEMAS[operation.operationId]
  const annotations = { ...TOOL_ANNOTATIONS }
  // Its JSON Schemas are converted when first asked for: a new instance's first tools/call reads only
  // the called tool's (lib/mcp/server.ts), tools/list all of them.
  let definition: ToolDefinition | undefined
  const define = (): ToolDefinition =>
    (definition ??= {
      name,
      title,
      description,
      inputSchema: toJsonSchema(input) as Tool['inputSchema'],
      outputSchema: toJsonSchema(response),
      annotations,
    })
  const result = (body: unknown): CallToolResult => ({
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body as JsonObject,
  })
  const results = new Map(answers.map(({ args, body }) => [JSON.stringify(args), result(body)]))
  const call = (args: unknown): CallToolResult => {
    const parsed = input.safeParse(args ?? {})
    if (parsed.success) return results.get(JSON.stringify(parsed.data)) as CallToolResult
    return { content: [{ type: 'text', text: describeInvalidArguments(name, site.config.serviceName, args, parsed.error.issues) }], isError: true }
  }
  return { title, description, annotations, definition: define, call }
}

/** Tools by name, resources and their `resources/read` results by URI. */
export function buildMcpCatalog(site: Site, catalog: AgentCatalog = buildAgentCatalog(site)) {
  const { serviceName } = site.config
  const answers = operationAnswers(catalog)
  const tools = new Map<string, ReturnType<typeof buildTool>>()
  for (const operation of TOOL_OPERATIONS) {
    const name = mcpToolName(serviceName, operation.operationId)
    tools.set(name, buildTool(site, answers[operation.operationId], operation, name))
  }
  const reads = new Map<string, ReadResourceResult>()
  const resources = PUBLIC_RESOURCE_IDS.map((id) => {
    const { content, name, description } = catalog.resources[id]
    const uri = resourceUri(serviceName, id)
    reads.set(uri, { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: content }] })
    return { uri, name: id, title: name, description, mimeType: RESOURCE_MIME_TYPE, size: Buffer.byteLength(content, 'utf8') }
  })
  const firstTool = mcpToolName(serviceName, 'getPublicCapabilities')
  return {
    serverInfo: site.mcpServer,
    instructions: `Read-only public ${PRODUCT_NAME} product, developer and agent-integration metadata: no authentication, no private data, no writes. Start with ${firstTool}; the resources are the same Markdown documents as the REST API.`,
    tools,
    resourceList: { resources } satisfies ListResourcesResult,
    reads,
    resourceUris: [...reads.keys()],
  }
}

/** The catalog of this deployment, built on first use. */
export const getMcpCatalog = perSite((site) => buildMcpCatalog(site, getAgentCatalog()))
