/**
 * The self-hosted lead store: an SQLite file through Node's built-in `node:sqlite` (no native
 * dependency), in WAL mode with `synchronous=FULL`.
 *
 * Why FULL: under WAL, NORMAL already survives a killed process (a commit has been written to the WAL
 * file, in the operating system's cache, before it returns), but not a power cut or a kernel crash:
 * the last commits before one can be gone. A visitor who was thanked has been promised their message
 * arrived, so a commit is synced to disk before `save` resolves. The cost, one fsync per commit, is
 * shared: saves that arrive in the same turn of the event loop are written in one transaction
 * (group commit), so 50 concurrent submissions cost a few fsyncs, not 50.
 *
 * The file holds personal data: it is created readable by its owner only (0600, and SQLite gives its
 * -wal and -shm files the same mode), in a directory the store creates 0700, and `secure_delete`
 * overwrites what a purge deletes instead of leaving it in free pages.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import type { NewLead, SavedLead, SpamReason } from './lead.ts'
import { duplicateKey, newAddressSalt, newLeadId, newLeaseToken } from './store-keys.ts'
import {
  type AttemptRecord,
  type ClaimedDelivery,
  type ClaimOptions,
  DELIVERY_RATE_WINDOW_MS,
  DESTINATIONS,
  type DeliveryState,
  type Destination,
  DUPLICATE_WINDOW_MS,
  type LeadArchive,
  type ReleaseResult,
  type StoredLead,
} from './lead-archive.ts'

/**
 * The schema, one step per version (`PRAGMA user_version`): a file is brought up to date when it is
 * opened, whatever version wrote it. Files made before versions were recorded have the first step's
 * tables already (it creates them only if missing).
 */
const MIGRATIONS = [
  `CREATE TABLE IF NOT EXISTS leads (
    id TEXT PRIMARY KEY,
    received_at INTEGER NOT NULL,
    source_page TEXT NOT NULL,
    address_hash TEXT NOT NULL,
    spam INTEGER NOT NULL CHECK (spam IN (0, 1)),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    company TEXT NOT NULL,
    team_size TEXT NOT NULL,
    goal TEXT NOT NULL,
    topic TEXT NOT NULL,
    plan TEXT,
    duplicate_key TEXT NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS leads_by_duplicate_key ON leads (duplicate_key, received_at);
  CREATE INDEX IF NOT EXISTS leads_by_received_at ON leads (received_at);
  CREATE TABLE IF NOT EXISTS deliveries (
    lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
    destination TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL,
    next_attempt_at INTEGER,
    last_outcome TEXT,
    delivered_at INTEGER,
    PRIMARY KEY (lead_id, destination)
  ) STRICT;
  CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (state, next_attempt_at);`,
  // Why spam is held (and spam's duplicate keys apart from leads'); a lease per attempt with its
  // fencing token; when each attempt started, for the bound per minute; the store's own settings.
  `ALTER TABLE leads ADD COLUMN spam_reason TEXT;
  UPDATE leads SET spam_reason = 'unrecorded', duplicate_key = 'spam:' || duplicate_key WHERE spam = 1;
  ALTER TABLE leads DROP COLUMN spam;
  ALTER TABLE deliveries ADD COLUMN lease_token TEXT;
  ALTER TABLE deliveries ADD COLUMN lease_until INTEGER;
  ALTER TABLE deliveries ADD COLUMN started_at INTEGER;
  CREATE INDEX deliveries_started ON deliveries (destination, started_at);
  CREATE TABLE store_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;`,
  // Where each lead came from: its campaign, landing page, referring site, and the WebMCP mark.
  `ALTER TABLE leads ADD COLUMN utm_source TEXT;
  ALTER TABLE leads ADD COLUMN utm_medium TEXT;
  ALTER TABLE leads ADD COLUMN utm_campaign TEXT;
  ALTER TABLE leads ADD COLUMN utm_term TEXT;
  ALTER TABLE leads ADD COLUMN utm_content TEXT;
  ALTER TABLE leads ADD COLUMN landing_page TEXT;
  ALTER TABLE leads ADD COLUMN referrer_origin TEXT;
  ALTER TABLE leads ADD COLUMN via_webmcp INTEGER NOT NULL DEFAULT 0 CHECK (via_webmcp IN (0, 1));`,
]

