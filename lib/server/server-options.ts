/**
 * The HTTP server of `npm start` (scripts/start.ts), its limits also read by the soak and the tests:
 * a too-slow sender is cut off (408) within its timeout plus one check interval, a reader that stops
 * reading after its idle timeout, and every request, even one offering an Upgrade, gets HTTP/1.1.
 */
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http'

export const SERVER_TIMEOUTS = {
  /** Complete request headers must arrive within this many ms of the connection's or request's start. */
  headersTimeout: 10_000,
  /** The whole request (headers and body) must arrive within this many ms. */
  requestTimeout: 30_000,
  /** An idle keep-alive connection is closed after this many ms (above common proxies' 60 s). */
  keepAliveTimeout: 65_000,
  /**
   * How often Node checks the two timeouts above. Its default is 30 s, which let a slow client hold a
   * connection for up to 40 s (headers) or 60 s (body); checking every second keeps the cut-off exact.
   */
  connectionsCheckingInterval: 1_000,
} as const

/**
 * A connection with a request in progress on which nothing moves for this long is destroyed (Node
 * re-arms the timer once when a write was pending, so a stalled reader goes after 15–30 s). Node's
 * default is never: a client that pipelines requests and stops reading kept every queued answer in
 * memory (about 9 MB for 300 requests of /openapi.json) for as long as it liked.
 */
export const IDLE_SOCKET_TIMEOUT_MS = 15_000

const SERVER_OPTIONS: ServerOptions = {
  ...SERVER_TIMEOUTS,
  /**
   * The site offers no WebSocket or h2c upgrade, so a request carrying `Upgrade` is answered as plain
   * HTTP/1.1 (RFC 9110 §7.8 lets a server ignore it). Otherwise Next's upgrade listener, attached on
   * the first request, ends such connections without any answer: `curl --http2 http://…` and Java's
   * default HttpClient (which offer h2c) would get an empty reply for every request.
   */
  shouldUpgradeCallback: () => false,
}

/**
 * Connections open at once; Node refuses more (it closes them at accept). With the header limit
 * (Node's 16 KiB), the timeouts above and the body budget below, it bounds what clients can make the
 * server hold.
 */
const MAX_CONNECTIONS = 2048

/**
 * Request bodies held at once (lib/http/body-budget.ts): bodies declared up to 16 KiB (a valid MCP
 * message) are read at once; larger ones hold 4 MiB together, each counted by what arrived plus the
 * 64 KiB window it reads next, the rest waiting unread while that is spent.
 */
export const BODY_BUDGET = { limitBytes: 4 * 1024 * 1024, freeBytesPerBody: 16 * 1024 } as const

/** `http.createServer` with the options, the idle timeout and the connection cap above. */
export function createSiteServer(listener: RequestListener): Server {
  const server = createServer(SERVER_OPTIONS, listener)
  server.timeout = IDLE_SOCKET_TIMEOUT_MS
  server.maxConnections = MAX_CONNECTIONS
  return server
}

/** The latest a too-slow client is cut off, in ms after its request started (timeout + one check). */
export function cutOffBoundMs(timeout: 'headersTimeout' | 'requestTimeout'): number {
  return SERVER_TIMEOUTS[timeout] + SERVER_TIMEOUTS.connectionsCheckingInterval
}
