/**
 * Options of the self-hosted server's `http.createServer` (scripts/start.ts), defined once so the soak
 * (scripts/soak.ts) and the tests derive their bounds from the same numbers: a too-slow client is cut
 * off (408) within its timeout plus one check interval, and every request gets an HTTP/1.1 answer.
 */
import type { ServerOptions } from 'node:http'

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

export const SERVER_OPTIONS: ServerOptions = {
  ...SERVER_TIMEOUTS,
  /**
   * The site offers no WebSocket or h2c upgrade, so a request carrying `Upgrade` is answered as plain
   * HTTP/1.1 (RFC 9110 §7.8 lets a server ignore it). Otherwise Next's upgrade listener, attached on
   * the first request, ends such connections without any answer: `curl --http2 http://…` and Java's
   * default HttpClient (which offer h2c) would get an empty reply for every request.
   */
  shouldUpgradeCallback: () => false,
}

/** The latest a too-slow client is cut off, in ms after its request started (timeout + one check). */
export function cutOffBoundMs(timeout: 'headersTimeout' | 'requestTimeout'): number {
  return SERVER_TIMEOUTS[timeout] + SERVER_TIMEOUTS.connectionsCheckingInterval
}
