/**
 * A request as the agent surface's handlers read it: method, absolute URL, headers by name and, for
 * POST /mcp, the body. Next and Vercel hand over their route handlers' web `Request`; `npm start`
 * hands over Node's request as a plain value (lib/http/node-adapter.ts), its body already read under
 * the route's limit: building a Fetch `Request` for each call cost about a tenth of an MCP answer.
 */

/** Header values by name, as `Headers` gives them: names case-insensitive, a repeated name's values joined. */
export interface HeaderReader {
  get(name: string): string | null
  has(name: string): boolean
  /** The names present, in lower case (trace propagators that match a prefix read them). */
  keys(): Iterable<string>
}

export interface PlainRequest {
  readonly method: string
  readonly url: string
  readonly headers: HeaderReader
  /** The body's bytes as read (at most one byte over the route's limit), or null when there was none. */
  readonly bytes: Uint8Array | null
}

export type AgentRequest = Request | PlainRequest
