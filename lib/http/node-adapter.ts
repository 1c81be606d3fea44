/**
 * Serves a web-standard handler `(Request) => Response` on Node's http server, for the paths the
 * custom server answers itself. Bodies are buffered (agent requests are small and bounded).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

export type WebHandler = (request: Request) => Promise<Response> | Response

export function toWebRequest(request: IncomingMessage, origin: string, body: Uint8Array | null): Request {
  const headers = new Headers()
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i] ?? ''
    const value = request.rawHeaders[i + 1] ?? ''
    // HTTP/2 pseudo-headers and names `Headers` rejects cannot reach a handler anyway.
    if (name.startsWith(':')) continue
    try {
      headers.append(name, value)
    } catch {
      // A header value Node accepted but the Fetch API forbids is dropped rather than failing the request.
    }
  }
  return new Request(origin + (request.url ?? '/'), {
    method: request.method ?? 'GET',
    headers,
    body: body && request.method !== 'GET' && request.method !== 'HEAD' ? (body as BodyInit) : null,
  })
}

export async function writeWebResponse(response: Response, target: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  const setCookies = response.headers.getSetCookie()
  if (setCookies.length) headers['set-cookie'] = setCookies
  target.writeHead(response.status, headers)
  if (!response.body) {
    target.end()
    return
  }
  target.end(Buffer.from(await response.arrayBuffer()))
}

export async function readBody(request: IncomingMessage, limitBytes: number): Promise<Uint8Array | 'too-large'> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > limitBytes) return 'too-large'
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}
