/**
 * The four REST operations, listed once. The REST router, the OpenAPI document, the MCP tools and
 * every document that names an operation, a path or a tool read this table; `mcpTool` names the tool
 * (`<service>.<mcpTool.name>`) that returns the same body. Each operation's zod schemas are in
 * lib/contract/operation-schemas.ts.
 */
import { API_BASE_PATH, RESOURCE_ID_PARAMETER } from './constants.ts'

export interface AgentOperation {
  operationId: 'getAgentHealth' | 'getPublicCapabilities' | 'listPublicResources' | 'getPublicResource'
  /** Path below the API base path; `{name}` marks a path parameter (a key of `input`). */
  path: string
  summary: string
  description: string
  responseDescription: string
  mcpTool: { name: string; title: string; description: string } | null
}

export const AGENT_OPERATIONS = [
  {
    operationId: 'getAgentHealth',
    path: '/health',
    summary: 'Check the public agent API',
    description:
      'Liveness and posture of the public surface: read-only, unauthenticated, no private data, plus where the OpenAPI description and the MCP endpoint are.',
    responseDescription: 'The service is up.',
    mcpTool: null,
  },
  {
    operationId: 'getPublicCapabilities',
    path: '/capabilities',
    summary: 'Read the public capability catalog',
    description:
      'Canonical discovery endpoints, public resources, exposure boundaries, versioning policy, authorization model, rate limits and onboarding facts, in one object.',
    responseDescription: 'The public capability catalog.',
    mcpTool: {
      name: 'get_public_capabilities',
      title: 'Get public capabilities',
      description:
        'Returns the public capability catalog: discovery endpoints, public resources, boundaries, versioning, authorization, rate limits and onboarding. Same object as GET /api/agent/v1/capabilities. Takes no arguments.',
    },
  },
  {
    operationId: 'listPublicResources',
    path: '/resources',
    summary: 'List the stable public resources',
    description: 'The catalog of public Markdown resources with their stable ids; read one with getPublicResource.',
    responseDescription: 'The public resource catalog.',
    mcpTool: {
      name: 'list_public_resources',
      title: 'List public resources',
      description:
        'Lists the stable public resources (product-overview, developer-resources, agent-boundaries) with their ids and URIs. Same object as GET /api/agent/v1/resources. Takes no arguments.',
    },
  },
  {
    operationId: 'getPublicResource',
    path: `/resources/{${RESOURCE_ID_PARAMETER}}`,
    summary: 'Read one public resource',
    description: 'One public resource, descriptor plus Markdown content, by its stable id.',
    responseDescription: 'The resource with its Markdown content.',
    mcpTool: {
      name: 'read_public_resource',
      title: 'Read a public resource',
      description:
        'Reads one public resource by stable id (product-overview, developer-resources or agent-boundaries) and returns its descriptor and Markdown content. Same object as GET /api/agent/v1/resources/{resourceId}.',
    },
  },
] as const satisfies readonly AgentOperation[]

export type AgentOperationId = AgentOperation['operationId']

type OperationEntry = (typeof AGENT_OPERATIONS)[number]
type ToolOperation = Extract<OperationEntry, { mcpTool: object }>
/** The operations an MCP tool also answers. */
export type ToolOperationId = ToolOperation['operationId']

/**
 * Each operation by its id: a name written in code (`AGENT_OPERATION.listPublicResources`) is checked
 * by the compiler, and this map fails to compile when the table and the id union disagree.
 */
export const AGENT_OPERATION = Object.fromEntries(AGENT_OPERATIONS.map((operation) => [operation.operationId, operation])) as {
  [Id in AgentOperationId]: Extract<OperationEntry, { operationId: Id }>
}

/** The operations with an MCP tool, in table order. */
export const TOOL_OPERATIONS: readonly ToolOperation[] = AGENT_OPERATIONS.filter(
  (operation): operation is ToolOperation => operation.mcpTool !== null,
)

/** `<service>.<tool>`: the MCP tool name of an operation, in a deployment whose SERVICE_NAME is `serviceName`. */
export function mcpToolName(serviceName: string, operationId: ToolOperationId): string {
  return `${serviceName}.${AGENT_OPERATION[operationId].mcpTool.name}`
}

/** Every tool name of the deployment, in table order. */
export function mcpToolNames(serviceName: string): string[] {
  return TOOL_OPERATIONS.map((operation) => mcpToolName(serviceName, operation.operationId))
}

/** `{name}` in an operation path (OpenAPI's path template syntax). */
const PATH_PARAMETER = /\{(\w+)\}/g

/** The names of an operation path's parameters, in order. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(PATH_PARAMETER)].map((match) => match[1] as string)
}

/** The absolute path of an operation (`/api/agent/v1/…`), each `{name}` replaced by `args[name]` (kept as written when absent). */
export function operationPath(operationId: AgentOperationId, args: Readonly<Record<string, string>> = {}): string {
  return API_BASE_PATH + AGENT_OPERATION[operationId].path.replace(PATH_PARAMETER, (template, name: string) => args[name] ?? template)
}

/** Every operation's absolute path template, in table order (`/api/agent/v1/resources/{resourceId}`). */
export const OPERATION_PATH_TEMPLATES: readonly string[] = AGENT_OPERATIONS.map((operation) => operationPath(operation.operationId))
