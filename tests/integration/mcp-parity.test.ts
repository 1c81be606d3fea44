/**
 * REST and MCP serve the same content: for every operation with an MCP tool, the REST body equals
 * the tool's structuredContent (2026-07-28 and legacy), and both validate against the zod schema of
 * the operation, the OpenAPI document the site publishes, and the tool's advertised outputSchema.
 */
import { Ajv, addFormats, AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PUBLIC_RESOURCE_IDS } from '../../lib/contract/constants.ts'
import { OPERATION_SCHEMAS } from '../../lib/contract/operation-schemas.ts'
import { AGENT_OPERATIONS } from '../../lib/contract/operations.ts'
import { contractRegistry } from '../../lib/contract/schemas.ts'
import { postLegacy, postModern } from '../support/mcp-http.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

let site: RunningSite
let ajv: InstanceType<typeof Ajv>
let outputSchemas: Map<string, object>

const CASES = AGENT_OPERATIONS.flatMap((operation) => {
  if (!operation.mcpTool) return []
  const tool = `service.${operation.mcpTool.name}`
  const ids = operation.path.includes('{resourceId}') ? PUBLIC_RESOURCE_IDS : [null]
  return ids.map((id) => ({
    label: id ? `${operation.operationId}(${id})` : operation.operationId,
    operation,
    tool,
    args: id ? { resourceId: id } : {},
    path: `/api/agent/v1${operation.path.replace('{resourceId}', id ?? '')}`,
  }))
})

beforeAll(async () => {
  site = await startSite({ BASE_URL: 'https://agents.example.com' })
  const openapi = await (await site.fetch('/openapi.json')).json()
  ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema(openapi, 'openapi.json')
  const listed = await postModern(site, 'tools/list')
  outputSchemas = new Map(listed.json.result.tools.map((tool: { name: string; outputSchema: object }) => [tool.name, tool.outputSchema]))
})
afterAll(async () => {
  await site?.stop()
})

describe('REST body = MCP structuredContent', () => {
  it('covers every operation that has a tool', () => {
    expect(CASES.map((entry) => entry.label)).toEqual([
      'getPublicCapabilities',
      'listPublicResources',
      'getPublicResource(product-overview)',
      'getPublicResource(developer-resources)',
      'getPublicResource(agent-boundaries)',
    ])
  })

  it.each(CASES.map((entry) => [entry.label, entry] as const))('%s', async (_label, entry) => {
    const restResponse = await site.fetch(entry.path)
    expect(restResponse.status).toBe(200)
    const restBody = await restResponse.json()

    const modern = await postModern(site, 'tools/call', { name: entry.tool, arguments: entry.args })
    const legacy = await postLegacy(site, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: entry.tool, arguments: entry.args } })
    for (const result of [modern.json.result, legacy.json.result]) {
      expect(result.isError).toBeUndefined()
      expect(result.structuredContent).toEqual(restBody)
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(restBody) }])
    }

    // zod: the single source of truth of the shapes.
    expect(OPERATION_SCHEMAS[entry.operation.operationId].response.parse(restBody)).toEqual(restBody)
    expect(OPERATION_SCHEMAS[entry.operation.operationId].response.parse(modern.json.result.structuredContent)).toEqual(restBody)

    // The OpenAPI document the site publishes, through its own component schema.
    const id = contractRegistry.get(OPERATION_SCHEMAS[entry.operation.operationId].response)?.id
    const validateOpenApi = ajv.getSchema(`openapi.json#/components/schemas/${id}`)
    expect(validateOpenApi, `no OpenAPI component ${id}`).toBeDefined()
    expect(validateOpenApi?.(restBody), JSON.stringify(validateOpenApi?.errors)).toBe(true)
    expect(validateOpenApi?.(modern.json.result.structuredContent)).toBe(true)

    // The outputSchema MCP clients validate structuredContent with.
    const validateOutput = new AjvJsonSchemaValidator().getValidator(outputSchemas.get(entry.tool) as object)
    expect(validateOutput(modern.json.result.structuredContent).valid).toBe(true)
  })

  it('the REST health body has no tool, and no MCP tool exists without a REST operation', async () => {
    const listed = await postModern(site, 'tools/list')
    expect(listed.json.result.tools.map((tool: { name: string }) => tool.name)).toEqual([...new Set(CASES.map((entry) => entry.tool))])
  })
})
