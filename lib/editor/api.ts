/**
 * The visual editor's server side (/api/keystatic/…): in local mode it reads and writes content/
 * (only under `next dev`, and only for the requests request-guard.ts lets through), in GitHub mode it
 * signs editors in through the GitHub App. Without an editor it answers 404.
 */
import { makeRouteHandler } from '@keystatic/next/route-handler'
import { editorMode } from '../env.ts'
import { toResponse } from '../http/http-answer.ts'
import { keystaticConfig } from './keystatic-config.ts'
import { refusedEditorRequest } from './serving.ts'

type Handlers = { GET: (request: Request) => Promise<Response>; POST: (request: Request) => Promise<Response> }

let handlers: Handlers | null | undefined

/** Keystatic's route handlers for this process's editor (lib/env.ts decides which), made once. */
function keystaticHandlers(): Handlers | null {
  if (handlers !== undefined) return handlers
  const mode = editorMode()
  handlers = !mode
    ? null
    : mode.kind === 'github'
      ? makeRouteHandler({
          config: keystaticConfig({ kind: 'github', repo: mode.github.repo }),
          clientId: mode.github.clientId,
          clientSecret: mode.github.clientSecret,
          secret: mode.github.secret,
        })
      : makeRouteHandler({ config: keystaticConfig({ kind: 'local' }) })
  return handlers
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

/** One request to the editor's API: refused (local mode, request-guard.ts), answered by Keystatic, or 404 without an editor. */
export async function answerEditorApi(request: Request): Promise<Response> {
  const refused = refusedEditorRequest(request.headers)
  if (refused) return toResponse(refused)
  const keystatic = keystaticHandlers()
  if (!keystatic) return notFound()
  return request.method === 'POST' ? keystatic.POST(asRequested(request)) : keystatic.GET(asRequested(request))
}
