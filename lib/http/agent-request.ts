/**
 * A request as the agent surface's handlers read it: method, absolute URL, headers by name and, for
 * POST /mcp, the body. Next and Vercel hand over their route handlers' web `Request`; `npm start`
 * hands over Node's request as a plain value (lib/http/node-adapter.ts), its body already read under
 * the route's limit (building a Fetch `Request` for each call cost about a tenth of an MCP answer),
 * with the client address it resolved and whether the answer goes compressed.
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
  /**
   * The client's address as the server resolved it from the connection (lib/client-address.ts): the
   * TCP peer, or what a trusted proxy forwarded. Forwarding headers the client sent play no part.
   */
  readonly clientAddress: string
  /**
   * Whether the answer goes compressed (lib/http/respond.ts): the server that built this request
   * writes answers to the socket as they are. Next and Vercel compress by themselves, and strip a
   * route handler's Content-Encoding, so a web `Request` never asks for it.
   */
  readonly compressAnswer: boolean
}

/** How the server that built a plain request delivers it: the options of the request above. */
export type RequestDelivery = Pick<PlainRequest, 'clientAddress' | 'compressAnswer'>

export type AgentRequest = Request | PlainRequest

const decoder = new TextDecoder()

/**
 * The body as UTF-8 text, or `tooLarge` when its declared or actual length is over `limit`. A web
 * request's stream is read until it ends or passes the limit (a failed stream throws); a plain one was
 * read already, at most one byte over the limit, and gets the same verdict. The MCP SDK has a reader
 * like this one, but importing the SDK for it would load the SDK and zod in every function that reads
 * a body (the contact form's, and a REST instance's first request with them).
 */
export async function readBodyText(request: AgentRequest, limit: number): Promise<{ tooLarge: true } | { tooLarge: false; text: string }> {
  const declared = Number(request.headers.get('content-length'))
  if (declared > limit) return { tooLarge: true }
  if (!(request instanceof Request)) {
    const { bytes } = request
    if ((bytes?.byteLength ?? 0) > limit) return { tooLarge: true }
    return { tooLarge: false, text: bytes ? decoder.decode(bytes) : '' }
  }
  const bytes = await readStreamWithin(request.body, limit)
  return bytes ? { tooLarge: false, text: decoder.decode(bytes) } : { tooLarge: true }
}

/**
 * A web stream's bytes (none for no stream), or null as soon as they pass `limit`: reading stops there
 * and the stream is cancelled. A failed stream throws.
 */
export async function readStreamWithin(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer | null> {
  const chunks: Uint8Array[] = []
  let received = 0
  for await (const chunk of stream ?? []) {
    received += chunk.byteLength
    if (received > limit) return null
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/** Whether the answer to `request` goes compressed: only where the server asked for it (see PlainRequest). */
export function compressesAnswer(request: AgentRequest): boolean {
  return !(request instanceof Request) && request.compressAnswer
}
