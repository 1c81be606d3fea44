/**
 * Every absolute URL the site publishes, built from the one base URL (lib/env.ts), so that a preview
 * deployment's documents point at the preview itself.
 */
import { API_BASE_PATH, MCP_PATH, RESOURCE_ID_PARAMETER } from '../contract/constants.ts'
import { operationPath } from '../contract/operations.ts'
import { DOCUMENT_PATHS, PROBLEMS_PATH, type DocumentName } from './document-paths.ts'
import { SIGNUP_PATH, sitePage, type PageKey } from './site-pages.ts'

export function buildSiteUrls(baseUrl: string) {
  const at = (path: string) => `${baseUrl}${path}`
  const doc = (name: DocumentName) => at(DOCUMENT_PATHS[name])
  const page = (key: PageKey) => at(sitePage(key).path)
  return {
    /** A page's HTML and its Markdown twin (lib/routes/site-pages.ts). */
    page,
    markdown: (key: PageKey) => at(sitePage(key).markdownPath),
    home: page('home'),
    pricing: page('pricing'),
    contact: page('contact'),
    login: page('login'),
    signup: at(SIGNUP_PATH),
    /** The developer index's Markdown (the twin of the /developers page), the URL agents and documents cite. */
    developers: at(sitePage('developers').markdownPath),
    llms: doc('llms'),
    llmsFull: doc('llmsFull'),
    aiCatalog: doc('aiCatalog'),
    apiCatalog: doc('apiCatalog'),
    agentSkills: doc('agentSkills'),
    agentSkill: doc('agentSkill'),
    mcpRegistryServer: doc('mcpRegistryServer'),
    securityTxt: doc('securityTxt'),
    sitemap: doc('sitemap'),
    sitemapMarkdown: doc('sitemapMarkdown'),
    robots: doc('robots'),
    openapi: doc('openapi'),
    mcp: at(MCP_PATH),
    mcpManifest: doc('mcpManifest'),
    mcpServerCard: doc('mcpServerCard'),
    /** The server card at the MCP URL (SEP-2127), served as application/mcp-server-card+json. */
    mcpServerCardAtEndpoint: doc('mcpServerCardAtEndpoint'),
    mcpCompatibility: doc('mcpClientConfiguration'),
    protectedResourceMetadata: doc('protectedResourceMetadata'),
    apiBase: at(API_BASE_PATH),
    health: at(operationPath('getAgentHealth')),
    capabilities: at(operationPath('getPublicCapabilities')),
    resources: at(operationPath('listPublicResources')),
    resource: (id: string) => at(operationPath('getPublicResource', { [RESOURCE_ID_PARAMETER]: id })),
    problemType: (code: string) => at(`${PROBLEMS_PATH}/${code}`),
    docsSection: (anchor: string) => `${at(sitePage('developers').markdownPath)}#${anchor}`,
  }
}

export type SiteUrls = ReturnType<typeof buildSiteUrls>
