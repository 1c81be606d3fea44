/**
 * Serves a handler `(AgentRequest) => HttpAnswer` on Node's http server, for the paths the self-hosted
 * server answers itself: the request goes in as a plain value (./agent-request.ts), the answer's
 * status, headers and bytes go to the socket as they are. The request body is buffered up to a
 * limit (one byte more is passed on so the handler sees it is too large; the rest is discarded); any
 * failure is a plain 500 without details, never a crash or a hang.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type BodyAccount, type BodyBudget, FREE_BODY } from './body-budget.ts'
import type { AgentRequest, HeaderReader, PlainRequest, RequestDelivery } from './agent-request.ts'
import { combineField } from './header-list.ts'
import type { HttpAnswer } from './http-answer.ts'

export type AnswerHandler = (request: AgentRequest) => Promise<HttpAnswer>

/**
 * Methods Node's parser accepts that a Fetch `Request` refuses to carry (`new Request` throws on them):
 * `npm start` answers them itself wherever Next would build a `Request` for them and fail.
 */
const FETCH_FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

export function isFetchForbiddenMethod(method: string): boolean {
  return FETCH_FORBIDDEN_METHODS.has(method.toUpperCase())
}

/**
 * HTTP whitespace at either end of a value, which `Headers` strips. Node's parser strips it too; this
 * keeps the headers equal to a `Headers` for raw headers rewritten after parsing as well.
 */
const EDGE_WHITESPACE = /^[\t ]+|[\t ]+$/g

const isHttpWhitespace = (code: number) => code === 32 || code === 9

/** `value` without HTTP whitespace at either end; the regex runs only for a value that has some (rare, and never from Node's parser). */
function trimHttpWhitespace(value: string): string {
  return value !== '' && (isHttpWhitespace(value.charCodeAt(0)) || isHttpWhitespace(value.charCodeAt(value.length - 1)))
    ? value.replace(EDGE_WHITESPACE, '')
    : value
}

/**
 * A Node request as the handlers read it, with its headers as undici's `Headers` gives them (names
 * in lower case, a repeated name's values joined with ", ", Cookie's with "; ", pseudo-headers left
 * out), any method, TRACE included, as it came, and what the server decided of its delivery.
 */
export function toAgentRequest(request: IncomingMessage, origin: string, bytes: Uint8Array | null, delivery: RequestDelivery): PlainRequest {
  const fields = new Map<string, string>()
  const raw = request.rawHeaders
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] ?? ''
    if (name.charCodeAt(0) === 58 /* ':' */) continue
    combineField(fields, name, trimHttpWhitespace(raw[i + 1] ?? ''))
  }
  const headers: HeaderReader = {
    get: (name) => fields.get(name.toLowerCase()) ?? null,
    has: (name) => fields.has(name.toLowerCase()),
    keys: () => fields.keys(),
  }
  return {
    method: request.method ?? 'GET',
    url: origin + (request.url ?? '/'),
    headers,
    bytes,
    clientAddress: delivery.clientAddress,
    compressAnswer: delivery.compressAnswer,
  }
}

/** Writes an answer; headers set on `target` before (the site-wide ones) stay unless the answer names them too. */
export function writeAnswer({ status, headers, body }: HttpAnswer, target: ServerResponse): void {
  target.writeHead(status, headers.flat())
  target.end(body)
}

/**
 * Reads at most `limitBytes + 1` bytes of the body; what follows is drained and dropped. The bytes kept
 * count against `account`: while it says stop, neither the request nor its socket is read (pausing the
 * socket alone is undone by the request's own flow, which resumes it once drained).
 */
function readBodyUpTo(request: IncomingMessage, limitBytes: number, account: BodyAccount = FREE_BODY): Promise<Uint8Array | null> {
  const method = request.method
  if (method === 'GET' || method === 'HEAD') {
    request.resume()
    return Promise.resolve(null)
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    const socket = request.socket
    let size = 0
    let done = false
    let stopped = false
    const stop = () => {
      if (stopped) return
      stopped = true
      request.pause()
      socket.pause()
    }
    const resume = () => {
      if (!stopped) return
      stopped = false
      socket.resume()
      request.resume()
    }
    const finish = () => {
      if (done) return
      done = true
      resume()
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks))
    }
    if (request.destroyed || request.readableEnded) return finish()
    // Not a byte more is read before the body's first window; paused first, the request stays paused
    // when the listener below comes.
    if (!account.take(0, resume)) stop()
    request.on('data', (chunk: Buffer) => {
      if (done) return
      const kept = size + chunk.length > limitBytes ? chunk.subarray(0, limitBytes + 1 - size) : chunk
      chunks.push(kept)
      size += kept.length
      if (size > limitBytes) return finish()
      if (!account.take(kept.length, resume)) stop()
    })
    request.on('end', finish)
    request.on('error', finish)
    request.on('aborted', finish)
    request.on('close', finish)
  })
}

/** A body's declared length, if it declares one (a chunked body does not). */
function declaredLength(request: IncomingMessage): number | undefined {
  const declared = Number(request.headers['content-length'])
  return request.headers['content-length'] !== undefined && Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined
}

/** How a handler is served: the origin of request URLs, the body it reads, and the request's delivery. */
export interface HandlerServing {
  origin: string
  /** Null when the route takes no body (it is drained unread), else its size limit and the budget its bytes count against until the answer is written. */
  body: { limitBytes: number; budget: BodyBudget } | null
  delivery: RequestDelivery
}

/** Runs a handler for a Node request and writes its answer. */
export async function serveWithHandler(
  handler: AnswerHandler,
  request: IncomingMessage,
  response: ServerResponse,
  { origin, body, delivery }: HandlerServing,
): Promise<void> {
  const account = body && request.method !== 'GET' && request.method !== 'HEAD' ? body.budget.open(declaredLength(request)) : undefined
  try {
    if (!body) request.resume()
    const bytes = body ? await readBodyUpTo(request, body.limitBytes, account) : null
    // The client left (or the request timed out) before its body came: there is no one to answer.
    if (request.destroyed && !request.complete) return
    writeAnswer(await handler(toAgentRequest(request, origin, bytes, delivery)), response)
  } catch (error) {
    console.error('[server] a direct route failed', error)
    if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
    response.end('Internal server error.\n')
  } finally {
    account?.release()
  }
}
