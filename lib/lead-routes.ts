/**
 * The contact form's route as it is served: the form's handler (lib/leads/submission.ts) with this
 * deployment's form, store, address limit and client address, its outcome counted by telemetry (the
 * outcome only, never a field), and delivery started once the answer is out. `npm start` serves
 * `answerLeadFormDirect` itself (lib/server/direct-routes.ts); app/contact/send/route.ts serves the
 * same decision under Next and Vercel, where delivery runs in `after()`.
 */
import { readClientAddress } from './client-address.ts'
import type { AgentRequest } from './http/agent-request.ts'
import type { HttpAnswer } from './http/http-answer.ts'
import { deliverLeadSoon } from './leads/delivery.ts'
import { getLeadForm } from './leads/form.ts'
import { getLeadFormLimit } from './leads/form-limit.ts'
import { leadStoreFor } from './leads/store.ts'
import { answerLeadForm, type LeadFormResult } from './leads/submission.ts'
import { getSite } from './site.ts'
import { recordLeadFormOutcome } from './telemetry/observe.ts'

/** The answer and what to deliver after it; the outcome is already counted. */
export async function decideLeadForm(request: AgentRequest): Promise<LeadFormResult> {
  const site = getSite()
  const result = await answerLeadForm(request, {
    site,
    form: getLeadForm(),
    store: leadStoreFor(site.config),
    limit: getLeadFormLimit(),
    // npm start resolved the address on the request itself; under Next and Vercel it comes from the headers.
    clientAddress: readClientAddress(request, site.config.onVercel ? 'vercel' : 'unverified'),
  })
  recordLeadFormOutcome(result.outcome)
  return result
}

/** npm start: the answer, then delivery in the same process (it never rejects). */
export async function answerLeadFormDirect(request: AgentRequest): Promise<HttpAnswer> {
  const result = await decideLeadForm(request)
  if (result.deliverId) {
    const id = result.deliverId
    setImmediate(() => void deliverLeadSoon(id))
  }
  return result.answer
}
