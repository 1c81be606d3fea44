/** Pure builders of lib/discovery and lib/mcp/identity, on sites built from a given environment. */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { OPERATION_SCHEMAS } from '../../lib/contract/operation-schemas.ts'
import { AGENT_OPERATIONS } from '../../lib/contract/operations.ts'
import { contractRegistry } from '../../lib/contract/schemas.ts'
import { loadContent } from '../../lib/content/parse.ts'
import { buildServerCard } from '../../lib/discovery/mcp-documents.ts'
import { buildComponentSchemas, buildOpenApiDocument } from '../../lib/discovery/openapi.ts'
import { buildRobotsTxt, buildSitemapXml, escapeXml } from '../../lib/discovery/text-documents.ts'
import { parseConfig } from '../../lib/env.ts'
import { buildMcpServerIdentity, buildSite } from '../../lib/site-model.ts'
import { projectRoot } from '../../harness/paths.ts'

const content = loadContent(projectRoot)
const siteFor = (env: Record<string, string>) => buildSite(parseConfig(env), content)

describe('OpenAPI builder', () => {
  const document = buildOpenApiDocument(siteFor({ BASE_URL: 'https://agents.example.com' })) as {
    paths: Record<string, { get: { operationId: string; responses: { '200': { content: { 'application/json': { schema: { $ref: string } } } } } } }>
    components: { schemas: Record<string, unknown> }
  }

  it('has one GET per operation of the table, pointing at that operation’s registered schema', () => {
    for (const operation of AGENT_OPERATIONS) {
      const item = document.paths[`/api/agent/v1${operation.path}`]
      expect(item?.get.operationId).toBe(operation.operationId)
      expect(item?.get.responses['200'].content['application/json'].schema.$ref).toBe(
        `#/components/schemas/${contractRegistry.get(OPERATION_SCHEMAS[operation.operationId].response)?.id}`,
      )
    }
  })

  it('puts every registered zod schema in components, converted without loss of strictness', () => {
    const schemas = buildComponentSchemas()
    expect(Object.keys(schemas).sort()).toEqual(Object.keys(document.components.schemas).sort())
    expect(schemas.AgentHealth).toMatchObject({ additionalProperties: false, required: expect.arrayContaining(['service', 'status', 'mcp']) })
    expect(schemas.AgentResourceDescriptor).toMatchObject({ additionalProperties: true })
    expect(schemas.ProblemDetails).toMatchObject({ properties: { type: { format: 'uri-reference' } } })
    expect(JSON.stringify(schemas)).not.toContain('"$schema"')
    // The converted schema accepts what zod accepts.
    const fromJson = z.fromJSONSchema(schemas.FutureScope as never)
    expect(fromJson.safeParse({ name: 'goals:read', description: 'd', grantable: false }).success).toBe(true)
    expect(fromJson.safeParse({ name: 'goals:read', description: 'd', grantable: true }).success).toBe(false)
  })
})

describe('robots.txt and sitemap', () => {
  it('a preview disallows everything and names no sitemap', () => {
    expect(buildRobotsTxt(siteFor({ VERCEL_ENV: 'preview', VERCEL_URL: 'p.vercel.app' }))).toBe(
      '# Preview deployment: not for indexing.\nUser-agent: *\nDisallow: /\n',
    )
  })

  it('lists absolute locations under the base URL', () => {
    expect(buildSitemapXml(siteFor({ BASE_URL: 'http://127.0.0.1:3000' }))).toContain('<loc>http://127.0.0.1:3000/pricing</loc>')
  })

  it('escapes the XML special characters a location could hold', () => {
    expect(escapeXml(`https://a.example/?q=1&r='2'<"3">`)).toBe('https://a.example/?q=1&amp;r=&apos;2&apos;&lt;&quot;3&quot;&gt;')
  })
})

describe('MCP server identity', () => {
  it.each([
    ['https://agents.cadence.example', 'example.cadence.agents/cadence'],
    ['https://agents.example.com', 'com.example.agents/cadence'],
    ['https://cadence-git-x-team.vercel.app', 'app.vercel.cadence-git-x-team/cadence'],
    ['http://localhost:3000', 'localhost.cadence/cadence'],
    ['http://intranet:8080', 'localhost.cadence/cadence'],
    ['http://127.0.0.1:3000', 'localhost.cadence/cadence'],
    ['http://10.1.2.3', 'localhost.cadence/cadence'],
    ['http://[::1]:3000', 'localhost.cadence/cadence'],
  ])('%s is named %s: reverse DNS of the host, never a host and path; a valid registry name', (baseUrl, name) => {
    const identity = buildMcpServerIdentity(parseConfig({ BASE_URL: baseUrl }))
    expect(identity).toEqual({ name, title: 'Cadence', version: '2026-08-25' })
    expect(identity.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/)
  })

  it('takes MCP_SERVER_NAME as it is, whatever the base URL', () => {
    const config = parseConfig({ BASE_URL: 'http://127.0.0.1:3000', MCP_SERVER_NAME: 'io.github.cadence/agents' })
    expect(buildMcpServerIdentity(config)).toEqual({ name: 'io.github.cadence/agents', title: 'Cadence', version: '2026-08-25' })
  })

  it('is the name the server card publishes', () => {
    const site = siteFor({ BASE_URL: 'https://agents.cadence.example' })
    expect(buildServerCard(site)).toMatchObject({ name: 'example.cadence.agents/cadence', title: 'Cadence', version: '2026-08-25' })
  })
})
