import { NextResponse, type NextFetchEvent, type NextRequest } from 'next/server'
import { isEditorPath, refusedEditorRequest } from '@/lib/editor/serving.ts'
import { isCorsPreflight, STATIC_PREFLIGHT_ANSWER } from '@/lib/http/cors.ts'
import { toResponse } from '@/lib/http/http-answer.ts'
import { negotiatedTwin } from '@/lib/pages/negotiation.ts'
import { twinRoutePath } from '@/lib/routes/site-pages.ts'
import { observeStaticAgentRequest } from '@/lib/signed-agents.ts'

/**
 * Three jobs on prerendered paths, which take only GET and HEAD: answer CORS preflights, rewrite a
 * request that prefers text/markdown to the page's Markdown twin (lib/pages/negotiation.ts), and
 * observe a signed request for an answer meant for agents (lib/signed-agents.ts: its Web Bot Auth
 * signature verified and its access-log line written once the answer has gone, never before it).
 * And one on the visual editor's pages: the local editor refuses a request for another host or from
 * another origin (lib/editor/request-guard.ts; a page cannot answer that itself, its API does).
 */
export function proxy(request: NextRequest, event: NextFetchEvent) {
  if (isEditorPath(request.nextUrl.pathname)) {
    const refused = refusedEditorRequest(request.headers)
    if (refused) return toResponse(refused)
  }
  if (isCorsPreflight(request.method, request.headers)) return toResponse(STATIC_PREFLIGHT_ANSWER)
  const { pathname, search } = request.nextUrl
  const observed = observeStaticAgentRequest({
    method: request.method,
    target: `${pathname}${search}`,
    pathname,
    header: (name) => request.headers.get(name),
  })
  if (observed) event.waitUntil(observed(null))
  const twin = negotiatedTwin(pathname, request.headers.get('accept'))
  return twin ? NextResponse.rewrite(new URL(twinRoutePath(twin), request.url)) : NextResponse.next()
}

// Only requests naming text/markdown (in any case) in Accept, preflights, and signed requests for the
// answers meant for agents (documents, problem pages, twins: lib/routes/agent-answer-paths.ts
// AGENT_ANSWER_PATHS_SOURCE, written out) reach the proxy: browsers, a signed browser's page views and
// the agent API (which answers its own preflights and reads its own signatures) never pay for it.
// Next reads this statically, so it is written out: these are cheap filters, not the list of pages
// (negotiatedTwin and lib/signed-agents.ts decide that); the first two only keep out the routes that
// answer their own preflights. The editor's pages (lib/routes/editor-paths.ts) come here whatever
// they accept.
export const config = {
  matcher: [
    '/keystatic/:path*',
    { source: '/((?!api/|mcp$|_next/).*)', has: [{ type: 'header', key: 'accept', value: '.*[Tt][Ee][Xx][Tt]/[Mm][Aa][Rr][Kk][Dd][Oo][Ww][Nn].*' }] },
    { source: '/((?!api/|mcp$|_next/).*)', has: [{ type: 'header', key: 'access-control-request-method' }] },
    {
      source: '/:path(.+\\.md|problems/.+|\\.well-known/.+|[^/]+\\.(?:json|txt|xml)|mcp/server-card|mcp/server\\.json)',
      has: [{ type: 'header', key: 'signature-input' }],
    },
    {
      source: '/:path(.+\\.md|problems/.+|\\.well-known/.+|[^/]+\\.(?:json|txt|xml)|mcp/server-card|mcp/server\\.json)',
      has: [{ type: 'header', key: 'signature' }],
    },
    {
      source: '/:path(.+\\.md|problems/.+|\\.well-known/.+|[^/]+\\.(?:json|txt|xml)|mcp/server-card|mcp/server\\.json)',
      has: [{ type: 'header', key: 'signature-agent' }],
    },
  ],
}
