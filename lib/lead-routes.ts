/**
 * The contact form's routes as they are served: the form's handler (lib/leads/submission.ts) with this
 * deployment's form, store, address limit and client address, its outcome counted by telemetry (the
 * outcome only, never a field), delivery started once the answer is out, and the cron route of
 * delivery rounds, each attempt seen by telemetry by its destination's kind and origin only. `npm
 * start` serves `answerLeadFormDirect` itself (lib/server/direct-routes.ts); the app/ route files
 * serve the same decisions under Next and Vercel, where delivery runs in `after()`.
 */
import { forwardedAddressSource, readClientAddress } from './client-address.ts'
import type { AgentRequest } from './http/agent-request.ts'
import type { HttpAnswer } from './http/http-answer.ts'
import { deliverLeadSoon } from './leads/delivery.ts'
import { answerDeliveryCron } from './leads/delivery-cron.ts'
import { getLeadForm } from './leads/form.ts'
import { getLeadFormLimit } from './leads/form-limit.ts'
import { leadStoreFor } from './leads/store.ts'
import { answerLeadForm, type LeadFormResult } from './leads/submission.ts'
import { getSite } from './site.ts'
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

/** npm start: the answer, then delivery in the same process. */
export async function answerLeadFormDirect(request: AgentRequest): Promise<HttpAnswer> {
  const result = await decideLeadForm(request)
  if (result.deliverId) {
    const id = result.deliverId
    setImmediate(() => void deliverLeadAfterAnswer(id))
  }
  return result.answer
}

/** GET /api/cron/deliver-leads: one delivery round for Vercel Cron or a scheduler. */
export function answerLeadDeliveryCron(request: Request): Promise<Response> {
  return answerDeliveryCron(request, leadDeliveryTelemetry)
}
