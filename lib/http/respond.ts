/**
 * Builds the agent surface's answers (./http-answer.ts) from precomputed bodies and header lists.
 * HEAD gets the GET headers (with the GET body's Content-Length) and no body; a body of 1 KiB or more
 * goes compressed to a client that accepts it where the request says the server writes answers as they
 * are (npm start), from encodings made once per body on the first request that asks for them
 * (lib/http/compression.ts): where answers go uncompressed (next start, Vercel) nothing is ever
 * compressed here. Header names come out in lower case, each once, as a `Headers` sends them.
 */
import { compressesAnswer, type AgentRequest } from './agent-request.ts'
import { PROBLEMS, type ProblemCode } from '../contract/problems.ts'
import type { ProblemDetails } from '../contract/schemas.ts'
import { bodyForClient, encodableBody, varyOnEncoding, type EncodableBody } from './compression.ts'
import { API_HEADERS, CONTENT_TYPES } from './headers.ts'
import { combineField, type HeaderList } from './header-list.ts'
import type { HttpAnswer } from './http-answer.ts'

const encoder = new TextEncoder()

/** A body serialized once, with its bytes and, when worth it, its compressed forms (made when first read). */
export type PreparedBody = EncodableBody & { readonly text: string }

function prepareBody(text: string): PreparedBody {
  return Object.assign(encodableBody(encoder.encode(text)), { text })
}

export function prepareJson(value: unknown): PreparedBody {
  return prepareBody(JSON.stringify(value))
}

/** Header lists as combined fields, each list once: an answer's first list is a constant (API_HEADERS), copied per answer. */
const combinedLists = new WeakMap<HeaderList, ReadonlyMap<string, string>>()

function combinedOnce(list: HeaderList): ReadonlyMap<string, string> {
  let fields = combinedLists.get(list)
  if (!fields) {
    const combined = new Map<string, string>()
    for (const [name, value] of list) combineField(combined, name, value)
    fields = combined
    combinedLists.set(list, fields)
  }
  return fields
}

export function respond(
  request: AgentRequest,
  status: number,
  body: (Pick<EncodableBody, 'bytes'> & Partial<Pick<EncodableBody, 'compressible' | 'encoded'>>) | null,
  contentType: string | null,
  first: HeaderList,
  ...headerLists: HeaderList[]
): HttpAnswer {
  const headers = new Map(combinedOnce(first))
  for (const list of headerLists) for (const [name, value] of list) combineField(headers, name, value)
  let bytes = body?.bytes ?? null
  if (body) {
    if (contentType) headers.set('content-type', contentType)
    if (compressesAnswer(request) && body.compressible) {
      headers.set('vary', varyOnEncoding(headers.get('vary') ?? null))
      const sent = bodyForClient(body, request.headers.get('accept-encoding'))
      bytes = sent.bytes
      if (sent.encoding) headers.set('content-encoding', sent.encoding)
    }
    headers.set('content-length', String((bytes as Uint8Array).byteLength))
  }
  return { status, headers: [...headers], body: bytes && request.method !== 'HEAD' ? bytes : null }
}

/** The ProblemDetails object of a contract error code; `type` is absolute under the base URL. */
export function buildProblem(
  code: ProblemCode,
  problemTypeUrl: (code: string) => string,
  overrides: Partial<Pick<ProblemDetails, 'detail' | 'resolution' | 'instance'>> = {},
): ProblemDetails {
  const definition = PROBLEMS[code]
  return {
    type: problemTypeUrl(code),
    title: definition.title,
    status: definition.status,
    code,
    detail: overrides.detail ?? definition.detail,
    resolution: overrides.resolution ?? definition.resolution,
    ...(overrides.instance ? { instance: overrides.instance } : {}),
  }
}

/** A REST error: problem+json with the API headers plus any extra ones (Allow, Retry-After, rate limits). */
export function respondProblem(request: AgentRequest, problem: ProblemDetails, ...extraHeaders: HeaderList[]): HttpAnswer {
  return respond(request, problem.status, prepareJson(problem), CONTENT_TYPES.problem, API_HEADERS, ...extraHeaders)
}
