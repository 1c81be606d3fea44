/**
 * What answers a request under `npm start`, decided from plain values (method, target, headers, TCP
 * peer), so that it can be called in-process: an answer written as it is (a prerendered page, twin or
 * document from ./static-output.ts, a preflight, a refusal), a handler of ./direct-routes.ts with the
 * client's address resolved from the connection, or Next. Nothing here touches a socket
 * (./request-listener.ts does).
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { ClientAddressResolver } from '../client-address.ts'
import { FORWARDED_FOR_HEADER } from '../client-address.ts'
import { isCorsPreflight, STATIC_PREFLIGHT_ANSWER } from '../http/cors.ts'
import { CONTENT_TYPES } from '../http/headers.ts'
import type { HeaderList } from '../http/header-list.ts'
import type { HttpAnswer } from '../http/http-answer.ts'
import { isFetchForbiddenMethod } from '../http/node-adapter.ts'
import { DIRECT_ROUTES, matchDynamicRoute, type DynamicRoute } from './direct-routes.ts'
import { answerStatic, METHOD_NOT_ALLOWED, type StaticOutput } from './static-output.ts'

/** A request as it arrived, before anything was decided. */
interface ArrivedRequest {
  method: string
  /** The request target as sent: origin-form, or absolute-form (RFC 9112 §3.2.2). */
  target: string
  headers: IncomingHttpHeaders
  /** The TCP peer (`socket.remoteAddress`), undefined once the socket is gone. */
  peerAddress: string | undefined
}

/**
 * `answer`: written as it is, the body (if any) drained unread. `handler`: the route's handler runs
 * on the request at `target` from `clientAddress`. `next`: Next answers the request at `target`, told
 * that it comes from `clientAddress`. Every target is in origin-form; handlers and Next get the
 * site-wide headers under their own.
 */
export type Routing =
  | { kind: 'answer'; answer: HttpAnswer }
  | { kind: 'handler'; route: DynamicRoute; target: string; clientAddress: string }
  | { kind: 'next'; target: string; clientAddress: string }

export interface RouterOptions {
  staticOutput: Pick<StaticOutput, 'match'>
  /** Headers every answer carries (lib/http/security-headers.ts); a prerendered answer has them from the build. */
  siteWideHeaders: HeaderList
  /** The client of a connection: the peer, or what a trusted proxy forwarded (lib/client-address.ts). */
  resolveClientAddress: ClientAddressResolver
  /** The routes handed to handlers (./direct-routes.ts DIRECT_ROUTES unless a test gives its own). */
  routes?: readonly DynamicRoute[]
}

export type Router = (request: ArrivedRequest) => Routing

const MALFORMED_PATH_BODY = Buffer.from('Bad request: malformed percent-encoding in the path.\n')

/** Next answers a malformed percent-encoding in a dynamic segment with a 500; npm start refuses it. */
const MALFORMED_PATH: HttpAnswer = {
  status: 400,
  headers: [
    ['Content-Type', CONTENT_TYPES.text],
    ['Content-Length', String(MALFORMED_PATH_BODY.byteLength)],
  ],
  body: MALFORMED_PATH_BODY,
}

/** An answer with `base` under its headers, as Node sends headers set before writeHead: the answer's names win. */
function withHeadersUnder(base: HeaderList, { status, headers, body }: HttpAnswer): HttpAnswer {
  const own = new Set(headers.map(([name]) => name.toLowerCase()))
  return { status, headers: [...base.filter(([name]) => !own.has(name.toLowerCase())), ...headers], body }
}

export function createRouter({ staticOutput, siteWideHeaders, resolveClientAddress, routes = DIRECT_ROUTES }: RouterOptions): Router {
  const malformedPath: Routing = { kind: 'answer', answer: withHeadersUnder(siteWideHeaders, MALFORMED_PATH) }
  const preflight: Routing = { kind: 'answer', answer: withHeadersUnder(siteWideHeaders, STATIC_PREFLIGHT_ANSWER) }
  const methodNotAllowed: Routing = { kind: 'answer', answer: withHeadersUnder(siteWideHeaders, METHOD_NOT_ALLOWED) }

  return ({ method, target: sent, headers, peerAddress }) => {
    const target = toOriginForm(sent)
    const query = target.indexOf('?')
    const pathname = query < 0 ? target : target.slice(0, query)
    const clientAddress = () => resolveClientAddress(peerAddress, headers[FORWARDED_FOR_HEADER])
    const route = matchDynamicRoute(pathname, routes)
    if (route) return { kind: 'handler', route, target, clientAddress: clientAddress() }
    if (!isDecodable(pathname)) return malformedPath
    if (isCorsPreflight(method, { has: (name) => name in headers })) return preflight
    // TRACE anywhere: Next's route handlers build a Fetch Request for it and fail with a 500.
    if (isFetchForbiddenMethod(method)) return methodNotAllowed
    const entry = staticOutput.match(pathname, { headers, search: query < 0 ? '' : target.slice(query) })
    if (!entry) return { kind: 'next', target, clientAddress: clientAddress() }
    if (method !== 'GET' && method !== 'HEAD' && entry.status !== 404) return methodNotAllowed
    // A prerendered answer carries the build's headers, the site-wide ones included.
    const answer = answerStatic(entry, method === 'HEAD' ? 'HEAD' : 'GET', headerValue(headers['if-none-match']), headers['accept-encoding'])
    return { kind: 'answer', answer }
  }
}

/** RFC 9112 §3.2.2: a server must accept an absolute-form target; Next expects origin-form. */
export function toOriginForm(target: string): string {
  if (target.startsWith('/')) return target
  try {
    const url = new URL(target)
    return `${url.pathname}${url.search}`
  } catch {
    return '/'
  }
}

function isDecodable(value: string): boolean {
  try {
    decodeURIComponent(value)
    return true
  } catch {
    return false
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? value.join(', ') : (value ?? null)
}
