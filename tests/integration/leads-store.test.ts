/**
 * The lead store and delivery with real components: an SQLite file (node:sqlite) and a real Redis behind
 * the Upstash REST bridge, and a loopback receiver that is down, then hangs, then answers 503, then is
 * slow, then up. Delivery is driven in-process on a controlled schedule clock (the backoff of 30 s and
 * more is not waited for); each attempt is a real HTTP request with a short deadline.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig, type SiteConfig } from '../../lib/env.ts'
import { type LeadFields, NO_ATTRIBUTION, type NewLead } from '../../lib/leads/lead.ts'
import type { ClaimedDelivery, ClaimOptions, LeadArchive } from '../../lib/leads/lead-archive.ts'
import { deliverPending } from '../../lib/leads/delivery.ts'
import { DELIVERY_SCHEDULE } from '../../lib/leads/delivery-schedule.ts'
import { openLeadStore } from '../../lib/leads/store.ts'
import { createUpstashRedis } from '../../lib/redis/upstash-client.ts'
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
    spamReason: overrides.spamReason ?? null,
    attribution: overrides.attribution ?? NO_ATTRIBUTION,
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

  it('keeps quotes, HTML, emoji, right-to-left text and a 10 KB message exactly, with the time, page, address hash and where it came from', async () => {
    // Recent (older leads are purged), with milliseconds, which the stores keep.
    const receivedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60 * 60_000 + 123)
    const attribution = {
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'spring "27" <launch>',
      utmTerm: null,
      utmContent: 'hero-🎯',
      landingPage: '/pricing',
      referrerOrigin: 'https://news.example',
      viaWebMcp: true,
    }
    const saved = await store.save(lead({ receivedAt, sourcePage: '/contact?plan=team', addressHash: 'sha256:abc', attribution }))
    expect(saved.duplicate).toBe(false)
    expect(saved.id).toMatch(/^lead_[0-9a-z]{25}$/)
    const stored = (await store.list()).find((entry) => entry.id === saved.id)
    expect(stored).toMatchObject({
      id: saved.id,
      fields: AWKWARD_FIELDS,
      receivedAt,
      sourcePage: '/contact?plan=team',
      addressHash: 'sha256:abc',
      spamReason: null,
      attribution,
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

  it('keeps suspected spam apart from leads: a person sending what spam sent is a lead, and spam sending it again is spam', async () => {
    const fields = { email: 'jane@acme.example', goal: 'Talk about pricing' }
    const spam = await store.save(lead({ spamReason: 'too-fast', fields }))
    const person = await store.save(lead({ fields }))
    const spamAgain = await store.save(lead({ spamReason: 'honeypot', fields }))
    const personAgain = await store.save(lead({ fields: { ...fields, email: 'JANE@acme.example' } }))
    expect(spam.duplicate).toBe(false)
    expect(person.duplicate).toBe(false)
    expect(person.id).not.toBe(spam.id)
    expect(spamAgain).toEqual({ id: spam.id, duplicate: true })
    expect(personAgain).toEqual({ id: person.id, duplicate: true })
    const stored = await store.list()
    expect(stored.find((entry) => entry.id === spam.id)).toMatchObject({ spamReason: 'too-fast', deliveries: {} })
    expect(stored.find((entry) => entry.id === person.id)?.deliveries).toMatchObject({ webhook: { state: 'pending' }, slack: { state: 'pending' } })
  })

  it('releases a suspected spam lead into a lead whose deliveries are due now; a lead, or an id it does not hold, is not released', async () => {
    const now = new Date()
    const spam = await store.save(lead({ spamReason: 'too-fast', receivedAt: now, fields: { email: 'released@example.com' } }))
    expect(await store.release(spam.id, ['webhook', 'slack'], now)).toBe('released')
    const released = (await store.list()).find((entry) => entry.id === spam.id)
    expect(released?.spamReason).toBeNull()
    for (const destination of ['webhook', 'slack'] as const) {
      expect(released?.deliveries[destination]).toEqual({ state: 'pending', attempts: 0, nextAttemptAt: now, lastOutcome: null, deliveredAt: null })
    }
    expect(await store.release(spam.id, ['webhook', 'slack'], now)).toBe('not-spam')
    expect(await store.release('lead_000000000ffffffffffffffff', ['webhook', 'slack'], now)).toBe('not-found')
    const claimed = await store.claim({ now, leaseMs: 15_000, limit: 2, perMinute: 1_000, leadId: spam.id })
    expect(claimed.map((claim) => claim.destination).sort()).toEqual(['slack', 'webhook'])
  })

  it('keeps one address salt for every process that opens it, made on first use', async () => {
    const other = openLeadStore(config) as LeadArchive
    try {
      const [mine, theirs] = await Promise.all([store.addressSalt(), other.addressSalt()])
      expect(mine).toMatch(/^[0-9a-f]{64}$/)
      expect(theirs).toBe(mine)
    } finally {
      await other.close()
    }
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

describe.each(stores)('claims on the %s store', (_name, configOf) => {
  const t0 = Date.parse('2026-11-27T10:00:00.000Z')
  const at = (ms: number) => new Date(t0 + ms)
  const claimAt = (store: LeadArchive, ms: number, overrides: Partial<ClaimOptions> = {}) =>
    store.claim({ now: at(ms), leaseMs: 15_000, limit: 10, perMinute: 1_000, ...overrides })
  let store: LeadArchive | undefined
  afterAll(async () => {
    await store?.close()
  })
  /** A store of its own for each test: what earlier tests claimed is in no window. */
  const fresh = async (): Promise<LeadArchive> => {
    await store?.close()
    store = openLeadStore(configOf()) as LeadArchive
    return store
  }

  it('leases a due delivery to one claim: no other claim gets it while the lease runs; once it ran out, the old holder may not record', async () => {
    const store = await fresh()
    const saved = await store.save(lead({ receivedAt: at(0), fields: { email: 'lease@example.com' } }))
    const first = await claimAt(store, 0)
    expect(first.map((claim) => [claim.lead.id, claim.destination, claim.attempts])).toEqual([
      [saved.id, 'webhook', 0],
      [saved.id, 'slack', 0],
    ])
    expect(await claimAt(store, 14_999)).toEqual([])
    const second = await claimAt(store, 15_000)
    expect(second.map((claim) => claim.destination)).toEqual(['webhook', 'slack'])
    expect(second[0]?.lease).not.toBe(first[0]?.lease)
    expect(await store.record(first[0] as ClaimedDelivery, { delivered: true, at: at(15_500) })).toBe(false)
    expect(await store.record(second[0] as ClaimedDelivery, { delivered: true, at: at(15_600) })).toBe(true)
    expect(await store.record(second[0] as ClaimedDelivery, { delivered: true, at: at(15_700) })).toBe(false)
    const stored = (await store.list())[0]
    expect(stored?.deliveries.webhook).toEqual({
      state: 'delivered',
      attempts: 1,
      nextAttemptAt: null,
      lastOutcome: 'delivered',
      deliveredAt: at(15_600),
    })
    expect(stored?.deliveries.slack).toMatchObject({ state: 'pending', attempts: 0 })
  })

  it('records a failed attempt for its holder with the next attempt, and the delivery is due again only then', async () => {
    const store = await fresh()
    await store.save(lead({ receivedAt: at(0), fields: { email: 'retry@example.com' } }))
    const [webhook] = await claimAt(store, 0, { limit: 1 })
    expect(webhook?.destination).toBe('webhook')
    expect(await store.record(webhook as ClaimedDelivery, { delivered: false, at: at(1_000), outcome: 'HTTP 503', nextAttemptAt: at(31_000) })).toBe(
      true,
    )
    const [slack] = await claimAt(store, 2_000)
    expect(slack?.destination).toBe('slack')
    expect(await store.record(slack as ClaimedDelivery, { delivered: true, at: at(2_500) })).toBe(true)
    expect(await claimAt(store, 30_999)).toEqual([])
    expect((await claimAt(store, 31_000)).map((claim) => [claim.destination, claim.attempts])).toEqual([['webhook', 1]])
  })

  it("never takes a live lease for the operator's retry, and makes a delivery whose lease ran out due at once", async () => {
    const store = await fresh()
    await store.save(lead({ receivedAt: at(0), fields: { email: 'requeue@example.com' } }))
    expect(await claimAt(store, 0)).toHaveLength(2)
    expect(await store.requeue(['webhook', 'slack'], at(1_000))).toBe(0)
    expect(await claimAt(store, 1_000)).toEqual([])
    expect(await store.requeue(['webhook', 'slack'], at(16_000))).toBe(2)
    expect(await claimAt(store, 16_000)).toHaveLength(2)
  })

  it('starts at most perMinute attempts per destination in any minute, across claims; the rest wait their turn', async () => {
    const store = await fresh()
    for (let index = 0; index < 5; index += 1) await store.save(lead({ receivedAt: at(0), fields: { email: `flood-${index}@example.com` } }))
    const count = (claims: ClaimedDelivery[], destination: string) => claims.filter((claim) => claim.destination === destination).length
    const first = await claimAt(store, 0, { perMinute: 3 })
    expect([count(first, 'webhook'), count(first, 'slack')]).toEqual([3, 3])
    for (const claim of first) await store.record(claim, { delivered: true, at: at(100) })
    expect(await claimAt(store, 59_999, { perMinute: 3 })).toEqual([])
    const second = await claimAt(store, 60_001, { perMinute: 3 })
    expect([count(second, 'webhook'), count(second, 'slack')]).toEqual([2, 2])
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
      const spam = await store.save(lead({ receivedAt: new Date(t0), spamReason: 'honeypot', fields: { email: 'bot@example.com' } }))
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
          attribution: NO_ATTRIBUTION,
        })
      }
      // Slack shows the name with its HTML literally.
      expect(JSON.parse(slack[0]?.body ?? '{}').text).toContain('Zoë "Z" O\'Brien &lt;b&gt;&amp;amp;&lt;/b&gt; 🚀 שלום مرحبا')
      const stored = await store.list()
      const spamStored = stored.find((entry) => entry.id === spam.id)
      expect(spamStored?.spamReason).toBe('honeypot')
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
        { name: 'store_settings', strict: 1 },
      ])
      expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 3 })
      expect(db.prepare('SELECT COUNT(*) AS count FROM leads').get()).toEqual({ count: 1 })
    } finally {
      db.close()
    }
  })

  it('is created readable by its owner only (0600, its WAL files too) in a directory created 0700', async () => {
    const file = path.join(dir, 'private/nested/leads.sqlite')
    const store = openLeadStore(parseConfig({ LEADS_DATABASE_PATH: file })) as LeadArchive
    await store.save(lead())
    try {
      const mode = (name: string) => (statSync(name).mode & 0o777).toString(8)
      expect([mode(path.join(dir, 'private')), mode(path.dirname(file))]).toEqual(['700', '700'])
      expect([mode(file), mode(`${file}-wal`), mode(`${file}-shm`)]).toEqual(['600', '600', '600'])
    } finally {
      await store.close()
    }
  })

  it('keeps nothing of a purged lead: its words are in none of its files after the purge', async () => {
    const file = path.join(dir, 'purged/leads.sqlite')
    const store = openLeadStore(
      parseConfig({ LEADS_DATABASE_PATH: file, LEADS_WEBHOOK_URL: receiver.origin, LEADS_WEBHOOK_SECRET: SECRET }),
    ) as LeadArchive
    const marker = `purge-marker-${Math.random().toString(36).slice(2)}`
    const bytesOfFiles = () =>
      Buffer.concat([file, `${file}-wal`, `${file}-shm`].filter((name) => existsSync(name)).map((name) => readFileSync(name)))
    try {
      await store.save(lead({ receivedAt: new Date(Date.now() - 200 * 86_400_000), fields: { email: `${marker}@example.com`, goal: marker } }))
      await store.save(lead({ fields: { email: 'kept@example.com' } }))
      expect(bytesOfFiles().includes(marker)).toBe(true)
      expect(await store.purge(new Date(Date.now() - 180 * 86_400_000))).toBe(1)
      expect(bytesOfFiles().includes(marker)).toBe(false)
      expect((await store.list()).map((entry) => entry.fields.email)).toEqual(['kept@example.com'])
    } finally {
      await store.close()
    }
  })

  it('brings a file of the first schema up to date: its leads, its spam (reason unrecorded) and its deliveries kept', async () => {
    const file = path.join(dir, 'first-schema/leads.sqlite')
    mkdirSync(path.dirname(file), { recursive: true })
    const old = new DatabaseSync(file)
    // The tables as the first version of the store wrote them, with no schema version recorded.
    old.exec(`
      CREATE TABLE leads (id TEXT PRIMARY KEY, received_at INTEGER NOT NULL, source_page TEXT NOT NULL, address_hash TEXT NOT NULL,
        spam INTEGER NOT NULL CHECK (spam IN (0, 1)), name TEXT NOT NULL, email TEXT NOT NULL, company TEXT NOT NULL, team_size TEXT NOT NULL,
        goal TEXT NOT NULL, topic TEXT NOT NULL, plan TEXT, duplicate_key TEXT NOT NULL) STRICT;
      CREATE INDEX leads_by_duplicate_key ON leads (duplicate_key, received_at);
      CREATE INDEX leads_by_received_at ON leads (received_at);
      CREATE TABLE deliveries (lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE, destination TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')), attempts INTEGER NOT NULL, next_attempt_at INTEGER,
        last_outcome TEXT, delivered_at INTEGER, PRIMARY KEY (lead_id, destination)) STRICT;
      CREATE INDEX deliveries_due ON deliveries (state, next_attempt_at);
      INSERT INTO leads VALUES ('lead_0000000000000000000000001', 1764230400000, '/contact', 'h', 0, 'Ada', 'ada@example.com', 'AE', '1-10', 'Hi', 'programme', NULL, 'k1');
      INSERT INTO leads VALUES ('lead_0000000000000000000000002', 1764230400000, '/contact', 'h', 1, 'Bot', 'bot@example.com', 'B', '1-10', 'Spam', 'programme', NULL, 'k2');
      INSERT INTO deliveries VALUES ('lead_0000000000000000000000001', 'webhook', 'pending', 1, 1764230430000, 'HTTP 503', NULL);
    `)
    old.close()
    const store = openLeadStore(
      parseConfig({ LEADS_DATABASE_PATH: file, LEADS_WEBHOOK_URL: receiver.origin, LEADS_WEBHOOK_SECRET: SECRET }),
    ) as LeadArchive
    try {
      const leads = await store.list()
      expect(leads.map((entry) => [entry.id, entry.spamReason, entry.attribution])).toEqual([
        ['lead_0000000000000000000000001', null, NO_ATTRIBUTION],
        ['lead_0000000000000000000000002', 'unrecorded', NO_ATTRIBUTION],
      ])
      expect(leads[0]?.deliveries.webhook).toEqual({
        state: 'pending',
        attempts: 1,
        nextAttemptAt: new Date(1764230430000),
        lastOutcome: 'HTTP 503',
        deliveredAt: null,
      })
      const [claimed] = await store.claim({ now: new Date(1764230430000), leaseMs: 15_000, limit: 5, perMinute: 20 })
      expect([claimed?.lead.id, claimed?.attempts]).toEqual(['lead_0000000000000000000000001', 1])
    } finally {
      await store.close()
    }
  })
})

