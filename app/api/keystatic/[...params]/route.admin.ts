import { makeRouteHandler } from '@keystatic/next/route-handler'
import { editorMode } from '@/lib/env.ts'
import { keystaticConfig } from '@/keystatic.config.ts'

/**
 * The visual editor's server side: in local mode it reads and writes content/ (only under `next dev`),
 * in GitHub mode it signs editors in through the GitHub App. Without an editor it answers 404.
 */
function handler(): { GET: (request: Request) => Promise<Response>; POST: (request: Request) => Promise<Response> } | null {
  const mode = editorMode()
  if (!mode) return null
  return mode.kind === 'github'
    ? makeRouteHandler({
        config: keystaticConfig({ kind: 'github', repo: mode.github.repo }),
        clientId: mode.github.clientId,
        clientSecret: mode.github.clientSecret,
        secret: mode.github.secret,
      })
    : makeRouteHandler({ config: keystaticConfig({ kind: 'local' }) })
}

/**
 * Keystatic sends GitHub back to `<origin of the request>/api/keystatic/github/oauth/callback`, which
 * must be the callback registered for the GitHub App on the editing domain. Next hands a route handler
 * a URL on the address the server listens on (http://127.0.0.1:3000 behind a reverse proxy), so the
 * origin is the one the browser asked for: its Host, and the scheme a TLS-terminating proxy forwards.
 * (Under `next dev` that is the address the dev server listens on: the same URL.)
 */
function asRequested(request: Request): Request {
  const url = new URL(request.url)
  const scheme = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim()
  const origin = `${scheme === 'https' || scheme === 'http' ? scheme : url.protocol.slice(0, -1)}://${request.headers.get('host') ?? url.host}`
  if (!URL.canParse(origin)) return request
  const requested = new URL(`${url.pathname}${url.search}`, origin)
  return requested.href === request.url ? request : new Request(requested, request)
}

const notFound = () => new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

export const GET = (request: Request) => handler()?.GET(asRequested(request)) ?? notFound()
export const POST = (request: Request) => handler()?.POST(asRequested(request)) ?? notFound()
