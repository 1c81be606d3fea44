/**
 * The shared lead store: Upstash Redis, the same database the quota and the rollout setting use, so
 * every `npm start` instance and every Vercel function keep one set of leads. Under the prefix
 * (`<REDIS_KEY_PREFIX>:leads`):
 *
 * - `lead:<id>` the lead (JSON), `received` the ids by arrival (sorted set), `duplicate:<key>` the id
 *   of a recent lead (expires after the duplicate window), `address-salt` the salt of address hashes;
 * - `delivery:<id>` its delivery states (a hash by destination, JSON);
 * - per destination: `due:<destination>` the pending deliveries by when they are due (a claimed one by
 *   when its lease ends), `lease:<destination>` each claimed delivery's fencing token, and
 *   `started:<destination>` the attempts of the last minute (the bound per minute).
 *
 * Each step that must see and change several keys at once (save, claim, record, re-queue, release) is
 * one Lua script, so it is atomic. The client library itself is loaded only when Upstash is configured
 * (lib/leads/store.ts hands this class a client that is still loading).
 */
import type { Redis } from '@upstash/redis'
import { type LeadAttribution, NO_ATTRIBUTION, type NewLead, type SavedLead, type SpamReason } from './lead.ts'
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

// KEYS: duplicate, lead, received, delivery, then due:<destination> of each destination in ARGV[6…].
const SAVE = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[4])
redis.call('SET', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
for i = 6, #ARGV do
  redis.call('HSET', KEYS[4], ARGV[i], ARGV[5])
  redis.call('ZADD', KEYS[i - 1], ARGV[3], ARGV[1])
end
return ARGV[1]
`

// KEYS: due, lease and started of each destination, in threes. ARGV: now, lease end, window start,
// attempts per minute, limit, token prefix, a lead id or ''. Returns destination index, id, token, ….
const CLAIM = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[5])
local claimed = {}
local count = 0
for d = 1, #KEYS / 3 do
  if count >= limit then break end
  local due, leases, started = KEYS[d * 3 - 2], KEYS[d * 3 - 1], KEYS[d * 3]
  redis.call('ZREMRANGEBYSCORE', started, '-inf', ARGV[3])
  local room = math.min(tonumber(ARGV[4]) - redis.call('ZCARD', started), limit - count)
  if room > 0 then
    local ids = {}
    if ARGV[7] ~= '' then
      local score = redis.call('ZSCORE', due, ARGV[7])
      if score and tonumber(score) <= now then ids = { ARGV[7] } end
    else
      ids = redis.call('ZRANGEBYSCORE', due, '-inf', ARGV[1], 'LIMIT', 0, room)
    end
    for _, id in ipairs(ids) do
      local token = ARGV[6] .. '.' .. d .. '.' .. id
      redis.call('ZADD', due, ARGV[2], id)
      redis.call('HSET', leases, id, token)
      redis.call('ZADD', started, ARGV[1], token)
      table.insert(claimed, tostring(d))
      table.insert(claimed, id)
      table.insert(claimed, token)
      count = count + 1
    end
  end
end
return claimed
`

// KEYS: lead, delivery, due, lease (of one destination). ARGV: destination, id, token, state, next due or ''.
const RECORD = `
if redis.call('HGET', KEYS[4], ARGV[2]) ~= ARGV[3] then return 0 end
redis.call('HDEL', KEYS[4], ARGV[2])
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[3], ARGV[2])
  return 0
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
if ARGV[5] ~= '' then redis.call('ZADD', KEYS[3], ARGV[5], ARGV[2]) else redis.call('ZREM', KEYS[3], ARGV[2]) end
return 1
`

// KEYS: lead, delivery, due, lease (of one destination). ARGV: destination, id, now.
const REQUEUE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local raw = redis.call('HGET', KEYS[2], ARGV[1])
local state = raw and cjson.decode(raw) or nil
if state and state.state == 'delivered' then return 0 end
local score = redis.call('ZSCORE', KEYS[3], ARGV[2])
if redis.call('HEXISTS', KEYS[4], ARGV[2]) == 1 and score and tonumber(score) > tonumber(ARGV[3]) then return 0 end
local pending = {
  state = 'pending',
  attempts = state and state.attempts or 0,
  nextAttemptAt = tonumber(ARGV[3]),
  lastOutcome = state and state.lastOutcome or cjson.null,
  deliveredAt = cjson.null,
}
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(pending))
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
return 1
`

// KEYS: lead, delivery, then due:<destination> of each destination in ARGV[6…]. ARGV: the lead as
// read, the lead released, now, a pending state, id. Refused (0) if the lead changed since it was read.
const RELEASE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
for i = 6, #ARGV do
  if redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[4]) == 1 then redis.call('ZADD', KEYS[i - 3], ARGV[3], ARGV[5]) end
end
return 1
`

// KEYS: the salt. ARGV: a new salt, kept only if there is none yet.
const SALT = `
local salt = redis.call('GET', KEYS[1])
if salt then return salt end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
`

