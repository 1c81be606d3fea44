/**
 * Where Web Bot Auth verification (lib/agent-signature) meets the answers for agents: the REST and
 * MCP handlers read each request's signature beside their work (lib/agent-routes.ts), and a signed
 * request for a prerendered agent answer (a document, a problem page, a twin, a page asked for as
 * Markdown) is observed where the server sees it: npm start's listener (lib/server) and, under Next
 * and Vercel, proxy.ts, whose matcher sends those requests to it. Unsigned requests for prerendered
 * answers pay one header lookup and leave no line; the REST and MCP lines say `unsigned`.
 *
 * Verification never changes an answer, never makes one wait for a key directory, and never fails
 * one: anything unexpected is recorded as `invalid`.
 */
import { hasSignatureHeaders } from './agent-signature/signature-headers.ts'
import type { AgentSignature } from './agent-signature/web-bot-auth.ts'
import { getConfig } from './env.ts'
import type { AgentRequest } from './http/agent-request.ts'
import { negotiatedTwin } from './pages/negotiation.ts'
import { agentAnswerRoute } from './routes/agent-answer-paths.ts'
import { NOT_FOUND_TWIN } from './routes/site-pages.ts'
import {
  observesStaticAgentAnswers,
  recordStaticAgentAnswer,
  UNSIGNED_RECORD,
  type SignatureRecord,
  type StaticAgentAnswer,
} from './telemetry/observe.ts'

const INVALID_RECORD: SignatureRecord = Object.freeze({ signature: 'invalid', signer: null })

const toRecord = ({ verdict, signer }: AgentSignature): SignatureRecord => (verdict === 'unsigned' ? UNSIGNED_RECORD : { signature: verdict, signer })

let reported = false
function failed(error: unknown): SignatureRecord {
  if (!reported) {
    reported = true
    console.error('[agent-signature] verification failed; recorded as invalid', error)
  }
  return INVALID_RECORD
}

type Verification = typeof import('./agent-signature/web-bot-auth.ts')

/** The verifier, loaded by the first signed request: unsigned traffic never loads it (lib/on-demand.ts). */
let verification: Verification | undefined
let loading: Promise<Verification> | undefined

/** What the verifier says of a request, from its method, target, `Host` and a header reader: at once once it is loaded. */
function inspect(method: string, target: string, header: (name: string) => string | null): SignatureRecord | Promise<SignatureRecord> {
  if (verification) return check(verification, method, target, header)
  loading ??= import('./agent-signature/web-bot-auth.ts').then((loaded) => (verification = loaded))
  return loading.then((loaded) => check(loaded, method, target, header), failed)
}

function check(
  { getAgentSignatureVerifier, siteAuthority }: Verification,
  method: string,
  target: string,
  header: (name: string) => string | null,
): SignatureRecord | Promise<SignatureRecord> {
  try {
    const config = getConfig()
    const checked = getAgentSignatureVerifier(config).check({
      method,
      target,
      scheme: config.baseUrl.slice(0, config.baseUrl.indexOf(':')),
      authority: siteAuthority(header('host'), config),
      header,
    })
    return checked instanceof Promise ? checked.then(toRecord, failed) : toRecord(checked)
  } catch (error) {
    return failed(error)
  }
}

/** The signature of a REST or MCP request (observeAgentRoute's inspector). */
export function inspectAgentSignature(request: AgentRequest): SignatureRecord | Promise<SignatureRecord> {
  const header = (name: string) => request.headers.get(name)
  if (!hasSignatureHeaders(header)) return UNSIGNED_RECORD
  const url = request.url
  const path = url.indexOf('/', url.indexOf('//') + 2)
  return inspect(request.method, path < 0 ? '/' : url.slice(path), header)
}

/**
 * The `http.route` of a prerendered answer when it is one for agents: a page asked for as Markdown
 * (by its path; `/{page}` for a path that names none), a document, a problem page, a twin; else null.
 */
export function staticAgentRoute(pathname: string, accept: string | null): string | null {
  const twin = negotiatedTwin(pathname, accept)
  if (twin) return twin === NOT_FOUND_TWIN ? '/{page}' : pathname
  return agentAnswerRoute(pathname)
}

/** A request for a prerendered answer, as the server that answers it sees it. */
export interface StaticRequest {
  method: string
  /** Origin-form target: path and query. */
  target: string
  pathname: string
  header(name: string): string | null
}

/**
 * Observes a signed request for a prerendered agent answer: returns null at once when the request is
 * unsigned or not for such an answer (nothing is recorded), else a function that records the answer
 * once its status is known (null where it is given later), and resolves when the line is written.
 */
export function observeStaticAgentRequest(request: StaticRequest): ((status: number | null) => Promise<void>) | null {
  if (!hasSignatureHeaders(request.header)) return null
  const route = staticAgentRoute(request.pathname, request.header('accept'))
  if (route === null || !observesStaticAgentAnswers()) return null
  const startedAt = performance.timeOrigin + performance.now()
  const inspected = inspect(request.method, request.target, request.header)
  return async (status) => {
    const answer: StaticAgentAnswer = {
      method: request.method,
      route,
      path: request.pathname,
      status,
      startedAt,
      durationMs: status === null ? null : performance.timeOrigin + performance.now() - startedAt,
      userAgent: request.header('user-agent'),
      vercelId: request.header('x-vercel-id'),
    }
    recordStaticAgentAnswer(answer, await inspected)
  }
}
