/**
 * Every static discovery document by name: media type, caching and body, built once per deployment.
 * `serveDocument` answers GET/HEAD with CORS for any origin, a strong ETag and 304 on If-None-Match.
 * These documents never spend the agent quota and stay readable while `public_agent_access` is off.
 */
import { createHash } from 'node:crypto'
import { fillTemplate } from '../content/load.ts'
import { isProblemCode, PROBLEM_CODES, type ProblemCode } from '../contract/problems.ts'
import { ifNoneMatchMatches } from '../http/conditional.ts'
import { CONTENT_TYPES, CORS_HEADERS, type HeaderList } from '../http/headers.ts'
import { explicitQualityOf, parseAccept } from '../http/negotiate.ts'
import { prepareBody, respond, type PreparedBody } from '../http/respond.ts'
import { perSite, type Site } from '../site.ts'
import {
  buildMcpClientConfiguration,
  buildMcpManifest,
  buildProtectedResourceMetadata,
  buildServerCard,
} from './mcp-documents.ts'
import { buildOpenApiDocument } from './openapi.ts'
import { buildLlmsTxt, buildProblemDocument, buildRobotsTxt, buildSitemapXml } from './text-documents.ts'

const PUBLIC_CACHE = 'public, max-age=3600'
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

interface DocumentDefinition {
  contentType: string
  /** Media type served instead when the request's Accept names it (the server card's own type). */
  alternateContentType?: string
  build: (site: Site) => string
}

export const DOCUMENTS = {
  openapi: { contentType: CONTENT_TYPES.openapi, build: (site) => json(buildOpenApiDocument(site)) },
  llms: { contentType: CONTENT_TYPES.text, build: buildLlmsTxt },
  sitemap: { contentType: CONTENT_TYPES.xml, build: buildSitemapXml },
  robots: { contentType: CONTENT_TYPES.text, build: buildRobotsTxt },
  developers: {
    contentType: CONTENT_TYPES.markdown,
    build: (site) => fillTemplate(site.content.developers.body, site.templateValues),
  },
  mcpServerCard: {
    contentType: CONTENT_TYPES.json,
    alternateContentType: CONTENT_TYPES.serverCard,
    build: (site) => json(buildServerCard(site)),
  },
  mcpManifest: { contentType: CONTENT_TYPES.json, build: (site) => json(buildMcpManifest(site)) },
  mcpClientConfiguration: { contentType: CONTENT_TYPES.json, build: (site) => json(buildMcpClientConfiguration(site)) },
  protectedResourceMetadata: { contentType: CONTENT_TYPES.json, build: (site) => json(buildProtectedResourceMetadata(site)) },
} as const satisfies Record<string, DocumentDefinition>

export type DocumentName = keyof typeof DOCUMENTS

interface PreparedDocument {
  body: PreparedBody
  etag: string
  definition: DocumentDefinition
}

function prepareDocument(definition: DocumentDefinition, text: string): PreparedDocument {
  const body = prepareBody(text)
  const etag = `"${createHash('sha256').update(body.bytes).digest('base64url').slice(0, 27)}"`
  return { body, etag, definition }
}

const getPreparedDocuments = perSite((site) => {
  const documents = Object.fromEntries(
    Object.entries(DOCUMENTS).map(([name, definition]) => [name, prepareDocument(definition, definition.build(site))]),
  ) as Record<DocumentName, PreparedDocument>
  const problems = Object.fromEntries(
    PROBLEM_CODES.map((code) => [code, prepareDocument({ contentType: CONTENT_TYPES.markdown, build: () => '' }, buildProblemDocument(site, code))]),
  ) as Record<ProblemCode, PreparedDocument>
  return { documents, problems }
})

/** The body of a document as served (for tests and the benchmark). */
export function getDocumentText(name: DocumentName): string {
  return getPreparedDocuments().documents[name].body.text
}

export function serveDocument(request: Request, name: DocumentName): Response {
  const prepared = getPreparedDocuments()
  return serveRequest(request, prepared.documents[name])
}

/** `/problems/<code>`: the Markdown explanation each problem `type` URI points at. */
export function serveProblemDocument(request: Request, code: string): Response | null {
  const prepared = getPreparedDocuments()
  return isProblemCode(code) ? serveRequest(request, prepared.problems[code]) : null
}

function serveRequest(request: Request, document: PreparedDocument): Response {
  const { definition } = document
  const contentType =
    definition.alternateContentType && (explicitQualityOf(parseAccept(request.headers.get('accept')), definition.alternateContentType) ?? 0) > 0
      ? definition.alternateContentType
      : definition.contentType
  const headers: HeaderList = [
    ['Cache-Control', PUBLIC_CACHE],
    ['ETag', document.etag],
    ...(definition.alternateContentType ? ([['Vary', 'Accept']] as const) : []),
    ...CORS_HEADERS,
  ]
  if (ifNoneMatchMatches(request.headers.get('if-none-match'), document.etag)) {
    return respond(request, 304, null, null, headers)
  }
  return respond(request, 200, document.body, contentType, headers)
}
