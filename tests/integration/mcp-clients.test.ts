/**
 * Real MCP clients against the built site: the SDK v2 client on 2026-07-28 (pinned and
 * auto-negotiated) and the v1 client over Streamable HTTP on 2025-11-25. Each lists and reads every
 * resource and calls every tool; what they get must equal the REST bodies.
 */
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PUBLIC_RESOURCE_IDS } from '../../lib/contract/constants.ts'
import { AGENT_OPERATIONS } from '../../lib/contract/operations.ts'
import { SUPPORTED_VERSIONS } from '../support/mcp-http.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

let site: RunningSite
let url: URL
/** REST bodies by path below /api/agent/v1. */
const rest = new Map<string, unknown>()

const TOOL_NAMES = ['service.get_public_capabilities', 'service.list_public_resources', 'service.read_public_resource']
const RESOURCE_URIS = PUBLIC_RESOURCE_IDS.map((id) => `service://public/${id}`)
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

/** The arguments of every tool call a client makes, with the REST path whose body it must return. */
interface ToolCall {
  name: string
  args: Record<string, string>
  path: string
}
const TOOL_CALLS: ToolCall[] = AGENT_OPERATIONS.flatMap((operation): ToolCall[] => {
  if (!operation.mcpTool) return []
  const name = `service.${operation.mcpTool.name}`
  if (!operation.path.includes('{resourceId}')) return [{ name, args: {}, path: operation.path }]
  return PUBLIC_RESOURCE_IDS.map((id) => ({ name, args: { resourceId: id }, path: operation.path.replace('{resourceId}', id) }))
})

beforeAll(async () => {
  site = await startSite({})
  url = new URL(`${site.origin}/mcp`)
  for (const { path } of TOOL_CALLS) {
    if (rest.has(path)) continue
    const response = await site.fetch(`/api/agent/v1${path}`)
    expect(response.status).toBe(200)
    rest.set(path, await response.json())
  }
  expect(rest.size).toBe(5)
})
afterAll(async () => {
  await site?.stop()
})

describe('SDK v2 client, 2026-07-28', () => {
  let client: Client

  beforeAll(async () => {
    client = new Client({ name: 'v2-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await client.connect(new StreamableHTTPClientTransport(url))
  })
  afterAll(async () => {
    await client?.close()
  })

  it('runs the modern, stateless era', () => {
    expect(client.getProtocolEra()).toBe('modern')
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
  })

  it('discovers the versions, capabilities and identity', async () => {
    const discovered = await client.discover()
    expect(discovered.supportedVersions).toEqual(SUPPORTED_VERSIONS)
    expect(discovered.capabilities).toEqual({ resources: {}, tools: {} })
    expect(discovered._meta?.['io.modelcontextprotocol/serverInfo']).toEqual({
      name: 'com.example.agents/cadence',
      title: 'Cadence',
      version: '2026-08-25',
    })
  })

  it('lists the three tools with output schemas and read-only annotations', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES)
    for (const tool of tools) {
      expect(tool.annotations).toEqual(ANNOTATIONS)
      expect(tool.outputSchema?.type).toBe('object')
      expect(tool.title).toBeTruthy()
    }
  })

  it.each(TOOL_CALLS.map((call) => [`${call.name} ${JSON.stringify(call.args)}`, call] as const))(
    'calls %s and gets the REST body',
    async (_label, call) => {
      const result = await client.callTool({ name: call.name, arguments: call.args })
      expect(result.isError).toBeFalsy()
      expect(result.structuredContent).toEqual(rest.get(call.path))
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(rest.get(call.path)) }])
    },
  )

  it('gets a tool error naming the valid ids for an unknown resourceId', async () => {
    const result = await client.callTool({ name: 'service.read_public_resource', arguments: { resourceId: 'nope' } })
    expect(result.isError).toBe(true)
    expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('product-overview, developer-resources, agent-boundaries') }])
  })

  it('lists and reads every resource as the REST Markdown', async () => {
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri)).toEqual(RESOURCE_URIS)
    for (const [index, resource] of resources.entries()) {
      expect(resource.mimeType).toBe('text/markdown')
      const read = await client.readResource({ uri: resource.uri })
      const body = (await (await site.fetch(`/api/agent/v1/resources/${PUBLIC_RESOURCE_IDS[index]}`)).json()) as { content: string }
      expect(read.contents).toEqual([{ uri: resource.uri, mimeType: 'text/markdown', text: body.content }])
    }
  })

  it('gets -32602 with data.uri and data.code for an unknown URI', async () => {
    const error = await client.readResource({ uri: 'service://public/nope' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ProtocolError)
    expect((error as ProtocolError).code).toBe(-32602)
    expect((error as ProtocolError).data).toMatchObject({ uri: 'service://public/nope', code: 'agent_resource_not_found' })
  })
})

describe('SDK v2 client, automatic negotiation', () => {
  it('probes with server/discover and chooses 2026-07-28', async () => {
    const client = new Client({ name: 'v2-auto', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
    await client.connect(new StreamableHTTPClientTransport(url))
    try {
      expect(client.getProtocolEra()).toBe('modern')
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(TOOL_NAMES)
    } finally {
      await client.close()
    }
  })
})

describe('SDK v1 client over Streamable HTTP, 2025-11-25', () => {
  let client: V1Client
  let transport: V1Transport

  beforeAll(async () => {
    client = new V1Client({ name: 'v1-test', version: '1.0.0' })
    transport = new V1Transport(url)
    await client.connect(transport)
  })
  afterAll(async () => {
    await client?.close()
  })

  it('negotiates 2025-11-25 without a session', () => {
    expect(transport.protocolVersion).toBe('2025-11-25')
    expect(transport.sessionId).toBeUndefined()
    expect(client.getServerVersion()).toEqual({ name: 'com.example.agents/cadence', title: 'Cadence', version: '2026-08-25' })
    expect(client.getServerCapabilities()).toEqual({ resources: {}, tools: {} })
  })

  it('pings', async () => {
    expect(await client.ping()).toEqual({})
  })

  it('lists the three tools', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES)
    expect(tools.every((tool) => JSON.stringify(tool.annotations) === JSON.stringify(ANNOTATIONS))).toBe(true)
  })

  it.each(TOOL_CALLS.map((call) => [`${call.name} ${JSON.stringify(call.args)}`, call] as const))(
    'calls %s and gets the REST body',
    async (_label, call) => {
      const result = await client.callTool({ name: call.name, arguments: call.args })
      expect(result.isError).toBeFalsy()
      expect(result.structuredContent).toEqual(rest.get(call.path))
    },
  )

  it('lists and reads every resource', async () => {
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri)).toEqual(RESOURCE_URIS)
    for (const resource of resources) {
      const read = await client.readResource({ uri: resource.uri })
      expect(read.contents[0]).toMatchObject({ uri: resource.uri, mimeType: 'text/markdown' })
      expect((read.contents[0] as { text: string }).text.length).toBeGreaterThan(0)
    }
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([])
  })

  it('gets -32602 with data.uri and data.code for an unknown URI', async () => {
    const error = await client.readResource({ uri: 'service://public/nope' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(McpError)
    expect((error as McpError).code).toBe(-32602)
    expect((error as McpError).data).toMatchObject({ uri: 'service://public/nope', code: 'agent_resource_not_found' })
  })
})
