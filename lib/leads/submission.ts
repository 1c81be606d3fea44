/**
 * The contact form's route, decided here and served thinly by app/(marketing)/contact/send/route.ts:
 * a plain HTML form post (application/x-www-form-urlencoded) becomes a lead that is stored before it
 * is acknowledged. The decision is a status, its headers and what the contact page shows in the
 * answer (`LeadFormState`); the page itself is rendered by the page's own components
 * (app/_components/contact-answer.tsx).
 *
 * - A good submission is saved, then answered `303 See Other` to the thank-you page, so a reload or
 *   Back never posts twice; delivery starts after the answer (`deliverId`, which the caller runs).
 * - A mistake answers 422 with the contact page, the form filled in as typed and a message at each
 *   wrong field.
 * - Suspected spam (the honeypot, or a submit faster than a person types) is stored with its reason,
 *   delivered only if the operator releases it, and answered like any other good submission. A form
 *   shown again (after a mistake, a limit or an outage) carries the time already spent filling it, and
 *   a form the browser's agent filled is not judged by its speed: a person is never taken for a script.
 * - What is not a form post from this site gets a page that says so: 405 (with Allow), 403 for a
 *   cross-site post, 415, 413, 429 with Retry-After, 503 where leads cannot be kept durably.
 *
 * Only the outcome leaves this module for logs and metrics (`LeadFormOutcome`), never a field.
 */
import { createHash } from 'node:crypto'
import { readBodyText, type AgentRequest } from '../http/agent-request.ts'
import type { HeaderList } from '../http/header-list.ts'
import type { HttpAnswer } from '../http/http-answer.ts'
import { quotaBucketKey } from '../net/ip-address.ts'
import type { Site } from '../site.ts'
import {
  carriedSource,
  checkLeadForm,
  LEAD_FORM_MAX_BODY_BYTES,
  LEAD_THANKS_PATH,
  leadAttribution,
  readLeadForm,
  sourceFromReferer,
  spamReasonOf,
} from './form-fields.ts'
import type { LeadForm } from './form.ts'
import { retryAfterSeconds, type LeadFormLimit } from './form-limit.ts'
import type { LeadFormState } from './form-view.ts'
import type { LeadStore } from './lead.ts'

type LeadFormOutcome =
  | 'stored'
  | 'duplicate'
  | 'spam'
  | 'invalid'
  | 'limited'
  | 'cross-site'
  | 'too-large'
  | 'unsupported-type'
  | 'wrong-method'
  | 'unavailable'
  | 'store-failed'

/** The 303 to the thank-you page, or the contact page with what its sales form shows, under this status and these headers. */
type LeadFormAnswer = { kind: 'redirect'; answer: HttpAnswer } | { kind: 'page'; status: number; headers: HeaderList; form: LeadFormState }

export interface LeadFormResult {
  answer: LeadFormAnswer
  outcome: LeadFormOutcome
  /** The stored lead to deliver after the answer, or null (nothing stored, spam, or a duplicate). */
  deliverId: string | null
}

export interface LeadFormContext {
  site: Site
  form: LeadForm
  /** Null where the deployment has no durable store. */
  store: LeadStore | null
  limit: LeadFormLimit
  /** The client address as the deployment delivers it (lib/client-address.ts), or null when unknown. */
  clientAddress: string | null
  now?: () => Date
}

const LEAD_FORM_METHODS = 'POST'
const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded'
const encoder = new TextEncoder()

/**
 * The client as kept with a lead and counted by the limit: a salted SHA-256 of its quota bucket (an
 * IPv4 address, or the /64 of an IPv6 address, as the agent quota counts them), never the address.
 */
function hashClientAddress(address: string | null, salt: string): string {
  return createHash('sha256')
    .update(`${salt}\n${quotaBucketKey(address)}`)
    .digest('hex')
}

/**
 * A post from a page of this site: browsers say so in Sec-Fetch-Site; older ones send Origin, which
 * must be the site's. A client that sends neither (a script, curl) is no browser another site could
 * have led, and the other checks hold for it as for anyone.
 */
function isSameOriginPost(request: AgentRequest, baseUrl: string): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site !== null) return site === 'same-origin'
  const origin = request.headers.get('origin')
  if (origin === null) return true
  return siteOrigins(request, baseUrl).includes(origin)
}

/**
 * The site's origins as a request may name them: the published one, the one the request was made to,
 * and, for a post the browser says is same-origin, the origin it names (behind a proxy, the address
 * the server was reached at is not the one the visitor used).
 */
