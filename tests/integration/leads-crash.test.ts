/**
 * No lead that got its thank-you is lost: `npm start` of a built site (the SQLite store, a webhook
 * receiver that accepts everything) is killed with SIGKILL while 200 leads are posted through the
 * contact form; every submission that was answered 303 is in the store, and once the site is started
 * again every stored lead reaches the receiver — the background timer picks up what the killed process
 * left pending.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../lib/env.ts'
import { FILL_TIME_FIELD, LEAD_FORM_PATH } from '../../lib/leads/form-fields.ts'
import type { LeadArchive } from '../../lib/leads/lead-archive.ts'
import { openLeadStore } from '../../lib/leads/store.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const SECRET = `whsec_${Buffer.from('crash-test-secret-of-32-bytes-ok').toString('base64')}`
const LEADS = 200
const CONCURRENCY = 10
/** The site is killed after this many thank-yous, with more submissions on the way. */
const KILL_AFTER = 80

let receiver: WebhookReceiver
let site: RunningSite | undefined
const dir = mkdtempSync(path.join(tmpdir(), 'leads-crash-'))
const databasePath = path.join(dir, 'leads.sqlite')

beforeAll(async () => {
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await site?.stop()
  await receiver?.stop()
  rmSync(dir, { recursive: true, force: true })
})

function siteEnv(): Record<string, string> {
  return {
    LEADS_DATABASE_PATH: databasePath,
    LEADS_WEBHOOK_URL: `${receiver.origin}/hooks/leads`,
    LEADS_WEBHOOK_SECRET: SECRET,
    // Each submission comes from an address of its own (the form allows a few per address).
    TRUST_PROXY: '127.0.0.1',
  }
}

function formBody(index: number): string {
  return new URLSearchParams({
    name: `Crash Test ${index}`,
    email: `crash-${index}@example.com`,
    company: 'Kill -9 Ltd',
    teamSize: '11-50',
    goal: `Lead number ${index}: nothing that got a thank-you may be lost.`,
    topic: 'programme',
    [FILL_TIME_FIELD]: '12000',
  }).toString()
}

describe('npm start killed with SIGKILL while leads are posted', () => {
  it('keeps every lead answered 303 and delivers every stored lead after the restart', async () => {
    site = await startSite(siteEnv())
    const running = site
    const thanked = new Set<number>()
    const otherAnswers: string[] = []
    let next = 0
    let killed = false
    const post = async (index: number) => {
      try {
        const response = await running.fetch(LEAD_FORM_PATH, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            'Sec-Fetch-Site': 'same-origin',
            'X-Forwarded-For': `10.${(index >> 8) & 255}.${index & 255}.7`,
          },
          body: formBody(index),
        })
        await response.arrayBuffer()
        if (response.status === 303) thanked.add(index)
        else otherAnswers.push(`submission ${index} answered ${response.status}`)
      } catch {
        // The connection died with the server: no thank-you, so nothing was promised.
      }
      if (!killed && thanked.size >= KILL_AFTER) {
        killed = true
        process.kill(-(running.process.pid as number), 'SIGKILL')
      }
    }
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < LEADS) {
          const index = next
          next += 1
          await post(index)
        }
      }),
    )
    await new Promise<void>((resolve) =>
      running.process.exitCode !== null || running.process.signalCode !== null ? resolve() : running.process.once('exit', () => resolve()),
    )
    expect(running.process.signalCode).toBe('SIGKILL')
    expect(otherAnswers).toEqual([])
    expect(thanked.size).toBeGreaterThanOrEqual(KILL_AFTER)
    expect(thanked.size).toBeLessThan(LEADS)

    // Every thank-you is in the store, read by a process of its own after the kill.
    const store = openLeadStore(
      parseConfig({ LEADS_DATABASE_PATH: databasePath, LEADS_WEBHOOK_URL: receiver.origin, LEADS_WEBHOOK_SECRET: SECRET }),
    ) as LeadArchive
    const stored = await store.list()
    await store.close()
    const storedEmails = new Set(stored.map((lead) => lead.fields.email))
    const missing = [...thanked].filter((index) => !storedEmails.has(`crash-${index}@example.com`))
    expect(missing).toEqual([])
    expect(stored.every((lead) => lead.spamReason === null)).toBe(true)

    // Started again on the same file: what the killed process left pending is delivered.
    site = await startSite(siteEnv())
    const storedIds = new Set(stored.map((lead) => lead.id))
    const deliveredIds = () => new Set(receiver.accepted().map((request) => request.headers['webhook-id']))
    const deadline = Date.now() + 90_000
    while ([...storedIds].some((id) => !deliveredIds().has(id)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250))
    expect([...storedIds].filter((id) => !deliveredIds().has(id))).toEqual([])
    // Nothing but stored leads was delivered, every event verifies.
    expect([...deliveredIds()].filter((id) => !storedIds.has(id as string))).toEqual([])
    const verifier = new Webhook(SECRET)
    for (const request of receiver.accepted()) expect(() => verifier.verify(request.body, request.headers)).not.toThrow()
  }, 240_000)
})
