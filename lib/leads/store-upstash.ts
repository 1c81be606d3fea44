/**
 * The shared lead store: Upstash Redis, the same database the quota and the rollout setting use, so
 * every `npm start` instance and every Vercel function keep one set of leads. Under the prefix
 * (`<REDIS_KEY_PREFIX>:leads`): `lead:<id>` the lead (JSON), `delivery:<id>` its delivery states (a hash
 * by destination), `received` the ids by arrival (sorted set), `due` the pending deliveries by when
 * they are due (`<id> <destination>`), `duplicate:<key>` the id of a recent lead (expires after the
 * duplicate window). A save is one Lua script, so the duplicate check and the writes are atomic; it
 * resolves when Upstash has acknowledged it.
 */
import type { Redis } from '@upstash/redis'
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

const SAVE = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[4])
redis.call('SET', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
for i = 6, #ARGV do
  redis.call('HSET', KEYS[5], ARGV[i], ARGV[5])
  redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1] .. ' ' .. ARGV[i])
end
return ARGV[1]
`

// ARGV: now, lease until, limit, then specific members (or none: any that is due).
const CLAIM = `
local members
if #ARGV > 3 then
  members = {}
  for i = 4, #ARGV do
    local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
    if score and tonumber(score) <= tonumber(ARGV[1]) then table.insert(members, ARGV[i]) end
  end
else
  members = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