interface LeadRow {
  id: string
  received_at: number
  source_page: string
  address_hash: string
  spam_reason: SpamReason | null
  name: string
  email: string
  company: string
  team_size: string
  goal: string
  topic: string
  plan: string | null
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  utm_term: string | null
  utm_content: string | null
  landing_page: string | null
  referrer_origin: string | null
  via_webmcp: number
}

interface DeliveryRow {
  lead_id: string
  destination: string
  state: DeliveryState['state']
  attempts: number
  next_attempt_at: number | null
  last_outcome: string | null
  delivered_at: number | null
}

interface PendingSave {
  lead: NewLead
  resolve: (saved: SavedLead) => void
  reject: (error: unknown) => void
}

export function openSqliteLeadArchive(file: string, destinations: readonly Destination[]): LeadArchive {
  const absolute = path.resolve(file)
  mkdirSync(path.dirname(absolute), { recursive: true, mode: 0o700 })
  // Created before SQLite opens it, so that it is created 0600; an existing file keeps its mode.
  closeSync(openSync(absolute, 'a', 0o600))
  // `timeout`: another process (the CLI, a second instance) holding the write lock is waited for, not failed.
  const db = new DatabaseSync(absolute, { timeout: 5_000 })
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = FULL')
  db.exec('PRAGMA foreign_keys = ON')
  db.exec('PRAGMA secure_delete = ON')
  migrate(db, absolute)
  return new SqliteLeadArchive(db, destinations)
}

function migrate(db: DatabaseSync, file: string): void {
  const version = () => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version
  if (version() === MIGRATIONS.length) return
  db.exec('BEGIN IMMEDIATE')
  try {
    // Read again under the write lock: another process may have brought the file up to date meanwhile.
    const from = version()
    if (from > MIGRATIONS.length) throw new Error(`${file} was written by a newer version of the site (schema ${from})`)
    for (const step of MIGRATIONS.slice(from)) db.exec(step)
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`)
    db.exec('COMMIT')
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK')
    throw error
  }
}

/** Every statement the store runs, prepared once per connection. */
function prepareStatements(db: DatabaseSync) {
  return {
    findDuplicate: db.prepare('SELECT id FROM leads WHERE duplicate_key = ? AND received_at >= ? ORDER BY received_at LIMIT 1'),
    insertLead: db.prepare(
      `INSERT INTO leads (id, received_at, source_page, address_hash, spam_reason, name, email, company, team_size, goal, topic, plan, duplicate_key,
         utm_source, utm_medium, utm_campaign, utm_term, utm_content, landing_page, referrer_origin, via_webmcp)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertDelivery: db.prepare(
      `INSERT OR IGNORE INTO deliveries (lead_id, destination, state, attempts, next_attempt_at) VALUES (?, ?, 'pending', 0, ?)`,
    ),
    lead: db.prepare('SELECT * FROM leads WHERE id = ?'),
    deliveriesOf: db.prepare('SELECT * FROM deliveries WHERE lead_id = ?'),
    startedSince: db.prepare('SELECT COUNT(*) AS started FROM deliveries WHERE destination = ? AND started_at > ?'),
    due: db.prepare(
      `SELECT lead_id, attempts FROM deliveries
       WHERE destination = ? AND state = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
       ORDER BY next_attempt_at LIMIT ?`,
    ),
    dueOfLead: db.prepare(
      `SELECT lead_id, attempts FROM deliveries
       WHERE destination = ? AND state = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?) AND lead_id = ?
       LIMIT ?`,
    ),
    lease: db.prepare('UPDATE deliveries SET lease_token = ?, lease_until = ?, started_at = ? WHERE lead_id = ? AND destination = ?'),
    recordDelivered: db.prepare(
      `UPDATE deliveries SET state = 'delivered', attempts = attempts + 1, next_attempt_at = NULL, last_outcome = 'delivered', delivered_at = ?,
         lease_token = NULL, lease_until = NULL
       WHERE lead_id = ? AND destination = ? AND lease_token = ?`,
    ),
    recordFailed: db.prepare(
      `UPDATE deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = ?, last_outcome = ?, lease_token = NULL, lease_until = NULL
       WHERE lead_id = ? AND destination = ? AND lease_token = ?`,
    ),
    requeue: db.prepare(
      `UPDATE deliveries SET state = 'pending', next_attempt_at = ?
       WHERE destination = ? AND state <> 'delivered' AND (lease_until IS NULL OR lease_until <= ?)`,
    ),
    addMissing: db.prepare(
      `INSERT INTO deliveries (lead_id, destination, state, attempts, next_attempt_at)
       SELECT id, ?, 'pending', 0, ? FROM leads
       WHERE spam_reason IS NULL AND id NOT IN (SELECT lead_id FROM deliveries WHERE destination = ?)`,
    ),
    release: db.prepare('UPDATE leads SET spam_reason = NULL, duplicate_key = ? WHERE id = ?'),
    purge: db.prepare('DELETE FROM leads WHERE received_at < ?'),
    insertSetting: db.prepare('INSERT OR IGNORE INTO store_settings (name, value) VALUES (?, ?)'),
    setting: db.prepare('SELECT value FROM store_settings WHERE name = ?'),
  }
}

