/**
 * The four REST operations, listed once. The REST router, the OpenAPI document and the MCP tools
 * read this table; `mcpTool` names the tool (`<service>.<mcpTool>`) that returns the same body.
 */
import type { z } from 'zod'
import {
  AgentCapabilitiesSchema,
  AgentHealthSchema,
  AgentResourceListSchema,
  AgentResourceSchema,
  NoArgumentsSchema,
  ReadPublicResourceInputSchema,
} from './schemas.ts'

export interface AgentOperation {
  operationId: 'getAgentHealth' | 'getPublicCapabilities' | 'listPublicResources' | 'getPublicResource'
  /** Path below the API base path; `{resourceId}` marks the one path parameter. */
  path: string
  summary: string
  description: string
  response: z.ZodType
  responseDescription: string
  /** Arguments: the path parameter for REST, the tool input for MCP. */
  input: z.ZodObject
  mcpTool: { name: string; title: string; description: string } | null
}

export const AGENT_OPERATIONS = [
  {
    operationId: 'getAgentHealth',
    path: '/health',
    summary: 'Check the public agent API',
    description:
      'Liveness and posture of the public surface: read-only, unauthenticated, no private data, plus where the OpenAPI description and the MCP endpoint are.',
    response: AgentHealthSchema,
    responseDescription: 'The service is up.',
    input: NoArgumentsSchema,
    mcpTool: null,
  },
  {
    operationId: 'getPublicCapabilities',
    path: '/capabilities',
    summary: 'Read the public capability catalog',
    description:
      'Canonical discovery endpoints, public resources, exposure boundaries, versioning policy, authorization model, rate limits and onboarding facts, in one object.',
    response: AgentCapabilitiesSchema,
    responseDescription: 'The public capability catalog.',
    input: NoArgumentsSchema,
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
    response: AgentResourceListSchema,
    responseDescription: 'The public resource catalog.',
    input: NoArgumentsSchema,
    mcpTool: {
      name: 'list_public_resources',
      title: 'List public resources',
      description:
        'Lists the stable public resources (product-overview, developer-resources, agent-boundaries) with their ids and URIs. Same object as GET /api/agent/v1/resources. Takes no arguments.',
    },
  },
  {
    operationId: 'getPublicResource',
    path: '/resources/{resourceId}',
    summary: 'Read one public resource',
    description: 'One public resource, descriptor plus Markdown content, by its stable id.',
    response: AgentResourceSchema,
    responseDescription: 'The resource with its Markdown content.',
    input: ReadPublicResourceInputSchema,
    mcpTool: {
      name: 'read_public_resource',
      title: 'Read a public resource',
      description:
        'Reads one public resource by stable id (product-overview, developer-resources or agent-boundaries) and returns its descriptor and Markdown content. Same object as GET /api/agent/v1/resources/{resourceId}.',
    },
  },
] as const satisfies readonly AgentOperation[]

export type AgentOperationId = AgentOperation['operationId']