function siteOrigins(request: AgentRequest, baseUrl: string): string[] {
  const origins = [new URL(baseUrl).origin, new URL(request.url).origin]
  const origin = request.headers.get('origin')
  if (origin && request.headers.get('sec-fetch-site') === 'same-origin') origins.push(origin)
  return origins
}

function isFormPost(request: AgentRequest): boolean {
  const type = request.headers.get('content-type')
  if (type === null) return false
  return type.split(';')[0]?.trim().toLowerCase() === FORM_CONTENT_TYPE
}

export async function answerLeadForm(request: AgentRequest, context: LeadFormContext): Promise<LeadFormResult> {
  const { site, form } = context
  const email = site.content.contact.data.email
  const page = (status: number, state: LeadFormState, headers: HeaderList = []): LeadFormAnswer => ({ kind: 'page', status, headers, form: state })
  const notice = (title: string, text: string): LeadFormState => ({ kind: 'notice', title, text })
  const result = (outcome: LeadFormOutcome, answer: LeadFormAnswer, deliverId: string | null = null): LeadFormResult => ({
    answer,
    outcome,
    deliverId,
  })

  if (request.method !== 'POST') {
    return result(
      'wrong-method',
      page(405, notice('This address takes the contact form only', 'Please send the form on the contact page, or write to us by email.'), [
        ['Allow', LEAD_FORM_METHODS],
      ]),
    )
  }
  if (!context.store) {
    return result('unavailable', page(503, notice('Please write to us by email', form.view.unavailable)))
  }
  if (!isSameOriginPost(request, site.config.baseUrl)) {
    return result('cross-site', page(403, notice('This form was sent from another site', `Please use the form on this page, or write to ${email}.`)))
  }
  if (!isFormPost(request)) {
    return result(
      'unsupported-type',
      page(415, notice('The form arrived in a format we do not read', `Please send the form on this page, or write to ${email}.`), [
        ['Accept-Post', FORM_CONTENT_TYPE],
      ]),
    )
  }
  const body = await readBodyText(request, LEAD_FORM_MAX_BODY_BYTES)
  if (body.tooLarge) {
    return result('too-large', page(413, notice('Your message is too long for the form', `Please shorten it, or send it to ${email}.`)))
  }
  const submitted = readLeadForm(body.text)
  const { values, filling } = submitted
  const attribution = leadAttribution(submitted, sourceFromReferer(request.headers.get('referer'), siteOrigins(request, site.config.baseUrl)))
  // A form shown again carries where the visit came from, so that the next post keeps it, script or not.
  const source = carriedSource(attribution)
  const verdict = checkLeadForm(values, form.schema)
  if (!verdict.ok) return result('invalid', page(422, { kind: 'form', values, errors: verdict.errors, filling, source }))

  const now = context.now?.() ?? new Date()
  const storeFailed = () => {
    // Not stored, so not acknowledged: the visitor keeps what they typed and learns where else to send it.
    const message = `We could not take your message just now, so nothing was sent. Please try again in a minute, or write to ${email}.`
    return result('store-failed', page(503, { kind: 'form', values, message, filling, source }, [['Retry-After', '60']]))
  }
  let addressHash: string
  try {
    addressHash = hashClientAddress(context.clientAddress, site.config.leads.addressSalt ?? (await context.store.addressSalt()))
  } catch {
    return storeFailed()
  }
  const decision = await context.limit.consume(addressHash)
  if (!decision.allowed) {
    const seconds = retryAfterSeconds(decision, now.getTime())
    const minutes = Math.ceil(seconds / 60)
    const message =
      `You have sent this form several times in a short while. Nothing was sent this time: please try again in ` +
      `${minutes === 1 ? 'a minute' : `${minutes} minutes`}, or write to ${email}.`
    return result('limited', page(429, { kind: 'form', values, message, filling, source }, [['Retry-After', String(seconds)]]))
  }
  const spamReason = spamReasonOf(submitted)
  let saved: { id: string; duplicate: boolean }
  try {
    saved = await context.store.save({ fields: verdict.fields, attribution, receivedAt: now, sourcePage: '/contact', addressHash, spamReason })
  } catch {
    return storeFailed()
  }
  const outcome: LeadFormOutcome = spamReason !== null ? 'spam' : saved.duplicate ? 'duplicate' : 'stored'
  const thanks: HttpAnswer = {
    status: 303,
    headers: [
      ['Location', LEAD_THANKS_PATH],
      ['Cache-Control', 'no-store'],
      ['Content-Type', 'text/plain; charset=utf-8'],
    ],
    body: encoder.encode(`See ${LEAD_THANKS_PATH}\n`),
  }
  return result(outcome, { kind: 'redirect', answer: thanks }, outcome === 'stored' ? saved.id : null)
}
