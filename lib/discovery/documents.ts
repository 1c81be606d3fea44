/**
 * Every discovery document's media type and body (paths: lib/routes/document-paths.ts). Each has a one-line
 * static route under app/ (Next prerenders it at build time) that answers with `documentResponse`:
 * CORS for any origin, a weak ETag and the documents' cache policy. Documents never spend the agent
 * quota and stay readable while `public_agent_access` is off.
 */
import type { ProblemCode } from '../contract/problems.ts'
import { CACHE_CONTROL, CONTENT_TYPES, CORS_HEADERS } from '../http/headers.ts'
import type { HeaderList } from '../http/header-list.ts'
import { RESOURCE_SECURITY_HEADERS } from '../http/security-headers.ts'
import { staticResponse } from '../http/static-response.ts'
import { getSite, type Site } from '../site.ts'
import type { DocumentName } from '../routes/document-paths.ts'
import { buildMcpClientConfiguration } from '../pages/mcp-clients.ts'
import { buildMcpManifest, buildMcpRegistryServer, buildProtectedResourceMetadata, buildServerCard } from './mcp-documents.ts'
import { buildAgentSkill, buildAgentSkillsIndex, buildAiCatalog, buildApiCatalog, buildLlmsFullTxt } from './agent-documents.ts'
import { buildOpenApiDocument } from './openapi.ts'
import { DOCUMENT_INFO } from './document-index.ts'
import { buildLlmsTxt, buildProblemDocument, buildRobotsTxt, buildSecurityTxt, buildSitemapMarkdown, buildSitemapXml } from './text-documents.ts'

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

interface DocumentDefinition {
  contentType: string
  build: (site: Site) => string
}

const builders: Record<DocumentName, (site: Site) => string> = {
  openapi: (site) => json(buildOpenApiDocument(site)),
  llms: buildLlmsTxt,
  llmsFull: buildLlmsFullTxt,
  sitemap: buildSitemapXml,
  sitemapMarkdown: buildSitemapMarkdown,
  robots: buildRobotsTxt,
  mcpServerCard: (site) => json(buildServerCard(site)),
  mcpServerCardAtEndpoint: (site) => json(buildServerCard(site)),
  mcpManifest: (site) => json(buildMcpManifest(site)),
  mcpClientConfiguration: (site) => json(buildMcpClientConfiguration(site)),
  protectedResourceMetadata: (site) => json(buildProtectedResourceMetadata(site)),
  mcpRegistryServer: (site) => json(buildMcpRegistryServer(site)),
  aiCatalog: (site) => json(buildAiCatalog(site)),
  ard: (site) => json(buildAiCatalog(site)),
  apiCatalog: (site) => json(buildApiCatalog(site)),
  agentSkills: (site) => json(buildAgentSkillsIndex(site)),
  agentSkill: buildAgentSkill,
  securityTxt: (site) => buildSecurityTxt(site, new Date()),
}

/** Each document's media type (lib/discovery/document-index.ts) and body. */
export const DOCUMENTS = Object.fromEntries(
  (Object.keys(builders) as DocumentName[]).map((name) => [name, { contentType: DOCUMENT_INFO[name].contentType, build: builders[name] }]),
) as Record<DocumentName, DocumentDefinition>

export type { DocumentName }

const DOCUMENT_HEADERS: HeaderList = [['Cache-Control', CACHE_CONTROL.document], ...CORS_HEADERS, ...RESOURCE_SECURITY_HEADERS]

/** The text of a document as served. */
function buildDocument(name: DocumentName, site: Site = getSite()): string {
  return DOCUMENTS[name].build(site)
}

export function documentResponse(name: DocumentName): Response {
  return staticResponse(200, buildDocument(name), DOCUMENTS[name].contentType, DOCUMENT_HEADERS)
}

export function problemDocumentResponse(code: ProblemCode): Response {
  return staticResponse(200, buildProblemDocument(getSite(), code), CONTENT_TYPES.markdown, DOCUMENT_HEADERS)
}
