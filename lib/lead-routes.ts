/**
 * The contact form's routes as they are served: the form's decision (lib/leads/submission.ts) with
 * this deployment's form, store, address limit and client address, its outcome counted by telemetry
 * (the outcome only, never a field), the answer with the contact page's headers around the page the
 * route renders, delivery started once the answer is out (`after()`, in the route), and the cron route
 * of delivery rounds, each attempt seen by telemetry by its destination's kind and origin only.
 */
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

/** GET /api/cron/deliver-leads: one delivery round for Vercel Cron or a scheduler. */
export function answerLeadDeliveryCron(request: Request): Promise<Response> {
  return answerDeliveryCron(request, leadDeliveryTelemetry)
}
