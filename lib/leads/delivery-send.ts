/**
 * One delivery attempt to one destination: the webhook gets the lead as a Standard Webhooks event
 * (signed by the `standardwebhooks` library, `webhook-id` = the lead's id, so a receiver drops a
 * repeated delivery), Slack a plain-text message. An attempt has a deadline; its outcome names
 * what happened (`HTTP 503`, `timeout`, `connection refused`) and never anything of the lead.
 */
import { Webhook } from 'standardwebhooks'
import type { Destination, StoredLead } from './lead-archive.ts'

export const LEAD_EVENT_TYPE = 'lead.created'

/** The event body: what the visitor wrote and where, not the address hash. */
export function leadEvent(lead: StoredLead) {
  return {
    type: LEAD_EVENT_TYPE,
    timestamp: lead.receivedAt.toISOString(),
    data: {
      id: lead.id,
      receivedAt: lead.receivedAt.toISOString(),
      sourcePage: lead.sourcePage,
      ...lead.fields,
    },
  }
}

/** Slack reads `&`, `<` and `>` as markup (links, mentions); escaped, a name with HTML shows as written. */
export function slackEscape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

export function slackMessage(lead: StoredLead) {
  const { fields } = lead
  const lines = [
    `New lead from ${lead.sourcePage}: ${fields.name} <${fields.email}>`,
    `Company: ${fields.company} · team size: ${fields.teamSize} · topic: ${fields.topic}${fields.plan ? ` · plan: ${fields.plan}` : ''}`,
    '',
    fields.goal,
    '',
    `(${lead.id})`,
  ]
  // mrkdwn off: *bold* or _italics_ in a name stay as typed.
  return { text: slackEscape(lines.join('\n')), mrkdwn: false }
}

export type AttemptOutcome = { delivered: true } | { delivered: false; outcome: string }

export interface DestinationSettings {
  webhook: { url: string; secret: string } | null
  slackWebhookUrl: string | null
}

export async function attemptDelivery(
  lead: StoredLead,
  destination: Destination,
  settings: DestinationSettings,
  timeoutMs: number,
  now: Date = new Date(),
): Promise<AttemptOutcome> {
  if (destination === 'webhook') {
    if (!settings.webhook) return { delivered: false, outcome: 'not configured' }
    const body = JSON.stringify(leadEvent(lead))
    const signature = new Webhook(settings.webhook.secret).sign(lead.id, now, body)
    return post(settings.webhook.url, body, timeoutMs, {
      'webhook-id': lead.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    })
  }
  if (!settings.slackWebhookUrl) return { delivered: false, outcome: 'not configured' }
  return post(settings.slackWebhookUrl, JSON.stringify(slackMessage(lead)), timeoutMs, {})
}

async function post(url: string, body: string, timeoutMs: number, headers: Record<string, string>): Promise<AttemptOutcome> {
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'cadence-site-leads', ...headers },
      body,
      // A redirect is not an acceptance: the receiver's URL is wrong, and the operator should hear of it.
      redirect: 'manual',
      signal,
    })
    // The answer's body is not needed, only its status; reading it is still bounded by the deadline.
    await response.body?.cancel().catch(() => {})
    return response.status >= 200 && response.status < 300 ? { delivered: true } : { delivered: false, outcome: `HTTP ${response.status}` }
  } catch (error) {
    return { delivered: false, outcome: failureName(error, signal) }
  }
}

function failureName(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout'
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined
  const code = typeof cause?.code === 'string' ? cause.code : undefined
  if (code === 'ECONNREFUSED') return 'connection refused'
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found'
  return code ? `network error ${code}` : 'network error'
}
