/**
 * No lead that got its thank-you is lost: `npm start` of a built site (the SQLite store, a webhook
 * receiver that accepts everything) is killed with SIGKILL while 200 leads are posted through the
 * contact form; every submission that was answered 303 is in the store, and once the site is started
 * again every stored lead reaches the receiver — the background timer picks up what the killed process
 * left pending. Killed while deliveries are in flight, it sends again only those, with the same
 * webhook-id and the same payload.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../lib/env.ts'
import { LEAD_FORM_PATH } from '../../lib/leads/form-fields.ts'
import { FILL_TIME_FIELD } from '../../lib/routes/page-script-hooks.ts'
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
    // What the killed process left is delivered at once, not at the sales channel's pace.
    LEADS_DELIVERIES_PER_MINUTE: '100000',
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

describe('npm start killed with SIGKILL while deliveries are in flight', () => {
  it('sends again, after the restart, only what was in flight at the kill, each with the same webhook-id and payload; every lead arrives', async () => {
    const slowReceiver = await startWebhookReceiver({ slowMs: 3_000 })
    await slowReceiver.setMode('slow')
    const env = {
      LEADS_DATABASE_PATH: path.join(dir, 'in-flight/leads.sqlite'),
      LEADS_WEBHOOK_URL: `${slowReceiver.origin}/hooks/leads`,
      LEADS_WEBHOOK_SECRET: SECRET,
      TRUST_PROXY: '127.0.0.1',
      LEADS_DELIVERIES_PER_MINUTE: '100000',
    }
    let running: RunningSite | undefined
    try {
      running = await startSite(env)
      const started = running
      for (let index = 0; index < 30; index += 1) {
        const response = await started.fetch(LEAD_FORM_PATH, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', 'X-Forwarded-For': `10.9.0.${index + 1}` },
          body: formBody(1_000 + index),
        })
        await response.arrayBuffer()
        expect(response.status).toBe(303)
      }
      // Each post's first attempt is under way: the receiver holds it for 3 s.
      const deadline = Date.now() + 10_000
      while (slowReceiver.received().length < 10 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
      process.kill(-(started.process.pid as number), 'SIGKILL')
      await new Promise<void>((resolve) =>
        started.process.exitCode !== null || started.process.signalCode !== null ? resolve() : started.process.once('exit', () => resolve()),
      )
      // A send the killed process wrote just before the kill may reach the receiver after the exit is
      // seen: it was in flight too. The receiver is read once it has taken nothing new for half a second.
      let seen = -1
      const settle = Date.now() + 5_000
      while (slowReceiver.received().length !== seen && Date.now() < settle) {
        seen = slowReceiver.received().length
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
      const inFlight = new Set(slowReceiver.received().map((request) => request.headers['webhook-id']))
      expect(inFlight.size).toBeGreaterThanOrEqual(10)

      running = await startSite(env)
      const store = openLeadStore(parseConfig(env)) as LeadArchive
      const storedIds = (await store.list()).map((lead) => lead.id)
      await store.close()
      expect(storedIds).toHaveLength(30)
      const acceptedIds = () => new Set(slowReceiver.accepted().map((request) => request.headers['webhook-id']))
      const until = Date.now() + 90_000
      while (storedIds.some((id) => !acceptedIds().has(id)) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 250))
      expect(storedIds.filter((id) => !acceptedIds().has(id))).toEqual([])

      const sends = new Map<string, string[]>()
      for (const request of slowReceiver.received())
        sends.set(request.headers['webhook-id'] as string, [...(sends.get(request.headers['webhook-id'] as string) ?? []), request.body])
      const repeated = [...sends].filter(([, bodies]) => bodies.length > 1)
      expect(repeated.length).toBeGreaterThan(0)
      expect(repeated.filter(([id]) => !inFlight.has(id))).toEqual([])
      for (const [, bodies] of repeated) expect(new Set(bodies).size).toBe(1)
    } finally {
      await running?.stop()
      await slowReceiver.stop()
    }
  }, 180_000)
})