// Stores written before deliveries were queued per destination kept one queue of '<id> <destination>'.
// KEYS: that queue, then due:<destination> of each destination named in ARGV.
const MOVE_LEGACY_QUEUE = `
local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #entries, 2 do
  local member = entries[i]
  local space = string.find(member, ' ', 1, true)
  if space then
    local destination = string.sub(member, space + 1)
    for d = 1, #ARGV do
      if ARGV[d] == destination then redis.call('ZADD', KEYS[d + 1], entries[i + 1], string.sub(member, 1, space - 1)) end
    end
  end
end
redis.call('DEL', KEYS[1])
return #entries / 2
`

interface LeadRecord {
  fields: NewLead['fields']
  /** Absent in leads stored before it was kept. */
  attribution?: LeadAttribution
  receivedAt: number
  sourcePage: string
  addressHash: string
  spamReason?: SpamReason | null
  /** Written before spam kept its reason. */
  spam?: boolean
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
  readonly #client: Promise<Redis>
  readonly #prefix: string
  readonly #destinations: readonly Destination[]
  #salt: Promise<string> | undefined
  #legacyQueueMoved: Promise<unknown> | undefined

  constructor(client: Promise<Redis>, options: { prefix: string; destinations: readonly Destination[] }) {
    this.#client = client
    this.#prefix = options.prefix
    this.#destinations = options.destinations
  }

  #key(...parts: string[]): string {
    return [this.#prefix, ...parts].join(':')
  }

