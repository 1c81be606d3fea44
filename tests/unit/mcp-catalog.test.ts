import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildAgentCatalog, operationAnswers } from '../../lib/agent/catalog.ts'
import { loadContent } from '../../lib/content/parse.ts'
import { PUBLIC_RESOURCE_IDS } from '../../lib/contract/constants.ts'
import { contractViolations, OPERATION_SCHEMAS } from '../../lib/contract/operation-schemas.ts'
import { AGENT_OPERATIONS } from '../../lib/contract/operations.ts'
import { parseConfig } from '../../lib/env.ts'
import { buildMcpCatalog } from '../../lib/mcp/catalog.ts'
import { buildSite } from '../../lib/site-model.ts'

const content = loadContent()
const site = buildSite(parseConfig({ BASE_URL: 'https://agents.example.com' }), content)
const rest = buildAgentCatalog(site)
const mcp = buildMcpCatalog(site, rest)
const validator = new AjvJsonSchemaValidator()
const toolOperations = AGENT_OPERATIONS.filter((operation) => operation.mcpTool !== null)
/** The contract schema as JSON Schema, with `additionalProperties: true` (not `{}`) wherever extras are allowed. */
const jsonSchema = (schema: z.ZodType) =>
  JSON.parse(
    JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' })).replaceAll(
      '"additionalProperties":{}',
      '"additionalProperties":true',
    ),
  )

describe('the agent catalog, served without parsing at run time', () => {
  it('has every REST and MCP body exactly in the form its contract schema outputs', () => {
    expect(contractViolations(operationAnswers(rest))).toEqual([])
  })

  it('names a body whose keys are out of its schema’s order, and one that breaks its schema', () => {
    const { status, service, ...health } = rest.health
    const answers: ReturnType<typeof operationAnswers> = {
      ...operationAnswers(rest),
      getAgentHealth: [{ args: {}, body: { status, service, ...health } }],
    }
    expect(contractViolations(answers)).toEqual([`getAgentHealth({}): the body is not in its schema's form (keys or their order differ)`])
    answers.getAgentHealth = [{ args: {}, body: { ...rest.health, status: 'down' } }]
    expect(contractViolations(answers)).toEqual(['getAgentHealth({}): status: Invalid input: expected "ok"'])
  })
})

describe('MCP tools derived from AGENT_OPERATIONS', () => {
  it('lists one tool per operation with an mcpTool, in table order', () => {
    expect([...mcp.tools.values()].map((tool) => tool.definition().name)).toEqual([
      'service.get_public_capabilities',
      'service.list_public_resources',
      'service.read_public_resource',
    ])
    expect(toolOperations).toHaveLength(3)
  })

  it.each(toolOperations.map((operation) => [operation.operationId, operation] as const))(
    '%s: title, description, schemas and read-only annotations come from the contract',
    (_id, operation) => {
      const tool = mcp.tools.get(`service.${operation.mcpTool?.name}`)
      expect(tool?.definition()).toEqual({
        name: `service.${operation.mcpTool?.name}`,
        title: operation.mcpTool?.title,
        description: operation.mcpTool?.description,
        inputSchema: jsonSchema(OPERATION_SCHEMAS[operation.operationId].input),
        outputSchema: jsonSchema(OPERATION_SCHEMAS[operation.operationId].response),
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      })
      expect(tool?.definition().inputSchema.type).toBe('object')
    },
  )

  it('returns the REST body as structuredContent and as JSON text, valid against the output schema', () => {
    const cases = [
      ['service.get_public_capabilities', {}, rest.capabilities],
      ['service.list_public_resources', {}, rest.resourceList],
      ...PUBLIC_RESOURCE_IDS.map((id) => ['service.read_public_resource', { resourceId: id }, rest.resources[id]] as const),
    ] as const
    for (const [name, args, body] of cases) {
      const tool = mcp.tools.get(name)
      const result = tool?.call(args)
      expect(result).toEqual({ content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body })
      expect(validator.getValidator(tool?.definition().outputSchema as object)(result?.structuredContent).valid).toBe(true)
    }
  })

  it('treats missing arguments of a no-argument tool as {}', () => {
    expect(mcp.tools.get('service.get_public_capabilities')?.call(undefined).structuredContent).toBe(rest.capabilities)
  })

  it('answers an unknown resourceId with a tool error naming the valid ids', () => {
    const result = mcp.tools.get('service.read_public_resource')?.call({ resourceId: 'pricing' })
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Unknown resourceId "pricing". Valid ids: product-overview, developer-resources, agent-boundaries. service.list_public_resources lists them.',
        },
      ],
    })
  })

  it('answers a missing resourceId and unexpected arguments with tool errors', () => {
    expect(mcp.tools.get('service.read_public_resource')?.call({})).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('The argument resourceId is required. Valid ids: product-overview') }],
    })
    expect(mcp.tools.get('service.list_public_resources')?.call({ page: 2 })).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Invalid arguments for service.list_public_resources: unexpected "page". Its input schema lists every accepted argument.',
        },
      ],
    })
  })
})

describe('MCP resources', () => {
  it('lists the three public resources as text/markdown with their sizes', () => {
    expect(mcp.resourceList.resources).toEqual(
      PUBLIC_RESOURCE_IDS.map((id) => ({
        uri: `service://public/${id}`,
        name: id,
        title: rest.resources[id].name,
        description: rest.resources[id].description,
        mimeType: 'text/markdown',
        size: Buffer.byteLength(rest.resources[id].content, 'utf8'),
      })),
    )
  })

  it('reads the same Markdown as REST', () => {
    for (const id of PUBLIC_RESOURCE_IDS) {
      expect(mcp.reads.get(`service://public/${id}`)).toEqual({
        contents: [{ uri: `service://public/${id}`, mimeType: 'text/markdown', text: rest.resources[id].content }],
      })
    }
  })

  it('uses the configured service name for tool names and URIs', () => {
    const renamed = buildSite(parseConfig({ BASE_URL: 'https://agents.example.com', SERVICE_NAME: 'acme' }), content)
    const catalog = buildMcpCatalog(renamed)
    expect([...catalog.tools.keys()]).toEqual(['acme.get_public_capabilities', 'acme.list_public_resources', 'acme.read_public_resource'])
    expect(catalog.resourceUris).toEqual(PUBLIC_RESOURCE_IDS.map((id) => `acme://public/${id}`))
    expect(catalog.instructions).toContain('acme.get_public_capabilities')
  })

  it('names the server like the server card does', () => {
    expect(mcp.serverInfo).toEqual({ name: 'com.example.agents/cadence', title: 'Cadence', version: '2026-08-25' })
  })
})
