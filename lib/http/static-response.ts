/**
 * Answers built once per deployment (pages' Markdown twins, discovery documents): Next prerenders
 * them at build time, so the handlers that make them must not depend on the request. Each carries a
 * weak ETag of its bytes; weak, because a server may compress the body (RFC 9110 §8.8.1).
 */
import { createHash } from 'node:crypto'
import type { HeaderList } from './header-list.ts'

export function weakEtag(bytes: Uint8Array | string): string {
  return `W/"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`
}

export function staticResponse(status: number, text: string, contentType: string, ...headerLists: HeaderList[]): Response {
  const headers = new Headers([['Content-Type', contentType]])
  for (const list of headerLists) for (const [name, value] of list) headers.append(name, value)
  headers.set('ETag', weakEtag(text))
  return new Response(text, { status, headers })
}
