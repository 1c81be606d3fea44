/**
 * The paths the self-hosted server (scripts/start.ts) answers itself, without Next's request
 * pipeline: the agent API, MCP, the discovery documents and the homepage. Each maps to the very
 * handler the matching file under app/ exports, so `npm start` and Next (`next start`, Vercel) give
 * identical answers — tests/integration/next-parity.test.ts compares them. Pages go to Next.
 */
import { handleAgentRestRequest } from '../agent/rest.ts'
import { API_BASE_PATH, MCP_PATH } from '../contract/constants.ts'
import { serveDocument, serveProblemDocument, type DocumentName } from '../discovery/documents.ts'
import { isFetchForbiddenMethod } from '../http/node-adapter.ts'
import { handleMcpRequest } from '../mcp/handler.ts'
import { handleHomepageRequest } from '../pages/homepage.ts'

export type WebHandler = (request: Request) => Response | Promise<Response>

/** Path of every discovery document route under app/. */
export const DOCUMENT_PATHS: Record<string, DocumentName> = {
  '/openapi.json': 'openapi',
  '/llms.txt': 'llms',
  '/sitemap.xml': 'sitemap',
  '/robots.txt': 'robots',
  '/developers.md': 'developers',
  '/mcp.json': 'mcpClientConfiguration',
  '/.well-known/mcp.json': 'mcpManifest',
  '/.well-known/mcp/server-card.json': 'mcpServerCard',
  '/.well-known/oauth-protected-resource': 'protectedResourceMetadata',
}

const PROBLEMS_PREFIX = '/problems/'

/** The one answer of app/problems/[code]/route.ts for a code that names no problem type. */
export function unknownProblemType(): Response {
  return new Response('No such problem type.\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}

/**
 * TRACE outside the agent surface: Next's route handlers (homepage, documents) build a Fetch `Request`
 * for it and fail with a 500, so the server refuses it on every path (the site reflects nothing back).
 */
export function fetchForbiddenMethod(): Response {
  return new Response('Method not allowed.\n', { status: 405, headers: { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' } })
}

/** The base path of the agent API or anything below it. */
export function isAgentApiPath(pathname: string): boolean {
  return pathname === API_BASE_PATH || pathname.startsWith(`${API_BASE_PATH}/`)
}

function isReadMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD'
}

/**
 * The handler for a path whose percent-encoding is valid, or null when Next should answer (pages,
 * assets, and methods the document and homepage routes do not serve with GET/HEAD).
 */
export function matchDirectRoute(pathname: string, method: string): WebHandler | null {
  if (isAgentApiPath(pathname)) return handleAgentRestRequest
  if (pathname === MCP_PATH) return handleMcpRequest
  if (isFetchForbiddenMethod(method)) return fetchForbiddenMethod
  if (!isReadMethod(method)) return null
  if (pathname === '/') return handleHomepageRequest
  const document = DOCUMENT_PATHS[pathname]
  if (document) return (request) => serveDocument(request, document)
  if (pathname.startsWith(PROBLEMS_PREFIX)) {
    const segment = pathname.slice(PROBLEMS_PREFIX.length)
    if (segment && !segment.includes('/')) {
      const code = decodeURIComponent(segment)
      return (request) => serveProblemDocument(request, code) ?? unknownProblemType()
    }
  }
  return null
}