end
for _, member in ipairs(members) do redis.call('ZADD', KEYS[1], ARGV[2], member) end
return members
`

interface LeadRecord {
  fields: NewLead['fields']
  receivedAt: number
  sourcePage: string
  addressHash: string
  spam: boolean
}

interface StateRecord {
  state: DeliveryState['state']
  attempts: number
  nextAttemptAt: number | null
  lastOutcome: string | null
  deliveredAt: number | null
}

const PAGE = 200

export class UpstashLeadArchive implements LeadArchive {
  readonly kind = 'upstash' as const
  readonly #redis: Redis
  readonly #prefix: string
  readonly #destinations: readonly Destination[]

  constructor(redis: Redis, options: { prefix: string; destinations: readonly Destination[] }) {
    this.#redis = redis
    this.#prefix = options.prefix
    this.#destinations = options.destinations
  }

  #key(...parts: string[]): string {
    return [this.#prefix, ...parts].join(':')
  }

  async save(lead: NewLead): Promise<SavedLead> {
    const id = newLeadId(lead.receivedAt)
    const record: LeadRecord = {
      fields: lead.fields,
      receivedAt: lead.receivedAt.getTime(),
      sourcePage: lead.sourcePage,
      addressHash: lead.addressHash,
      spam: lead.spam,
    }
    const pending: StateRecord = { state: 'pending', attempts: 0, nextAttemptAt: record.receivedAt, lastOutcome: null, deliveredAt: null }
    const keys = [
      this.#key('duplicate', duplicateKey(lead.fields)),
      this.#key('lead', id),
      this.#key('received'),
      this.#key('due'),
      this.#key('delivery', id),
    ]
    const args = [id, JSON.stringify(record), String(record.receivedAt), String(DUPLICATE_WINDOW_MS), JSON.stringify(pending)]
    if (!lead.spam) args.push(...this.#destinations)
    // One retry: if the first call was written but its answer lost, the duplicate key answers the same id.
    let saved: unknown
    try {
      saved = await this.#redis.eval(SAVE, keys, args)
    } catch {
      saved = await this.#redis.eval(SAVE, keys, args)
    }
    const savedId = String(saved)
    return { id: savedId, duplicate: savedId !== id }
  }

  async list(): Promise<StoredLead[]> {
    const ids = (await this.#redis.zrange(this.#key('received'), 0, -1)) as string[]
    const leads: StoredLead[] = []
    for (let start = 0; start < ids.length; start += PAGE) {
      leads.push(...(await this.#readMany(ids.slice(start, start + PAGE))).filter((lead): lead is StoredLead => lead !== null))
    }
    return leads
  }

  async #readMany(ids: string[]): Promise<Array<StoredLead | null>> {
    if (ids.length === 0) return []
    const pipeline = this.#redis.pipeline()
    for (const id of ids) {
      pipeline.get(this.#key('lead', id))
      pipeline.hgetall(this.#key('delivery', id))
    }
    const replies = (await pipeline.exec()) as unknown[]
    return ids.map((id, index) => {
      const lead = replies[index * 2]
      if (typeof lead !== 'string') return null
      return toStoredLead(id, JSON.parse(lead) as LeadRecord, toStateMap(replies[index * 2 + 1]))
    })
  }

  async claim(options: ClaimOptions): Promise<ClaimedDelivery[]> {
    const now = options.now.getTime()
    const members = options.leadId === undefined ? [] : DESTINATIONS.map((destination) => `${options.leadId} ${destination}`)
    const claimed = (await this.#redis.eval(
      CLAIM,
      [this.#key('due')],
      [String(now), String(now + options.leaseMs), String(options.limit), ...members],
    )) as string[]
    const pairs = claimed.map((member) => member.split(' ') as [string, string])
    const leads = await this.#readMany([...new Set(pairs.map(([id]) => id))])
    const byId = new Map(leads.filter((lead): lead is StoredLead => lead !== null).map((lead) => [lead.id, lead]))
    const result: ClaimedDelivery[] = []
    for (const [id, destination] of pairs) {
      const lead = byId.get(id)
      if (!lead || !isDestination(destination)) {
        // A lead purged meanwhile: nothing left to deliver.
        await this.#redis.zrem(this.#key('due'), `${id} ${destination}`)
        continue
      }
      result.push({ lead, destination, attempts: lead.deliveries[destination]?.attempts ?? 0 })
    }
    return result
  }

  async record(leadId: string, destination: Destination, attempt: AttemptRecord): Promise<void> {
    const current = toStateMap(await this.#redis.hgetall(this.#key('delivery', leadId)))[destination]
    const attempts = (current?.attempts ?? 0) + 1
    const state: StateRecord = attempt.delivered
      ? { state: 'delivered', attempts, nextAttemptAt: null, lastOutcome: 'delivered', deliveredAt: attempt.at.getTime() }
      : {
          state: attempt.nextAttemptAt ? 'pending' : 'failed',
          attempts,
          nextAttemptAt: attempt.nextAttemptAt?.getTime() ?? null,
          lastOutcome: attempt.outcome,
          deliveredAt: null,
        }
    const member = `${leadId} ${destination}`
    const transaction = this.#redis.multi()
    transaction.hset(this.#key('delivery', leadId), { [destination]: JSON.stringify(state) })
    if (state.nextAttemptAt !== null) transaction.zadd(this.#key('due'), { score: state.nextAttemptAt, member })
    else transaction.zrem(this.#key('due'), member)
    await transaction.exec()
  }

  async requeue(destinations: readonly Destination[], now: Date): Promise<number> {
    let changed = 0
    for (const lead of await this.list()) {
      if (lead.spam) continue
      for (const destination of destinations) {
        const current = lead.deliveries[destination]
        if (current?.state === 'delivered') continue
        const state: StateRecord = {
          state: 'pending',
          attempts: current?.attempts ?? 0,
          nextAttemptAt: now.getTime(),
          lastOutcome: current?.lastOutcome ?? null,
          deliveredAt: null,
        }
        const transaction = this.#redis.multi()
        transaction.hset(this.#key('delivery', lead.id), { [destination]: JSON.stringify(state) })
        transaction.zadd(this.#key('due'), { score: now.getTime(), member: `${lead.id} ${destination}` })
        await transaction.exec()
        changed += 1
      }
    }
    return changed
  }

  async purge(before: Date): Promise<number> {
    const ids = (await this.#redis.zrange(this.#key('received'), '-inf', before.getTime() - 1, { byScore: true })) as string[]
    for (let start = 0; start < ids.length; start += PAGE) {
      const page = ids.slice(start, start + PAGE)
      const transaction = this.#redis.multi()
      transaction.del(...page.flatMap((id) => [this.#key('lead', id), this.#key('delivery', id)]))
      transaction.zrem(this.#key('received'), ...page)
      transaction.zrem(this.#key('due'), ...page.flatMap((id) => DESTINATIONS.map((destination) => `${id} ${destination}`)))
      await transaction.exec()
    }
    return ids.length
  }

  async close(): Promise<void> {}
}

function isDestination(value: string): value is Destination {
  return (DESTINATIONS as readonly string[]).includes(value)
}

function toStateMap(reply: unknown): Partial<Record<Destination, StateRecord>> {
  const states: Partial<Record<Destination, StateRecord>> = {}
  if (!reply || typeof reply !== 'object') return states
  // HGETALL arrives as an object, or as a flat [field, value, …] list without automatic deserialization.
  const entries: Array<[string, unknown]> = Array.isArray(reply)
    ? Array.from({ length: Math.floor(reply.length / 2) }, (_, index) => [String(reply[index * 2]), reply[index * 2 + 1]])
    : Object.entries(reply)
  for (const [field, value] of entries) {
    if (isDestination(field) && typeof value === 'string') states[field] = JSON.parse(value) as StateRecord
  }
  return states
}

function toStoredLead(id: string, record: LeadRecord, states: Partial<Record<Destination, StateRecord>>): StoredLead {
  const deliveries: StoredLead['deliveries'] = {}
  for (const [destination, state] of Object.entries(states) as Array<[Destination, StateRecord]>) {
    deliveries[destination] = {
      state: state.state,
      attempts: state.attempts,
      nextAttemptAt: state.state === 'pending' && state.nextAttemptAt !== null ? new Date(state.nextAttemptAt) : null,
      lastOutcome: state.lastOutcome,
      deliveredAt: state.deliveredAt === null ? null : new Date(state.deliveredAt),
    }
  }
  return {
    id,
    fields: record.fields,
    receivedAt: new Date(record.receivedAt),
    sourcePage: record.sourcePage,
    addressHash: record.addressHash,
    spam: record.spam,
    deliveries,
  }
}
