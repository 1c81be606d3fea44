/**
 * Every absolute URL the site publishes, built from the one base URL (lib/env.ts), so that a preview
 * deployment's documents point at the preview itself.
 */
import { API_BASE_PATH, MCP_PATH } from './contract/constants.ts'

export function buildSiteUrls(baseUrl: string) {
  const at = (path: string) => `${baseUrl}${path}`
  return {
    home: at('/'),
    pricing: at('/pricing'),
    contact: at('/contact'),
    login: at('/login'),
    signup: at('/login#create-account'),
    developers: at('/developers.md'),
    llms: at('/llms.txt'),
    sitemap: at('/sitemap.xml'),
    robots: at('/robots.txt'),
    openapi: at('/openapi.json'),
    mcp: at(MCP_PATH),
    mcpManifest: at('/.well-known/mcp.json'),
    mcpServerCard: at('/.well-known/mcp/server-card.json'),
    mcpCompatibility: at('/mcp.json'),
    protectedResourceMetadata: at('/.well-known/oauth-protected-resource'),
    apiBase: at(API_BASE_PATH),
    health: at(`${API_BASE_PATH}/health`),
    capabilities: at(`${API_BASE_PATH}/capabilities`),
    resources: at(`${API_BASE_PATH}/resources`),
    resource: (id: string) => at(`${API_BASE_PATH}/resources/${id}`),
    problemType: (code: string) => at(`/problems/${code}`),
    docsSection: (anchor: string) => at(`/developers.md#${anchor}`),
  }
}

export type SiteUrls = ReturnType<typeof buildSiteUrls>
