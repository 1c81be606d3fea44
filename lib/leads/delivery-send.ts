/**
 * One delivery attempt to one destination: the webhook gets the lead as a Standard Webhooks event
 * (signed by the `standardwebhooks` library, `webhook-id` = the lead's id, so a receiver drops a
 * repeated delivery), Slack a plain-text message. An attempt has a deadline; its outcome names
 * what happened (`HTTP 503`, `timeout`, `connection refused`) and never anything of the lead.
 *
 * HTTP client instrumentations (Next's on fetch, @vercel/otel's on fetch and node:http) name each
 * request's span after its full URL and record it as an attribute, and a Slack webhook URL is itself a
 * credential, as is a CRM URL's `?token=`: delivery.ts runs each attempt where no instrumentation
 * records it, and telemetry hears of it by the destination's kind and origin only.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { Webhook } from 'standardwebhooks'
import type { LeadSettings } from '../env.ts'
import { escapeControls } from './control-characters.ts'
import { describeAttribution } from './leads-csv.ts'
import type { Destination, StoredLead } from './lead-archive.ts'

const LEAD_EVENT_TYPE = 'lead.created'

/** The event body: what the visitor wrote, where, and where the visit came from; not the address hash. */
export function leadEvent(lead: StoredLead) {
  return {
    type: LEAD_EVENT_TYPE,
    timestamp: lead.receivedAt.toISOString(),
    data: {
      id: lead.id,
      receivedAt: lead.receivedAt.toISOString(),
      sourcePage: lead.sourcePage,
      ...lead.fields,
      attribution: lead.attribution,
    },
  }
}

/** Slack reads `&`, `<` and `>` as markup (links, mentions); escaped, a name with HTML shows as written. */
export function slackEscape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

export function slackMessage(lead: StoredLead) {
  // Shown as stored, but no control character reaches the channel as one (lib/leads/control-characters.ts).
  const line = (text: string) => escapeControls(text)
  const { fields } = lead
  const from = describeAttribution(lead.attribution)
  const lines = [
    `New lead from ${line(lead.sourcePage)}: ${line(fields.name)} <${line(fields.email)}>`,
    `Company: ${line(fields.company)} · team size: ${line(fields.teamSize)} · topic: ${line(fields.topic)}${fields.plan ? ` · plan: ${line(fields.plan)}` : ''}`,
    '',
    escapeControls(fields.goal, { lineBreaks: true }),
    '',
    ...(from ? [`From: ${line(from)}`] : []),
    `(${lead.id})`,
  ]
  // mrkdwn off: *bold* or _italics_ in a name stay as typed.
  return { text: slackEscape(lines.join('\n')), mrkdwn: false }
}

export type AttemptOutcome = { delivered: true } | { delivered: false; outcome: string }

type DestinationSettings = Pick<LeadSettings, 'webhook' | 'slackWebhookUrl'>

function destinationUrl(settings: DestinationSettings, destination: Destination): string | null {
  return destination === 'webhook' ? (settings.webhook?.url ?? null) : settings.slackWebhookUrl
}

/** What may be said of where a destination is: its kind's origin (scheme, host, port), never its path or query. */
export function destinationOrigin(settings: DestinationSettings, destination: Destination): string {
  const url = destinationUrl(settings, destination)
  return url ? new URL(url).origin : 'not configured'
}

export async function attemptDelivery(
  lead: StoredLead,
  destination: Destination,
  settings: DestinationSettings,
  timeoutMs: number,
  now: Date = new Date(),
): Promise<AttemptOutcome> {
  const url = destinationUrl(settings, destination)
  if (!url) return { delivered: false, outcome: 'not configured' }
  if (destination === 'webhook' && settings.webhook) {
    const body = JSON.stringify(leadEvent(lead))
    const signature = new Webhook(settings.webhook.secret).sign(lead.id, now, body)
    return post(url, body, timeoutMs, {
      'webhook-id': lead.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    })
  }
  return post(url, JSON.stringify(slackMessage(lead)), timeoutMs, {})
}

/** One POST: 2xx is delivered; anything else, or no answer within the deadline, is not. */
function post(url: string, body: string, timeoutMs: number, headers: Record<string, string>): Promise<AttemptOutcome> {
  const signal = AbortSignal.timeout(timeoutMs)
  const payload = Buffer.from(body)
  const send = url.startsWith('https:') ? httpsRequest : httpRequest
  return new Promise((resolve) => {
    const outgoing = send(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length, 'User-Agent': 'cadence-site-leads', ...headers },
        signal,
      },
      (response: IncomingMessage) => {
        // Only the status counts; the answer's body is drained. A redirect is not an acceptance: the
        // receiver's URL is wrong, and the operator should hear of it.
        const status = response.statusCode ?? 0
        response.resume()
        resolve(status >= 200 && status < 300 ? { delivered: true } : { delivered: false, outcome: `HTTP ${status}` })
      },
    )
    outgoing.on('error', (error) => resolve({ delivered: false, outcome: failureName(error, signal) }))
    outgoing.end(payload)
  })
}

function failureName(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout'
  const code = (error as { code?: unknown } | undefined)?.code
  if (code === 'ECONNREFUSED') return 'connection refused'
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection reset'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found'
  return typeof code === 'string' ? `network error ${code}` : 'network error'
}
