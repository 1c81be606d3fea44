/**
 * The request listener of `npm start`: asks the router (./router.ts) what answers, then writes the
 * answer, runs the handler or hands the request to Next. What the handlers get is decided here, by
 * the composition root's options, and travels on the request value (lib/http/agent-request.ts): the
 * client address the router resolved, and whether answers go compressed.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { CLIENT_ADDRESS_HEADER, FORWARDED_FOR_HEADER } from '../client-address.ts'
import type { BodyBudget } from '../http/body-budget.ts'
import type { HeaderList } from '../http/header-list.ts'
import { hasSignatureHeaders } from '../agent-signature/signature-headers.ts'
import { serveWithHandler, writeAnswer } from '../http/node-adapter.ts'
import { observeStaticAgentRequest } from '../signed-agents.ts'
import { type Router, toOriginForm } from './router.ts'

export interface RequestListenerOptions {
  router: Router
  /** Next's request handler, for whatever the router leaves to it. */
  next: (request: IncomingMessage, response: ServerResponse) => Promise<void>
  /** The origin of request URLs as handlers see them (BASE_URL). */
  origin: string
  /** Headers under every answer of a handler or of Next (the router's answers have them already). */
  siteWideHeaders: HeaderList
  /** What request bodies may hold at once (lib/http/body-budget.ts). */
  bodyBudget: BodyBudget
  /** Whether handlers' answers go compressed: here they are written to the socket as they are. */
  compressAnswers: boolean
}

export function createRequestListener({
  router,
  next,
  origin,
  siteWideHeaders,
  bodyBudget,
  compressAnswers,
}: RequestListenerOptions): RequestListener {
  const addSiteWideHeaders = (response: ServerResponse) => {
    for (const [name, value] of siteWideHeaders) response.setHeader(name, value)
  }
  return (request, response) => {
    const routing = router({
      method: request.method ?? 'GET',
      target: request.url ?? '/',
      headers: request.headers,
      peerAddress: request.socket.remoteAddress,
    })
    if (routing.kind === 'answer') {
      // A signed request for a document, problem page or twin is observed; any other costs one header lookup.
      const observed = hasSignatureHeaders((name) => request.headers[name] as string | undefined) ? observeStatic(request) : null
      request.resume()
      writeAnswer(routing.answer, response)
      void observed?.(routing.answer.status)
      return
    }
    request.url = routing.target
    addSiteWideHeaders(response)
    if (routing.kind === 'handler') {
      const { route, clientAddress } = routing
      const body = route.maxBodyBytes === null ? null : { limitBytes: route.maxBodyBytes, budget: bodyBudget }
      void serveWithHandler(route.handler, request, response, { origin, body, delivery: { clientAddress, compressAnswer: compressAnswers } })
      return
    }
    forwardClientAddress(request, routing.clientAddress)
    void next(request, response)
  }
}

function observeStatic(request: IncomingMessage) {
  const target = toOriginForm(request.url ?? '/')
  const query = target.indexOf('?')
  const headers = request.headers
  return observeStaticAgentRequest({
    method: request.method ?? 'GET',
    target,
    pathname: query < 0 ? target : target.slice(0, query),
    header: (name) => {
      const value = headers[name]
      return Array.isArray(value) ? value.join(', ') : (value ?? null)
    },
  })
}

/**
 * Next gets no forwarding header the client sent, only X-Forwarded-For with the client the router
 * resolved (the socket's peer, or what a trusted proxy forwarded): what Next runs (the contact form's
 * route among them) reads the client from it, and never takes a client's word for its address.
 */
function forwardClientAddress(request: IncomingMessage, clientAddress: string): void {
  const { headers, rawHeaders } = request
  const kept: string[] = []
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase()
    if (name !== FORWARDED_FOR_HEADER && name !== CLIENT_ADDRESS_HEADER) kept.push(rawHeaders[i] as string, rawHeaders[i + 1] as string)
  }
  delete headers[CLIENT_ADDRESS_HEADER]
  headers[FORWARDED_FOR_HEADER] = clientAddress
  request.rawHeaders = [...kept, 'X-Forwarded-For', clientAddress]
}
