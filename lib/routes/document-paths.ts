/**
 * Where each discovery document is served, listed once: its route under app/, its absolute URL
 * (lib/routes/site-urls.ts), the site's links to it and the tests read these paths.
 */
import { MCP_PATH } from '../contract/constants.ts'

/** The one Agent Skill this site publishes (its name is the `name` in its content file's frontmatter). */
export const SKILL_NAME = 'cadence-public-api'

export const DOCUMENT_PATHS = {
  openapi: '/openapi.json',
  llms: '/llms.txt',
  llmsFull: '/llms-full.txt',
  sitemap: '/sitemap.xml',
  /** The Markdown sitemap agents read: every page and document. */
  sitemapMarkdown: '/sitemap.md',
  robots: '/robots.txt',
  mcpServerCard: '/.well-known/mcp/server-card.json',
  mcpServerCardAtEndpoint: `${MCP_PATH}/server-card`,
  mcpManifest: '/.well-known/mcp.json',
  mcpClientConfiguration: '/mcp.json',
  protectedResourceMetadata: '/.well-known/oauth-protected-resource',
  mcpRegistryServer: `${MCP_PATH}/server.json`,
  aiCatalog: '/.well-known/ai-catalog.json',
  /** ARD's own well-known name for the same catalog. */
  ard: '/.well-known/ard.json',
  apiCatalog: '/.well-known/api-catalog',
  agentSkills: '/.well-known/agent-skills/index.json',
  agentSkill: `/.well-known/agent-skills/${SKILL_NAME}/SKILL.md`,
  securityTxt: '/.well-known/security.txt',
} as const

export type DocumentName = keyof typeof DOCUMENT_PATHS

/** `/problems/<code>`: the Markdown page each problem `type` URI resolves to. */
export const PROBLEMS_PATH = '/problems'
