/**
 * Nothing secret or personal leaves in telemetry: a built site on npm start and on next start, with
 * OpenTelemetry exporting to a loopback OTLP receiver (the SDK's default protocol, protobuf, for
 * traces), delivers a lead to a CRM webhook whose URL carries a token and to a Slack webhook whose
 * path is its secret, once accepted and once refused. Every byte exported and every line the server
 * printed is searched for the token, the Slack secret, the lead's email and name: none is there, while
 * the delivery spans are, named by the destination's kind and carrying its origin.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEAD_FORM_PATH } from '../../lib/leads/form-fields.ts'
import { FILL_TIME_FIELD } from '../../lib/routes/page-script-hooks.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const SECRET = `whsec_${Buffer.from('telemetry-test-secret-of-32-byte').toString('base64')}`
const unique = () => Math.random().toString(36).slice(2, 12)

describe.each(['npm-start', 'next-start'] as const)('lead deliveries on %s with OpenTelemetry on', (server) => {
  let receiver: WebhookReceiver
  let otlp: OtlpReceiver
  let site: RunningSite
  const dir = mkdtempSync(path.join(tmpdir(), 'leads-telemetry-'))
  const crmToken = `crm-token-${unique()}`
  const slackSecret = `slack-secret-${unique()}`
  const people = [0, 1].map(() => ({ name: `Telemetry Visitor ${unique()}`, email: `otel-${unique()}@example.com` }))

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    otlp = await startOtlpReceiver()
    site = await startSite(
      {
        LEADS_DATABASE_PATH: path.join(dir, 'leads.sqlite'),
        LEADS_WEBHOOK_URL: `${receiver.origin}/hooks/leads?token=${crmToken}`,
        LEADS_WEBHOOK_SECRET: SECRET,
        LEADS_SLACK_WEBHOOK_URL: `${receiver.origin}/services/T000/B000/${slackSecret}`,
        TRUST_PROXY: '127.0.0.1',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_METRIC_EXPORT_INTERVAL: '300',
      },
      { server },
    )
  })
  afterAll(async () => {
    await site?.stop()
    await otlp?.close()
    await receiver?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  const send = async (person: { name: string; email: string }, address: string) => {
    const response = await site.fetch(LEAD_FORM_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', 'X-Forwarded-For': address },
      body: new URLSearchParams({
        ...person,
        company: 'Observed Ltd',
        teamSize: '11-50',
        goal: 'Nothing of this may reach a trace.',
        topic: 'programme',
        [FILL_TIME_FIELD]: '20000',
      }).toString(),
    })
    await response.arrayBuffer()
    expect(response.status).toBe(303)
  }

  const until = async (condition: () => boolean) => {
    const deadline = Date.now() + 20_000
    while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
  }

  it('exports the delivery spans by kind and origin, and no byte of the token, the Slack secret, or the email or name', async () => {
    await send(people[0] as { name: string; email: string }, '10.3.0.1')
    await until(() => receiver.accepted().length >= 2)
    await receiver.setMode('error')
    await send(people[1] as { name: string; email: string }, '10.3.0.2')
    await until(() => (receiver.refused().error ?? 0) >= 2)
    const exported = () => otlp.bytes().toString('latin1')
    await until(() =>
      ['lead delivery webhook', 'lead delivery slack', 'HTTP 503', 'cadence.lead_delivery.attempts'].every((text) => exported().includes(text)),
    )
    // The refused attempt prints its line once it has also tried whatever else was due, after its spans ended.
    await until(() => site.output().includes('[leads] deliveries: 2 retried'))

    expect(
      receiver
        .accepted()
        .map((request) => request.path)
        .sort(),
    ).toEqual([`/hooks/leads?token=${crmToken}`, `/services/T000/B000/${slackSecret}`])
    const bytes = exported()
    for (const text of ['lead delivery webhook', 'lead delivery slack', receiver.origin, 'delivered', 'HTTP 503', 'cadence.lead_delivery.attempts']) {
      expect(bytes, `the export names ${text}`).toContain(text)
    }
    const secrets = [crmToken, slackSecret, 'T000/B000', ...people.flatMap((person) => [person.name, person.email])]
    for (const secret of secrets) {
      expect(bytes.includes(secret), `exported bytes hold ${secret}`).toBe(false)
      expect(site.output().includes(secret), `server output holds ${secret}`).toBe(false)
    }
    expect(site.output()).toContain('[leads] deliveries: 2 retried')
  }, 60_000)
})
