/**
 * What each discovery document is, listed once: its media type (what it is served as) and, for the
 * agents reading llms.txt and sitemap.md, its title and what it holds. lib/discovery/documents.ts serves
 * each document with this media type; llms.txt and sitemap.md describe each document with these words.
 */
import { CONTENT_TYPES } from '../http/headers.ts'
import type { DocumentName } from '../routes/document-paths.ts'

export interface DocumentInfo {
  /** The `Content-Type` the document is served with. */
  contentType: string
  title: string
  about: string
}

export const DOCUMENT_INFO = {
  llms: { contentType: CONTENT_TYPES.text, title: 'llms.txt', about: 'the index of this site for AI agents' },
  llmsFull: {
    contentType: CONTENT_TYPES.text,
    title: 'Everything in one file',
    about: 'every page, the developer index and the resources as Markdown',
  },
  sitemapMarkdown: { contentType: CONTENT_TYPES.markdown, title: 'Sitemap', about: 'every page and document of this site' },
  sitemap: { contentType: CONTENT_TYPES.xml, title: 'sitemap.xml', about: 'the pages, with the day each last changed (sitemaps.org 0.9)' },
  robots: { contentType: CONTENT_TYPES.text, title: 'robots.txt', about: 'crawl rules, Content Signals and the sitemap (RFC 9309)' },
  openapi: { contentType: CONTENT_TYPES.openapi, title: 'OpenAPI 3.1.1 description', about: 'REST operations, schemas, errors' },
  apiCatalog: { contentType: CONTENT_TYPES.apiCatalog, title: 'API catalog', about: 'RFC 9727 linkset of the APIs and their descriptions' },
  mcpServerCardAtEndpoint: {
    contentType: CONTENT_TYPES.serverCard,
    title: 'MCP server card',
    about: 'name, version, endpoint, protocol versions (SEP-2127)',
  },
  mcpServerCard: { contentType: CONTENT_TYPES.json, title: 'MCP server card (well-known path)', about: 'the same card at its well-known path' },
  mcpManifest: { contentType: CONTENT_TYPES.json, title: 'MCP manifest', about: 'server card plus capabilities' },
  mcpClientConfiguration: { contentType: CONTENT_TYPES.json, title: 'MCP client configuration', about: 'paste into an MCP client' },
  mcpRegistryServer: { contentType: CONTENT_TYPES.json, title: 'MCP Registry entry', about: 'server.json for the official MCP Registry' },
  protectedResourceMetadata: {
    contentType: CONTENT_TYPES.json,
    title: 'Protected resource metadata',
    about: 'RFC 9728, no authorization servers, no scopes',
  },
  aiCatalog: {
    contentType: CONTENT_TYPES.aiCatalog,
    title: 'AI catalog',
    about: 'the MCP server card, the OpenAPI description and the skill, with urn:air identifiers (ARD 1.0)',
  },
  ard: { contentType: CONTENT_TYPES.aiCatalog, title: 'AI catalog (ARD path)', about: "the same catalog at ARD's well-known path" },
  agentSkills: { contentType: CONTENT_TYPES.json, title: 'Agent Skills index', about: 'the skills of this site with their digests (v0.2.0)' },
  agentSkill: { contentType: CONTENT_TYPES.markdown, title: 'Agent skill', about: 'how an agent should use this API' },
  securityTxt: { contentType: CONTENT_TYPES.text, title: 'security.txt', about: 'where to report a vulnerability (RFC 9116)' },
} as const satisfies Record<DocumentName, DocumentInfo>