class SqliteLeadArchive implements LeadArchive {
  readonly kind = 'sqlite' as const
  readonly #db: DatabaseSync
  readonly #destinations: readonly Destination[]
  #queue: PendingSave[] = []
  #salt: string | undefined
  readonly #statements: ReturnType<typeof prepareStatements>

  constructor(db: DatabaseSync, destinations: readonly Destination[]) {
    this.#db = db
    this.#destinations = destinations
    this.#statements = prepareStatements(db)
  }

  save(lead: NewLead): Promise<SavedLead> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ lead, resolve, reject })
      if (this.#queue.length === 1) setImmediate(() => this.#commitQueue())
    })
  }

  /** One transaction, one fsync, for every save queued in this turn of the event loop. */
  #commitQueue(): void {
    const batch = this.#queue
    this.#queue = []
    const results: SavedLead[] = []
    try {
      this.#transaction(() => {
        for (const { lead } of batch) results.push(this.#insert(lead))
      })
    } catch (error) {
      for (const pending of batch) pending.reject(error)
      return
    }
    for (const [index, pending] of batch.entries()) pending.resolve(results[index] as SavedLead)
  }

  #insert(lead: NewLead): SavedLead {
    const key = duplicateKey(lead.fields, lead.spamReason !== null)
    const received = lead.receivedAt.getTime()
    const earlier = this.#statements.findDuplicate.get(key, received - DUPLICATE_WINDOW_MS) as { id: string } | undefined
    if (earlier) return { id: earlier.id, duplicate: true }
    const id = newLeadId(lead.receivedAt)
    const { fields, attribution } = lead
    this.#statements.insertLead.run(
      id,
      received,
      lead.sourcePage,
      lead.addressHash,
      lead.spamReason,
      fields.name,
      fields.email,
      fields.company,
      fields.teamSize,
      fields.goal,
      fields.topic,
      fields.plan,
      key,
      attribution.utmSource,
      attribution.utmMedium,
      attribution.utmCampaign,
      attribution.utmTerm,
      attribution.utmContent,
      attribution.landingPage,
      attribution.referrerOrigin,
      attribution.viaWebMcp ? 1 : 0,
    )
    if (lead.spamReason === null) for (const destination of this.#destinations) this.#statements.insertDelivery.run(id, destination, received)
    return { id, duplicate: false }
  }

  /** BEGIN IMMEDIATE: takes the write lock first, so a concurrent writer waits (busy timeout) instead of failing mid-way. */
  #transaction<T>(work: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE')
    try {
      const result = work()
      this.#db.exec('COMMIT')
      return result
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK')
      throw error
    }
  }

  async addressSalt(): Promise<string> {
    this.#salt ??= this.#transaction(() => {
      this.#statements.insertSetting.run('address_salt', newAddressSalt())
      return (this.#statements.setting.get('address_salt') as { value: string }).value
    })
    return this.#salt
  }

  async list(): Promise<StoredLead[]> {
    const leads = this.#db.prepare('SELECT * FROM leads ORDER BY received_at, id').all() as unknown as LeadRow[]
    const deliveries = this.#db.prepare('SELECT * FROM deliveries').all() as unknown as DeliveryRow[]
    const byLead = new Map<string, DeliveryRow[]>()
    for (const row of deliveries) byLead.set(row.lead_id, [...(byLead.get(row.lead_id) ?? []), row])
    return leads.map((row) => toStoredLead(row, byLead.get(row.id) ?? []))
  }

  async claim(options: ClaimOptions): Promise<ClaimedDelivery[]> {
    const now = options.now.getTime()
    return this.#transaction(() => {
      const claimed: ClaimedDelivery[] = []
      for (const destination of this.#destinations) {
        const started = (this.#statements.startedSince.get(destination, now - DELIVERY_RATE_WINDOW_MS) as { started: number }).started
        const room = Math.min(options.perMinute - started, options.limit - claimed.length)
        if (room <= 0) continue
        const rows = (options.leadId === undefined
          ? this.#statements.due.all(destination, now, now, room)
          : this.#statements.dueOfLead.all(destination, now, now, options.leadId, room)) as unknown as Array<
          Pick<DeliveryRow, 'lead_id' | 'attempts'>
        >
        for (const row of rows) {
          const lead = this.#read(row.lead_id)
          if (!lead) continue
          const lease = newLeaseToken()
          this.#statements.lease.run(lease, now + options.leaseMs, now, row.lead_id, destination)
          claimed.push({ lead, destination, attempts: row.attempts, lease })
        }
      }
      return claimed
    })
  }

  #read(id: string): StoredLead | null {
    const row = this.#statements.lead.get(id) as unknown as LeadRow | undefined
    return row ? toStoredLead(row, this.#statements.deliveriesOf.all(id) as unknown as DeliveryRow[]) : null
  }

  async record(claim: ClaimedDelivery, attempt: AttemptRecord): Promise<boolean> {
    const { lead, destination, lease } = claim
    const result = attempt.delivered
      ? this.#statements.recordDelivered.run(attempt.at.getTime(), lead.id, destination, lease)
      : this.#statements.recordFailed.run(
          attempt.nextAttemptAt ? 'pending' : 'failed',
          attempt.nextAttemptAt?.getTime() ?? null,
          attempt.outcome,
          lead.id,
          destination,
          lease,
        )
    return Number(result.changes) === 1
  }

  async requeue(destinations: readonly Destination[], now: Date): Promise<number> {
    const at = now.getTime()
    return this.#transaction(() => {
      let changed = 0
      for (const destination of destinations) {
        changed += Number(this.#statements.requeue.run(at, destination, at).changes)
        changed += Number(this.#statements.addMissing.run(destination, at, destination).changes)
      }
      return changed
    })
  }

  async release(id: string, destinations: readonly Destination[], now: Date): Promise<ReleaseResult> {
    return this.#transaction(() => {
      const row = this.#statements.lead.get(id) as unknown as LeadRow | undefined
      if (!row) return 'not-found'
      if (row.spam_reason === null) return 'not-spam'
      this.#statements.release.run(duplicateKey(row, false), id)
      for (const destination of destinations) this.#statements.insertDelivery.run(id, destination, now.getTime())
      return 'released'
    })
  }

  async purge(before: Date): Promise<number> {
    const purged = Number(this.#statements.purge.run(before.getTime()).changes)
    // secure_delete has overwritten the pages in the database; the WAL file still holds their old images until it is reset.
    if (purged > 0) this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    return purged
  }

  async close(): Promise<void> {
    if (this.#queue.length > 0) await new Promise((resolve) => setImmediate(resolve))
    if (this.#db.isOpen) this.#db.close()
  }
}

function isDestination(value: string): value is Destination {
  return (DESTINATIONS as readonly string[]).includes(value)
}

function toStoredLead(row: LeadRow, deliveries: DeliveryRow[]): StoredLead {
  const states: StoredLead['deliveries'] = {}
  for (const delivery of deliveries) {
    if (!isDestination(delivery.destination)) continue
    states[delivery.destination] = {
      state: delivery.state,
      attempts: delivery.attempts,
      nextAttemptAt: delivery.state === 'pending' && delivery.next_attempt_at !== null ? new Date(delivery.next_attempt_at) : null,
      lastOutcome: delivery.last_outcome,
      deliveredAt: delivery.delivered_at === null ? null : new Date(delivery.delivered_at),
    }
  }
  return {
    id: row.id,
    fields: {
      name: row.name,
      email: row.email,
      company: row.company,
      teamSize: row.team_size,
      goal: row.goal,
      topic: row.topic,
      plan: row.plan,
    },
    attribution: {
      utmSource: row.utm_source,
      utmMedium: row.utm_medium,
      utmCampaign: row.utm_campaign,
      utmTerm: row.utm_term,
      utmContent: row.utm_content,
      landingPage: row.landing_page,
      referrerOrigin: row.referrer_origin,
      viaWebMcp: row.via_webmcp === 1,
    },
    receivedAt: new Date(row.received_at),
    sourcePage: row.source_page,
    addressHash: row.address_hash,
    spamReason: row.spam_reason,
    deliveries: states,
  }
}
