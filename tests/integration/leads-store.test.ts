/**
 * The lead store and delivery with real components: an SQLite file (node:sqlite) and a real Redis behind
 * the Upstash REST bridge, and a loopback receiver that is down, then hangs, then answers 503, then is
 * slow, then up. Delivery is driven in-process on a controlled schedule clock (the backoff of 30 s and
 * more is not waited for); each attempt is a real HTTP request with a short deadline.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig, type SiteConfig } from '../../lib/env.ts'
import type { LeadFields, NewLead } from '../../lib/leads/lead.ts'
import type { LeadArchive } from '../../lib/leads/lead-archive.ts'
import { deliverPending } from '../../lib/leads/delivery.ts'
import { DELIVERY_SCHEDULE } from '../../lib/leads/delivery-schedule.ts'
import { openLeadStore } from '../../lib/leads/store.ts'
import { startRedis, type RunningRedis } from '../../harness/redis.ts'
import { startUpstashBridge, type UpstashBridge } from '../../harness/upstash-bridge.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const SECRET = `whsec_${Buffer.from('leads-store-test-secret-32-bytes!').toString('base64')}`

/** Names and messages that a store or an export could mangle. */
const AWKWARD_FIELDS: LeadFields = {
  name: `Zoë "Z" O'Brien <b>&amp;</b> 🚀 שלום مرحبا`,
  email: 'zoe@example.com',
  company: '=HYPERLINK("http://evil.example","click"), Inc.',
  teamSize: '11-50',
  goal: `Line one\r\nline "two", with commas\n${'€ 10 KB of text. '.repeat(600)}`,
  topic: 'pricing',
  plan: 'team',
}

function lead(overrides: Partial<Omit<NewLead, 'fields'>> & { fields?: Partial<LeadFields> } = {}): NewLead {
  return {
    receivedAt: overrides.receivedAt ?? new Date(),
    sourcePage: overrides.sourcePage ?? '/contact',
    addressHash: overrides.addressHash ?? 'sha256:test-hash',
    spam: overrides.spam ?? false,
    fields: { ...AWKWARD_FIELDS, ...overrides.fields },
  }
}

let redis: RunningRedis
let bridge: UpstashBridge
let receiver: WebhookReceiver
const dir = mkdtempSync(path.join(tmpdir(), 'leads-store-'))

