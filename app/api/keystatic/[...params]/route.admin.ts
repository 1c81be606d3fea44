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

const notFound = () => new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

export const GET = (request: Request) => handler()?.GET(request) ?? notFound()
export const POST = (request: Request) => handler()?.POST(request) ?? notFound()
