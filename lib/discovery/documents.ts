/**
 * Every discovery document's media type and body (paths: ./document-paths.ts). Each has a one-line
 * static route under app/ (Next prerenders it at build time) that answers with `documentResponse`:
 * CORS for any origin, a weak ETag and the documents' cache policy. Documents never spend the agent
 * quota and stay readable while `public_agent_access` is off.
 */
import type { ProblemCode } from '../contract/problems.ts'
import { CACHE_CONTROL, CONTENT_TYPES, CORS_HEADERS, type HeaderList } from '../http/headers.ts'
import { RESOURCE_SECURITY_HEADERS } from '../http/security-headers.ts'
import { staticResponse } from '../http/static-response.ts'
import { getSite, type Site } from '../site.ts'
import type { DocumentName } from './document-paths.ts'
import {
  buildMcpClientConfiguration,
  buildMcpManifest,
  buildMcpRegistryServer,
  buildProtectedResourceMetadata,
  buildServerCard,
} from './mcp-documents.ts'
import { buildAgentSkill, buildAgentSkillsIndex, buildAiCatalog, buildApiCatalog, buildLlmsFullTxt } from './agent-documents.ts'
import { buildOpenApiDocument } from './openapi.ts'
import { buildLlmsTxt, buildProblemDocument, buildRobotsTxt, buildSecurityTxt, buildSitemapXml } from './text-documents.ts'

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

interface DocumentDefinition {
  contentType: string
  build: (site: Site) => string
}

export const DOCUMENTS = {
  openapi: { contentType: CONTENT_TYPES.openapi, build: (site) => json(buildOpenApiDocument(site)) },
  llms: { contentType: CONTENT_TYPES.text, build: buildLlmsTxt },
  llmsFull: { contentType: CONTENT_TYPES.text, build: buildLlmsFullTxt },
  sitemap: { contentType: CONTENT_TYPES.xml, build: buildSitemapXml },
  robots: { contentType: CONTENT_TYPES.text, build: buildRobotsTxt },
  mcpServerCard: { contentType: CONTENT_TYPES.json, build: (site) => json(buildServerCard(site)) },
  mcpServerCardAtEndpoint: {
    contentType: CONTENT_TYPES.serverCard,
    build: (site) => json(buildServerCard(site)),
  },
  mcpManifest: { contentType: CONTENT_TYPES.json, build: (site) => json(buildMcpManifest(site)) },
  mcpClientConfiguration: { contentType: CONTENT_TYPES.json, build: (site) => json(buildMcpClientConfiguration(site)) },
  protectedResourceMetadata: {
    contentType: CONTENT_TYPES.json,
    build: (site) => json(buildProtectedResourceMetadata(site)),
  },
  mcpRegistryServer: { contentType: CONTENT_TYPES.json, build: (site) => json(buildMcpRegistryServer(site)) },
  aiCatalog: { contentType: CONTENT_TYPES.aiCatalog, build: (site) => json(buildAiCatalog(site)) },
  ard: { contentType: CONTENT_TYPES.aiCatalog, build: (site) => json(buildAiCatalog(site)) },
  apiCatalog: { contentType: CONTENT_TYPES.apiCatalog, build: (site) => json(buildApiCatalog(site)) },
  agentSkills: { contentType: CONTENT_TYPES.json, build: (site) => json(buildAgentSkillsIndex(site)) },
  agentSkill: { contentType: CONTENT_TYPES.markdown, build: buildAgentSkill },
  securityTxt: { contentType: CONTENT_TYPES.text, build: (site) => buildSecurityTxt(site, new Date()) },
} as const satisfies Record<DocumentName, DocumentDefinition>

export type { DocumentName }

const DOCUMENT_HEADERS: HeaderList = [['Cache-Control', CACHE_CONTROL.document], ...CORS_HEADERS, ...RESOURCE_SECURITY_HEADERS]

/** The text of a document as served. */
export function buildDocument(name: DocumentName, site: Site = getSite()): string {
  return DOCUMENTS[name].build(site)
}

export function documentResponse(name: DocumentName): Response {
  return staticResponse(200, buildDocument(name), DOCUMENTS[name].contentType, DOCUMENT_HEADERS)
}

export function problemDocumentResponse(code: ProblemCode): Response {
  return staticResponse(200, buildProblemDocument(getSite(), code), CONTENT_TYPES.markdown, DOCUMENT_HEADERS)
}