beforeAll(async () => {
  redis = await startRedis()
  bridge = await startUpstashBridge({ redisPort: redis.port })
  receiver = await startWebhookReceiver({ slowMs: 150 })
})
afterAll(async () => {
  await receiver?.stop()
  await bridge?.stop()
  await redis?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

const stores: Array<[string, () => SiteConfig]> = [
  ['SQLite file', () => settings({ LEADS_DATABASE_PATH: path.join(dir, `nested/dir-${Math.random().toString(36).slice(2)}/leads.sqlite`) })],
  [
    'Upstash Redis',
    () =>
      settings({
        UPSTASH_REDIS_REST_URL: bridge.url,
        UPSTASH_REDIS_REST_TOKEN: bridge.token,
        REDIS_KEY_PREFIX: `test-${Math.random().toString(36).slice(2)}`,
      }),
  ],
]

function settings(env: Record<string, string>): SiteConfig {
  return parseConfig({
    LEADS_WEBHOOK_URL: `${receiver.origin}/hooks/leads`,
    LEADS_WEBHOOK_SECRET: SECRET,
    LEADS_SLACK_WEBHOOK_URL: `${receiver.origin}/slack`,
    ...env,
  })
}

describe.each(stores)('the %s store', (_name, configOf) => {
  let config: SiteConfig
  let store: LeadArchive
  beforeAll(() => {
    config = configOf()
    store = openLeadStore(config) as LeadArchive
  })
  afterAll(async () => {
    await store?.close()
  })

  it('keeps quotes, HTML, emoji, right-to-left text and a 10 KB message exactly, with the time, page and address hash', async () => {
    const receivedAt = new Date('2026-11-26T09:00:00.123Z')
    const saved = await store.save(lead({ receivedAt, sourcePage: '/contact?plan=team', addressHash: 'sha256:abc' }))
    expect(saved.duplicate).toBe(false)
    expect(saved.id).toMatch(/^lead_[0-9a-z]{25}$/)
    const stored = (await store.list()).find((entry) => entry.id === saved.id)
    expect(stored).toMatchObject({
      id: saved.id,
      fields: AWKWARD_FIELDS,
      receivedAt,
      sourcePage: '/contact?plan=team',
      addressHash: 'sha256:abc',
      spam: false,
    })
    expect(stored?.fields.goal.length).toBeGreaterThan(10_000)
  })

  it('stores the same email (any case) and message within minutes once: duplicate, same id', async () => {
    const first = await store.save(lead({ fields: { email: 'dup@example.com', goal: 'Call me' } }))
    const again = await store.save(lead({ fields: { email: 'DUP@example.com ', goal: 'Call me' }, receivedAt: new Date(Date.now() + 60_000) }))
    const otherMessage = await store.save(lead({ fields: { email: 'dup@example.com', goal: 'Something else' } }))
    expect(again).toEqual({ id: first.id, duplicate: true })
    expect(otherMessage.duplicate).toBe(false)
    expect(otherMessage.id).not.toBe(first.id)
  })

  it('stores 100 concurrent submissions, each once', async () => {
    const saved = await Promise.all(Array.from({ length: 100 }, (_, index) => store.save(lead({ fields: { email: `burst-${index}@example.com` } }))))
    expect(new Set(saved.map((entry) => entry.id)).size).toBe(100)
    const ids = new Set((await store.list()).map((entry) => entry.id))
    for (const entry of saved) expect(ids.has(entry.id)).toBe(true)
  })

  it('purges leads older than the cutoff and keeps the rest', async () => {
    const old = await store.save(lead({ fields: { email: 'old@example.com' }, receivedAt: new Date(Date.now() - 200 * 86_400_000) }))
    const recent = await store.save(lead({ fields: { email: 'recent@example.com' } }))
    const purged = await store.purge(new Date(Date.now() - 180 * 86_400_000))
    expect(purged).toBe(1)
    const ids = (await store.list()).map((entry) => entry.id)
    expect(ids).not.toContain(old.id)
    expect(ids).toContain(recent.id)
  })
})

describe.each(stores)('delivery from the %s store to a receiver that is down, hangs, fails, is slow, then up', (_name, configOf) => {
  it('delivers every lead once per destination, signed, never the spam; outcomes name no lead field', async () => {
    const config = configOf()
    const store = openLeadStore(config) as LeadArchive
    try {
      // A store of its own for this test: earlier leads of the file are not part of it.
      for (const entry of await store.list()) await store.purge(new Date(entry.receivedAt.getTime() + 1))
      const t0 = Date.now()
      let clock = t0
      const now = () => new Date(clock)
      const options = { now, attemptTimeoutMs: 1_000, random: () => 0 }
      const real = await Promise.all(
        Array.from({ length: 6 }, (_, index) => store.save(lead({ receivedAt: new Date(t0), fields: { email: `deliver-${index}@example.com` } }))),
      )
      const spam = await store.save(lead({ receivedAt: new Date(t0), spam: true, fields: { email: 'bot@example.com' } }))
      const ids = real.map((entry) => entry.id)
      const rounds: Array<[string, Awaited<ReturnType<typeof deliverPending>>, string[]]> = []
      const step = async (mode: 'down' | 'hang' | 'error' | 'slow' | 'up', advanceMs: number) => {
        await receiver.setMode(mode)
        clock += advanceMs
        const counts = await deliverPending(store, config.leads, options)
        const outcomes = (await store.list()).flatMap((entry) => Object.values(entry.deliveries).map((state) => state.lastOutcome ?? 'none'))
        rounds.push([mode, counts, [...new Set(outcomes)]])
      }
      const before = receiver.accepted().length
      await step('down', 0)
      await step('hang', 31_000)
      await step('error', 61_000)
      // Slow but within the deadline: accepted. Then nothing is left to deliver.
      await step('slow', 121_000)
      await step('up', 241_000)
      expect(rounds).toEqual([
        ['down', { delivered: 0, retried: 12, failed: 0 }, ['connection refused']],
        ['hang', { delivered: 0, retried: 12, failed: 0 }, ['timeout']],
        ['error', { delivered: 0, retried: 12, failed: 0 }, ['HTTP 503']],
        ['slow', { delivered: 12, retried: 0, failed: 0 }, ['delivered']],
        ['up', { delivered: 0, retried: 0, failed: 0 }, ['delivered']],
      ])
      const accepted = receiver.accepted().slice(before)
      const webhooks = accepted.filter((request) => request.path === '/hooks/leads')
      const slack = accepted.filter((request) => request.path === '/slack')
      expect(webhooks.map((request) => request.headers['webhook-id']).sort()).toEqual([...ids].sort())
      expect(slack.map((request) => /\((lead_[0-9a-z]+)\)$/.exec(JSON.parse(request.body).text)?.[1]).sort()).toEqual([...ids].sort())
      const verifier = new Webhook(SECRET)
      for (const request of webhooks) {
        const event = verifier.verify(request.body, request.headers) as { type: string; data: Record<string, unknown> }
        expect(event.type).toBe('lead.created')
        expect(event.data).toEqual({
          id: request.headers['webhook-id'],
          receivedAt: new Date(t0).toISOString(),
          sourcePage: '/contact',
          ...AWKWARD_FIELDS,
          email: (event.data as { email: string }).email,
        })
      }
      // Slack shows the name with its HTML literally.
      expect(JSON.parse(slack[0]?.body ?? '{}').text).toContain('Zoë "Z" O\'Brien &lt;b&gt;&amp;amp;&lt;/b&gt; 🚀 שלום مرحبا')
      const stored = await store.list()
      const spamStored = stored.find((entry) => entry.id === spam.id)
      expect(spamStored?.spam).toBe(true)
      expect(spamStored?.deliveries).toEqual({})
      for (const id of ids) {
        const entry = stored.find((candidate) => candidate.id === id)
        for (const destination of ['webhook', 'slack'] as const) {
          expect(entry?.deliveries[destination]).toMatchObject({ state: 'delivered', attempts: 4, lastOutcome: 'delivered', nextAttemptAt: null })
        }
      }
      expect(accepted.some((request) => request.body.includes('bot@example.com'))).toBe(false)
    } finally {
      await store.close()
    }
  }, 60_000)

  it('records each failure by its kind, gives up past the give-up age, and the operator retry delivers it', async () => {
    const config = configOf()
    const store = openLeadStore(config) as LeadArchive
    try {
      for (const entry of await store.list()) await store.purge(new Date(entry.receivedAt.getTime() + 1))
      const old = new Date(Date.now() - DELIVERY_SCHEDULE.giveUpAfterMs - 1_000)
      const saved = await store.save(lead({ receivedAt: old, fields: { email: 'late@example.com' } }))
      await receiver.setMode('error')
      expect(await deliverPending(store, config.leads, { attemptTimeoutMs: 1_000 })).toEqual({ delivered: 0, retried: 0, failed: 2 })
      const failed = (await store.list())[0]
      expect(failed?.deliveries.webhook).toMatchObject({ state: 'failed', attempts: 1, lastOutcome: 'HTTP 503', nextAttemptAt: null })
      expect(await deliverPending(store, config.leads, { attemptTimeoutMs: 1_000 })).toEqual({ delivered: 0, retried: 0, failed: 0 })
      await receiver.setMode('up')
      expect(await store.requeue(['webhook', 'slack'], new Date())).toBe(2)
      expect(await deliverPending(store, config.leads, { attemptTimeoutMs: 1_000 })).toEqual({ delivered: 2, retried: 0, failed: 0 })
      expect((await store.list())[0]?.deliveries.webhook).toMatchObject({ state: 'delivered', attempts: 2 })
      expect(saved.duplicate).toBe(false)
    } finally {
      await store.close()
    }
  })
})

describe('the SQLite file', () => {
  it('is created with its directory on first use, in WAL mode with synchronous=FULL and STRICT tables', async () => {
    const file = path.join(dir, 'fresh/sub/leads.sqlite')
    const store = openLeadStore(parseConfig({ LEADS_DATABASE_PATH: file })) as LeadArchive
    await store.save(lead())
    await store.close()
    const db = new DatabaseSync(file, { readOnly: true })
    try {
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
      const tables = db.prepare("SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND name NOT LIKE 'sqlite_%' ORDER BY name").all()
      expect(tables).toEqual([
        { name: 'deliveries', strict: 1 },
        { name: 'leads', strict: 1 },
      ])
      expect(db.prepare('SELECT COUNT(*) AS count FROM leads').get()).toEqual({ count: 1 })
    } finally {
      db.close()
    }
  })
})