  /** The client, once the queue of an older store (if any) has been moved to the queues per destination. */
  async #redis(): Promise<Redis> {
    const redis = await this.#client
    this.#legacyQueueMoved ??= redis
      .eval(MOVE_LEGACY_QUEUE, [this.#key('due'), ...DESTINATIONS.map((destination) => this.#key('due', destination))], [...DESTINATIONS])
      .catch((error: unknown) => {
        this.#legacyQueueMoved = undefined
        throw error
      })
    await this.#legacyQueueMoved
    return redis
  }

  async save(lead: NewLead): Promise<SavedLead> {
    const redis = await this.#client
    const id = newLeadId(lead.receivedAt)
    const record: LeadRecord = {
      fields: lead.fields,
      attribution: lead.attribution,
      receivedAt: lead.receivedAt.getTime(),
      sourcePage: lead.sourcePage,
      addressHash: lead.addressHash,
      spamReason: lead.spamReason,
    }
    const pending: StateRecord = { state: 'pending', attempts: 0, nextAttemptAt: record.receivedAt, lastOutcome: null, deliveredAt: null }
    const destinations = lead.spamReason === null ? this.#destinations : []
    const keys = [
      this.#key('duplicate', duplicateKey(lead.fields, lead.spamReason !== null)),
      this.#key('lead', id),
      this.#key('received'),
      this.#key('delivery', id),
      ...destinations.map((destination) => this.#key('due', destination)),
    ]
    const args = [id, JSON.stringify(record), String(record.receivedAt), String(DUPLICATE_WINDOW_MS), JSON.stringify(pending), ...destinations]
    // One retry: if the first call was written but its answer lost, the duplicate key answers the same id.
    let saved: unknown
    try {
      saved = await redis.eval(SAVE, keys, args)
    } catch {
      saved = await redis.eval(SAVE, keys, args)
    }
    const savedId = String(saved)
    return { id: savedId, duplicate: savedId !== id }
  }

  addressSalt(): Promise<string> {
    this.#salt ??= this.#client
      .then((redis) => redis.eval(SALT, [this.#key('address-salt')], [newAddressSalt()]))
      .then(String)
      .catch((error: unknown) => {
        this.#salt = undefined
        throw error
      })
    return this.#salt
  }

  async list(): Promise<StoredLead[]> {
    const redis = await this.#client
    const ids = (await redis.zrange(this.#key('received'), 0, -1)) as string[]
    const leads: StoredLead[] = []
    for (let start = 0; start < ids.length; start += PAGE) {
      leads.push(...(await this.#readMany(redis, ids.slice(start, start + PAGE))).filter((lead): lead is StoredLead => lead !== null))
    }
    return leads
  }

  async #readMany(redis: Redis, ids: string[]): Promise<Array<StoredLead | null>> {
    if (ids.length === 0) return []
    const pipeline = redis.pipeline()
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
    const redis = await this.#redis()
    const now = options.now.getTime()
    const reply = (await redis.eval(
      CLAIM,
      this.#destinations.flatMap((destination) => [
        this.#key('due', destination),
        this.#key('lease', destination),
        this.#key('started', destination),
      ]),
      [
        String(now),
        String(now + options.leaseMs),
        String(now - DELIVERY_RATE_WINDOW_MS),
        String(options.perMinute),
        String(options.limit),
        newLeaseToken(),
        options.leadId ?? '',
      ],
    )) as string[]
    const claims: Array<{ destination: Destination; id: string; lease: string }> = []
    for (let index = 0; index + 2 < reply.length; index += 3) {
      const destination = this.#destinations[Number(reply[index]) - 1]
      if (destination) claims.push({ destination, id: String(reply[index + 1]), lease: String(reply[index + 2]) })
    }
    const leads = await this.#readMany(redis, [...new Set(claims.map((claim) => claim.id))])
    const byId = new Map(leads.filter((lead): lead is StoredLead => lead !== null).map((lead) => [lead.id, lead]))
    const result: ClaimedDelivery[] = []
    for (const { destination, id, lease } of claims) {
      const lead = byId.get(id)
      if (!lead) {
        // A lead purged meanwhile: nothing left to deliver.
        await redis.zrem(this.#key('due', destination), id)
        continue
      }
      result.push({ lead, destination, attempts: lead.deliveries[destination]?.attempts ?? 0, lease })
    }
    return result
  }

  async record(claim: ClaimedDelivery, attempt: AttemptRecord): Promise<boolean> {
    const redis = await this.#client
    const { lead, destination, lease } = claim
    const attempts = claim.attempts + 1
    const state: StateRecord = attempt.delivered
      ? { state: 'delivered', attempts, nextAttemptAt: null, lastOutcome: 'delivered', deliveredAt: attempt.at.getTime() }
      : {
          state: attempt.nextAttemptAt ? 'pending' : 'failed',
          attempts,
          nextAttemptAt: attempt.nextAttemptAt?.getTime() ?? null,
          lastOutcome: attempt.outcome,
          deliveredAt: null,
        }
    const recorded = await redis.eval(
      RECORD,
      [this.#key('lead', lead.id), this.#key('delivery', lead.id), this.#key('due', destination), this.#key('lease', destination)],
      [destination, lead.id, lease, JSON.stringify(state), state.nextAttemptAt === null ? '' : String(state.nextAttemptAt)],
    )
    return Number(recorded) === 1
  }

  async requeue(destinations: readonly Destination[], now: Date): Promise<number> {
    const redis = await this.#redis()
    let changed = 0
    for (const lead of await this.list()) {
      if (lead.spamReason !== null) continue
      for (const destination of destinations) {
        if (lead.deliveries[destination]?.state === 'delivered') continue
        const requeued = await redis.eval(
          REQUEUE,
          [this.#key('lead', lead.id), this.#key('delivery', lead.id), this.#key('due', destination), this.#key('lease', destination)],
          [destination, lead.id, String(now.getTime())],
        )
        changed += Number(requeued)
      }
    }
    return changed
  }

  async release(id: string, destinations: readonly Destination[], now: Date): Promise<ReleaseResult> {
    const redis = await this.#redis()
    const pending: StateRecord = { state: 'pending', attempts: 0, nextAttemptAt: now.getTime(), lastOutcome: null, deliveredAt: null }
    // The lead is read, changed and written back only if no one changed it meanwhile; tried again if someone did.
    for (;;) {
      const raw = await redis.get(this.#key('lead', id))
      if (typeof raw !== 'string') return 'not-found'
      const { spam: _legacy, ...record } = JSON.parse(raw) as LeadRecord
      if (spamReasonOf(record) === null) return 'not-spam'
      const released: LeadRecord = { ...record, spamReason: null }
      const written = await redis.eval(
        RELEASE,
        [this.#key('lead', id), this.#key('delivery', id), ...destinations.map((destination) => this.#key('due', destination))],
        [raw, JSON.stringify(released), String(now.getTime()), JSON.stringify(pending), id, ...destinations],
      )
      if (Number(written) === 1) return 'released'
    }
  }

  async purge(before: Date): Promise<number> {
    const redis = await this.#redis()
    const ids = (await redis.zrange(this.#key('received'), '-inf', before.getTime() - 1, { byScore: true })) as string[]
    for (let start = 0; start < ids.length; start += PAGE) {
      const page = ids.slice(start, start + PAGE)
      const transaction = redis.multi()
      transaction.del(...page.flatMap((id) => [this.#key('lead', id), this.#key('delivery', id)]))
      transaction.zrem(this.#key('received'), ...page)
      for (const destination of DESTINATIONS) {
        transaction.zrem(this.#key('due', destination), ...page)
        transaction.hdel(this.#key('lease', destination), ...page)
      }
      await transaction.exec()
    }
    return ids.length
  }

  async close(): Promise<void> {}
}

function isDestination(value: string): value is Destination {
  return (DESTINATIONS as readonly string[]).includes(value)
}

function spamReasonOf(record: LeadRecord): SpamReason | null {
  return record.spamReason ?? (record.spam ? 'unrecorded' : null)
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
    attribution: record.attribution ?? NO_ATTRIBUTION,
    receivedAt: new Date(record.receivedAt),
    sourcePage: record.sourcePage,
    addressHash: record.addressHash,
    spamReason: spamReasonOf(record),
    deliveries,
  }
}
