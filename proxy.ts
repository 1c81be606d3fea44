import { NextResponse, type NextRequest } from 'next/server'
import { isEditorPath, refusedEditorRequest } from '@/lib/editor/serving.ts'
import { isCorsPreflight, STATIC_PREFLIGHT_ANSWER } from '@/lib/http/cors.ts'
import { toResponse } from '@/lib/http/http-answer.ts'
import { negotiatedTwin } from '@/lib/pages/negotiation.ts'
import { twinRoutePath } from '@/lib/routes/site-pages.ts'

/**
 * Two jobs on prerendered paths, which take only GET and HEAD: answer CORS preflights, and rewrite a
 * request that prefers text/markdown to the page's Markdown twin (lib/pages/negotiation.ts). And one
 * on the visual editor's pages: the local editor refuses a request for another host or from another
 * origin (lib/editor/request-guard.ts; a page cannot answer that itself, its API does).
 */
export function proxy(request: NextRequest) {
  if (isEditorPath(request.nextUrl.pathname)) {
    const refused = refusedEditorRequest(request.headers)
    if (refused) return toResponse(refused)
  }
  if (isCorsPreflight(request.method, request.headers)) return toResponse(STATIC_PREFLIGHT_ANSWER)
  const twin = negotiatedTwin(request.nextUrl.pathname, request.headers.get('accept'))
  return twin ? NextResponse.rewrite(new URL(twinRoutePath(twin), request.url)) : NextResponse.next()
}

// Only requests naming text/markdown (in any case) in Accept, and preflights, reach the proxy: browsers
// and the agent API (which answers its own preflights) never pay for it. Next reads this statically, so
// it is written out: it is a cheap filter, not the list of pages (negotiatedTwin decides that, from
// lib/routes/page-paths.ts); it only keeps out the routes that answer their own preflights. The
// editor's pages (lib/routes/editor-paths.ts) come here whatever they accept.
export const config = {
  matcher: [
    '/keystatic/:path*',
    { source: '/((?!api/|mcp$|_next/).*)', has: [{ type: 'header', key: 'accept', value: '.*[Tt][Ee][Xx][Tt]/[Mm][Aa][Rr][Kk][Dd][Oo][Ww][Nn].*' }] },
    { source: '/((?!api/|mcp$|_next/).*)', has: [{ type: 'header', key: 'access-control-request-method' }] },
  ],
}
