/**
 * CORS preflights (Fetch standard §3.2): everything public is readable from any origin with GET and
 * HEAD, with any request header (a conditional GET's If-None-Match included, which is not
 * CORS-safelisted). The agent API answers its preflights itself; proxy.ts and npm start answer those
 * of the pages and documents, whose prerendered routes take GET and HEAD only.
 */
import { CORS_HEADERS, READ_METHODS } from './headers.ts'
import type { HeaderList } from './header-list.ts'
import type { HttpAnswer } from './http-answer.ts'

export const PREFLIGHT_HEADERS: HeaderList = [
  ['Access-Control-Allow-Methods', READ_METHODS],
  ['Access-Control-Allow-Headers', '*'],
  ['Access-Control-Max-Age', '86400'],
]

export function isCorsPreflight(method: string, headers: Pick<Headers, 'has'>): boolean {
  return method === 'OPTIONS' && headers.has('access-control-request-method')
}

/** The preflight answer for a page or document. */
export const STATIC_PREFLIGHT_ANSWER: HttpAnswer = { status: 204, headers: [...CORS_HEADERS, ...PREFLIGHT_HEADERS], body: null }
