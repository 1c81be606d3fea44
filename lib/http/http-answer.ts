/**
 * An HTTP answer as plain values, what the agent surface's handlers decide: Next, Vercel and the
 * proxy get it as a web `Response` (`toResponse`); `npm start` writes it to the socket as it is
 * (lib/http/node-adapter.ts), without building a `Response` and reading its body back.
 */
import type { HeaderList } from './header-list.ts'

/** Status, headers as they are sent, and body (none for HEAD, 204 and the like). */
export interface HttpAnswer {
  status: number
  headers: HeaderList
  body: Uint8Array | null
}

export function toResponse({ status, headers, body }: HttpAnswer): Response {
  return new Response(body as BodyInit | null, { status, headers: headers as [string, string][] })
}