describe('an Upstash store written before deliveries were queued per destination', () => {
  it('moves its one queue to the queues per destination, and reads its spam flag as a reason unrecorded', async () => {
    const prefix = `legacy-${Math.random().toString(36).slice(2)}`
    const redis = createUpstashRedis({ url: bridge.url, token: bridge.token, timeoutMs: 5_000 })
    const record = (spam: boolean) =>
      JSON.stringify({
        fields: { ...AWKWARD_FIELDS, email: `${spam}@example.com` },
        receivedAt: 1764230400000,
        sourcePage: '/contact',
        addressHash: 'h',
        spam,
      })
    const pending = JSON.stringify({ state: 'pending', attempts: 2, nextAttemptAt: 1764230460000, lastOutcome: 'timeout', deliveredAt: null })
    await redis.set(`${prefix}:leads:lead:lead_a`, record(false))
    await redis.set(`${prefix}:leads:lead:lead_b`, record(true))
    await redis.zadd(`${prefix}:leads:received`, { score: 1764230400000, member: 'lead_a' }, { score: 1764230400001, member: 'lead_b' })
    await redis.hset(`${prefix}:leads:delivery:lead_a`, { webhook: pending })
    await redis.zadd(`${prefix}:leads:due`, { score: 1764230460000, member: 'lead_a webhook' })
    const store = openLeadStore(
      parseConfig({
        UPSTASH_REDIS_REST_URL: bridge.url,
        UPSTASH_REDIS_REST_TOKEN: bridge.token,
        REDIS_KEY_PREFIX: prefix,
        LEADS_WEBHOOK_URL: receiver.origin,
        LEADS_WEBHOOK_SECRET: SECRET,
      }),
    ) as LeadArchive
    expect((await store.list()).map((entry) => [entry.id, entry.spamReason, entry.attribution])).toEqual([
      ['lead_a', null, NO_ATTRIBUTION],
      ['lead_b', 'unrecorded', NO_ATTRIBUTION],
    ])
    const claimed = await store.claim({ now: new Date(1764230460000), leaseMs: 15_000, limit: 5, perMinute: 20 })
    expect(claimed.map((claim) => [claim.lead.id, claim.destination, claim.attempts])).toEqual([['lead_a', 'webhook', 2]])
    expect(await redis.exists(`${prefix}:leads:due`)).toBe(0)
  })
})
