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
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { DatabaseSync, type SQLInputValue } from 'node:sqlite'
import type { NewLead, SavedLead } from './lead.ts'
import { duplicateKey, newLeadId } from './store-keys.ts'
import {
  type AttemptRecord,
  type ClaimedDelivery,
  type ClaimOptions,
  DESTINATIONS,
  type DeliveryState,
  type Destination,
  DUPLICATE_WINDOW_MS,
  type LeadArchive,
  type StoredLead,
} from './lead-archive.ts'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS leads (
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
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (state, next_attempt_at);
`

interface LeadRow {
  id: string
  received_at: number
  source_page: string
  address_hash: string
  spam: number
  name: string
  email: string
  company: string
  team_size: string
  goal: string
  topic: string
  plan: string | null
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
  mkdirSync(path.dirname(absolute), { recursive: true })
  // `timeout`: another process (the CLI, a second instance) holding the write lock is waited for, not failed.
  const db = new DatabaseSync(absolute, { timeout: 5_000 })
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = FULL')
  db.exec('PRAGMA foreign_keys = ON')
  db.exec(SCHEMA)
  return new SqliteLeadArchive(db, destinations)
}

class SqliteLeadArchive implements LeadArchive {
  readonly kind = 'sqlite' as const
  readonly #db: DatabaseSync
  readonly #destinations: readonly Destination[]
  #queue: PendingSave[] = []
  readonly #statements

  constructor(db: DatabaseSync, destinations: readonly Destination[]) {
    this.#db = db
    this.#destinations = destinations
    this.#statements = {
      findDuplicate: db.prepare('SELECT id FROM leads WHERE duplicate_key = ? AND received_at >= ? ORDER BY received_at LIMIT 1'),
      insertLead: db.prepare(
        `INSERT INTO leads (id, received_at, source_page, address_hash, spam, name, email, company, team_size, goal, topic, plan, duplicate_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertDelivery: db.prepare(
        `INSERT OR IGNORE INTO deliveries (lead_id, destination, state, attempts, next_attempt_at) VALUES (?, ?, 'pending', 0, ?)`,
      ),
      lead: db.prepare('SELECT * FROM leads WHERE id = ?'),
      deliveriesOf: db.prepare('SELECT * FROM deliveries WHERE lead_id = ?'),
    }
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
    const key = duplicateKey(lead.fields)
    const received = lead.receivedAt.getTime()
    const earlier = this.#statements.findDuplicate.get(key, received - DUPLICATE_WINDOW_MS) as { id: string } | undefined
    if (earlier) return { id: earlier.id, duplicate: true }
    const id = newLeadId(lead.receivedAt)
    const { fields } = lead
    this.#statements.insertLead.run(
      id,
      received,
      lead.sourcePage,
      lead.addressHash,
      lead.spam ? 1 : 0,
      fields.name,
      fields.email,
      fields.company,
      fields.teamSize,
      fields.goal,
      fields.topic,
      fields.plan,
      key,
    )
    if (!lead.spam) for (const destination of this.#destinations) this.#statements.insertDelivery.run(id, destination, received)
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

  async list(): Promise<StoredLead[]> {
    const leads = this.#db.prepare('SELECT * FROM leads ORDER BY received_at, id').all() as unknown as LeadRow[]
    const deliveries = this.#db.prepare('SELECT * FROM deliveries').all() as unknown as DeliveryRow[]
    const byLead = new Map<string, DeliveryRow[]>()
    for (const row of deliveries) byLead.set(row.lead_id, [...(byLead.get(row.lead_id) ?? []), row])
    return leads.map((row) => toStoredLead(row, byLead.get(row.id) ?? []))
  }

  async claim(options: ClaimOptions): Promise<ClaimedDelivery[]> {
    const now = options.now.getTime()
    const conditions = ["state = 'pending'"]
    const params: SQLInputValue[] = []
    conditions.push('next_attempt_at <= ?')
    params.push(now)
    if (options.leadId !== undefined) {
      conditions.push('lead_id = ?')
      params.push(options.leadId)
    }
    const claimed = this.#transaction(() => {
      const rows = this.#db
        .prepare(`SELECT lead_id, destination, attempts FROM deliveries WHERE ${conditions.join(' AND ')} ORDER BY next_attempt_at LIMIT ?`)
        .all(...params, options.limit) as unknown as Array<Pick<DeliveryRow, 'lead_id' | 'destination' | 'attempts'>>
      const lease = this.#db.prepare('UPDATE deliveries SET next_attempt_at = ? WHERE lead_id = ? AND destination = ?')
      for (const row of rows) lease.run(now + options.leaseMs, row.lead_id, row.destination)
      return rows
    })
    const result: ClaimedDelivery[] = []
    for (const row of claimed) {
      const lead = this.#read(row.lead_id)
      if (lead && isDestination(row.destination)) result.push({ lead, destination: row.destination, attempts: row.attempts })
    }
    return result
  }

  #read(id: string): StoredLead | null {
    const row = this.#statements.lead.get(id) as unknown as LeadRow | undefined
    return row ? toStoredLead(row, this.#statements.deliveriesOf.all(id) as unknown as DeliveryRow[]) : null
  }

  async record(leadId: string, destination: Destination, attempt: AttemptRecord): Promise<void> {
    if (attempt.delivered) {
      this.#db
        .prepare(
          `UPDATE deliveries SET state = 'delivered', attempts = attempts + 1, next_attempt_at = NULL, last_outcome = 'delivered', delivered_at = ?
           WHERE lead_id = ? AND destination = ?`,
        )
        .run(attempt.at.getTime(), leadId, destination)
      return
    }
    this.#db
      .prepare(
        'UPDATE deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = ?, last_outcome = ? WHERE lead_id = ? AND destination = ?',
      )
      .run(attempt.nextAttemptAt ? 'pending' : 'failed', attempt.nextAttemptAt?.getTime() ?? null, attempt.outcome, leadId, destination)
  }

  async requeue(destinations: readonly Destination[], now: Date): Promise<number> {
    return this.#transaction(() => {
      let changed = 0
      for (const destination of destinations) {
        changed += Number(
          this.#db
            .prepare(`UPDATE deliveries SET state = 'pending', next_attempt_at = ? WHERE destination = ? AND state <> 'delivered'`)
            .run(now.getTime(), destination).changes,
        )
        changed += Number(
          this.#db
            .prepare(
              `INSERT INTO deliveries (lead_id, destination, state, attempts, next_attempt_at)
               SELECT id, ?, 'pending', 0, ? FROM leads WHERE spam = 0 AND id NOT IN (SELECT lead_id FROM deliveries WHERE destination = ?)`,
            )
            .run(destination, now.getTime(), destination).changes,
        )
      }
      return changed
    })
  }

  async purge(before: Date): Promise<number> {
    return Number(this.#db.prepare('DELETE FROM leads WHERE received_at < ?').run(before.getTime()).changes)
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
    receivedAt: new Date(row.received_at),
    sourcePage: row.source_page,
    addressHash: row.address_hash,
    spam: row.spam === 1,
    deliveries: states,
  }
}
