/**
 * The contact form's routes as they are served: the form's decision (lib/leads/submission.ts) with
 * this deployment's form, store, address limit and client address, its outcome counted by telemetry
 * (the outcome only, never a field), the answer with the contact page's headers around the page the
 * page's own components render, delivery started once the answer is out, and the cron route of
 * delivery rounds, each attempt seen by telemetry by its destination's kind and origin only. Next and
 * Vercel serve the form through app/(marketing)/contact/send/route.ts (delivery in `after()`); `npm
 * start` answers it itself (`answerLeadFormDirect`, lib/server/direct-routes.ts), as it does the agent
 * API: Next's request pipeline costs a millisecond of CPU per post, a sixth of what the form can take.
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { forwardedAddressSource, readClientAddress } from './client-address.ts'
import type { AgentRequest } from './http/agent-request.ts'
import type { HeaderList } from './http/header-list.ts'
import { CONTENT_TYPES } from './http/headers.ts'
import type { HttpAnswer } from './http/http-answer.ts'
import { PAGE_SECURITY_HEADERS, pageContentSecurityPolicy } from './http/security-headers.ts'
import { deliverLeadSoon } from './leads/delivery.ts'
import { answerDeliveryCron } from './leads/delivery-cron.ts'
import { getLeadForm } from './leads/form.ts'
import { getLeadFormLimit } from './leads/form-limit.ts'
import type { LeadFormState } from './leads/form-view.ts'
import { leadStoreFor } from './leads/store.ts'
import { answerLeadForm, type LeadFormResult } from './leads/submission.ts'
import { formActionOrigins, getPageModel } from './pages/page-model.ts'
import { getSite, perSite } from './site.ts'
import { leadDeliveryTelemetry, recordLeadFormOutcome } from './telemetry/observe.ts'

/** The answer and what to deliver after it; the outcome is already counted. */
export async function decideLeadForm(request: AgentRequest): Promise<LeadFormResult> {
  const site = getSite()
  const result = await answerLeadForm(request, {
    site,
    form: getLeadForm(),
    store: leadStoreFor(site.config),
    limit: getLeadFormLimit(),
    clientAddress: readClientAddress(request, forwardedAddressSource(site.config)),
  })
  recordLeadFormOutcome(result.outcome)
  return result
}

/** The attempt after the form's answer (it never rejects). */
export function deliverLeadAfterAnswer(id: string): Promise<void> {
  return deliverLeadSoon(id, leadDeliveryTelemetry)
}

/** The headers of every page answer of the form's route: the contact page's, never cached, never indexed. */
const contactAnswerHeaders = perSite(
  (site): HeaderList => [
    ['Content-Type', CONTENT_TYPES.html],
    ['Cache-Control', 'no-store'],
    ['Content-Security-Policy', pageContentSecurityPolicy(formActionOrigins(getPageModel('contact'), site.config.appUrl), site.config.baseUrl)],
    ...PAGE_SECURITY_HEADERS,
    ['X-Robots-Tag', 'noindex'],
  ],
)

const encoder = new TextEncoder()

/**
 * The route's answer: the 303 as decided, or the contact page showing the form's state, rendered by
 * `renderPage` (the page's own components, which live in app/) under the page's headers.
 */
export async function leadFormHttpAnswer(
  request: AgentRequest,
  { answer }: LeadFormResult,
  renderPage: (form: LeadFormState) => string | Promise<string>,
): Promise<HttpAnswer> {
  if (answer.kind === 'redirect') return answer.answer
  return {
    status: answer.status,
    headers: [...contactAnswerHeaders(), ...answer.headers],
    body: request.method === 'HEAD' ? null : encoder.encode(await renderPage(answer.form)),
  }
}

/**
 * Where the build puts the contact page's answer renderer compiled for `npm start`, under `.next`
 * (scripts/contact-answer.ts): the server runs the project's TypeScript natively, and JSX is not TypeScript.
 */
export const CONTACT_ANSWER_MODULE = 'server/contact-answer.mjs'

type RenderPage = (form: LeadFormState) => Promise<string>
let builtRenderer: Promise<RenderPage> | undefined

/** The renderer of the running build, loaded on the first page answer. */
function renderBuiltPage(form: LeadFormState): Promise<string> {
  builtRenderer ??= import(pathToFileURL(path.join(process.cwd(), '.next', CONTACT_ANSWER_MODULE)).href).then(
    (module: { renderContactAnswer: RenderPage }) => module.renderContactAnswer,
  )
  return builtRenderer.then((render) => render(form))
}

/** npm start: the answer, then delivery in the same process. */
export async function answerLeadFormDirect(request: AgentRequest): Promise<HttpAnswer> {
  const result = await decideLeadForm(request)
  if (result.deliverId) {
    const id = result.deliverId
    setImmediate(() => void deliverLeadAfterAnswer(id))
  }
  return await leadFormHttpAnswer(request, result, renderBuiltPage)
}

/** GET /api/cron/deliver-leads: one delivery round for Vercel Cron or a scheduler. */
export function answerLeadDeliveryCron(request: Request): Promise<Response> {
  return answerDeliveryCron(request, leadDeliveryTelemetry)
}
