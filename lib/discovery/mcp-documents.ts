/**
 * Static MCP discovery documents: the SEP-2127 server card, the manifest at /.well-known/mcp.json
 * (the card plus the SEP-1649 keys older crawlers read) and RFC 9728 protected-resource metadata;
 * the client configuration at /mcp.json is the developer page's (lib/pages/mcp-clients.ts). Names and versions match what the MCP endpoint says at run time.
 */
import { MCP_PROTOCOL_VERSION, MCP_SUPPORTED_PROTOCOL_VERSIONS, PRODUCT_NAME, SERVICE_DISPLAY_NAME } from '../contract/constants.ts'
import type { Site } from '../site.ts'

const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json'
/** The MCP Registry's server.json format this site's entry follows (modelcontextprotocol/registry). */
const REGISTRY_SERVER_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'
/** At most 100 characters: the server card draft and the registry both cap `description` there. */
export const MCP_SERVER_DESCRIPTION = `Read-only ${PRODUCT_NAME} product, developer and agent-integration metadata. No auth.`

/** What the server card and the registry entry both say about the server, as `server/discover` does. */
function describedServer(site: Site) {
  const { name, version, title } = site.mcpServer
  return { name, version, title, description: MCP_SERVER_DESCRIPTION, websiteUrl: site.urls.home }
}

export function buildServerCard(site: Site) {
  const server = describedServer(site)
  return {
    $schema: SERVER_CARD_SCHEMA,
    ...server,
    remotes: [
      {
        type: 'streamable-http',
        url: site.urls.mcp,
        supportedProtocolVersions: [...MCP_SUPPORTED_PROTOCOL_VERSIONS],
      },
    ],
    _meta: {
      [`${server.name.split('/')[0]}/access`]: { authenticationRequired: false, writesSupported: false },
    },
  }
}

/**
 * The entry `mcp-publisher publish` sends to the official MCP Registry: this deployment's MCP endpoint
 * as a remote Streamable HTTP server, under the same name as the server card and `server/discover`.
 */
export function buildMcpRegistryServer(site: Site) {
  return {
    $schema: REGISTRY_SERVER_SCHEMA,
    ...describedServer(site),
    remotes: [{ type: 'streamable-http', url: site.urls.mcp }],
  }
}

export function buildMcpManifest(site: Site) {
  const card = buildServerCard(site)
  return {
    ...card,
    protocolVersion: MCP_PROTOCOL_VERSION,
    serverInfo: { name: card.name, title: card.title, version: card.version },
    transport: { type: 'streamable-http', endpoint: site.urls.mcp },
    capabilities: { resources: {}, tools: {} },
    documentationUrl: site.urls.developers,
  }
}

export function buildProtectedResourceMetadata(site: Site) {
  return {
    resource: site.config.baseUrl,
    resource_name: SERVICE_DISPLAY_NAME,
    authorization_servers: [],
    scopes_supported: [],
    bearer_methods_supported: [],
    resource_documentation: site.urls.developers,
    resource_policy_uri: site.urls.resource('agent-boundaries'),
  }
}
