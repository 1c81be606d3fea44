/**
 * Where each discovery document is served, listed once: its route under app/, its absolute URL
 * (lib/site-urls.ts), the site's links to it and the tests read these paths.
 */
import { MCP_PATH } from '../contract/constants.ts'

export const DOCUMENT_PATHS = {
  openapi: '/openapi.json',
  llms: '/llms.txt',
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
  developers: '/developers.md',
  mcpServerCard: '/.well-known/mcp/server-card.json',
  mcpServerCardAtEndpoint: `${MCP_PATH}/server-card`,
  mcpManifest: '/.well-known/mcp.json',
  mcpClientConfiguration: '/mcp.json',
  protectedResourceMetadata: '/.well-known/oauth-protected-resource',
} as const

export type DocumentName = keyof typeof DOCUMENT_PATHS

/** `/problems/<code>`: the Markdown page each problem `type` URI resolves to. */
export const PROBLEMS_PATH = '/problems'
