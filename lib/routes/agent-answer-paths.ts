/**
 * The prerendered answers that are for agents, stated once: the discovery documents, the problem
 * pages and the Markdown twins (at `<page>.md` and any other `.md` URL; the internal twin route
 * `/md/<page>` is left out: Next runs the proxy again for the proxy's own rewrite to it). A
 * signed request for one of them is observed (its signature verified, one access-log line): npm start
 * asks `agentAnswerRoute` itself; under Next and Vercel, proxy.ts's matcher sends signed requests for
 * these paths to the proxy, which asks the same. A page asked for as Markdown is one too
 * (lib/pages/negotiation.ts decides that from `Accept`).
 */
import { DOCUMENT_PATHS, PROBLEMS_PATH } from './document-paths.ts'
import { SITE_PAGES } from './site-pages.ts'

const DOCUMENTS = new Set<string>(Object.values(DOCUMENT_PATHS))
const TWINS = new Set<string>(SITE_PAGES.map((page) => page.markdownPath))

/**
 * The filter of proxy.ts's matcher for signed requests (path-to-regexp; Next reads the matcher as a
 * literal, so proxy.ts writes this out and tests/unit/agent-answer-paths.test.ts holds the two equal):
 * every path `agentAnswerRoute` names, and none of the pages, the page script, icons and images, the
 * agent API or MCP, so that a signed browser's page views never reach the proxy. A cheap superset:
 * `agentAnswerRoute` decides.
 */
export const AGENT_ANSWER_PATHS_SOURCE = '/:path(.+\\.md|problems/.+|\\.well-known/.+|[^/]+\\.(?:json|txt|xml)|mcp/server-card|mcp/server\\.json)'

/**
 * The `http.route` of a prerendered agent answer at `pathname` (documents and twins by their own
 * path, the rest by a template, so that the routes stay a short list), or null when the path is not one.
 */
export function agentAnswerRoute(pathname: string): string | null {
  if (DOCUMENTS.has(pathname) || TWINS.has(pathname)) return pathname
  if (pathname.startsWith(`${PROBLEMS_PATH}/`)) return `${PROBLEMS_PATH}/{code}`
  if (pathname.endsWith('.md')) return '/{path}.md'
  return null
}
