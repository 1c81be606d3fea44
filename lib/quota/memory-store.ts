/**
 * The in-process quota store: the same token bucket as `@upstash/ratelimit`'s Lua script (whole tokens,
 * refills anchored at the bucket's first use, a refused request writes nothing, a bucket expires when it
 * would be full again), in a least-recently-used map of bounded size.
 */
import { BUCKET, bucketLifetimeMs, type BucketShape, type QuotaDecision } from './token-bucket.ts'

interface Bucket {
  tokens: number
  refilledAt: number
  expiresAt: number
}

/** About 120 bytes per bucket: 50 000 buckets stay around 6 MB. */
const DEFAULT_MAX_BUCKETS = 50_000

export class MemoryQuotaStore {
  readonly maxBuckets: number
  readonly #buckets = new Map<string, Bucket>()
  /** The agent API's quota by default; the contact form keeps a smaller bucket of its own. */
  readonly #shape: BucketShape

  constructor(maxBuckets: number = DEFAULT_MAX_BUCKETS, shape: BucketShape = BUCKET) {
    if (!Number.isInteger(maxBuckets) || maxBuckets < 1) throw new Error('maxBuckets must be a positive integer')
    this.maxBuckets = maxBuckets
    this.#shape = shape
  }

  get size(): number {
    return this.#buckets.size
  }

  /** Charges one token to `key` at time `now` (epoch ms). */
  consume(key: string, now: number = Date.now()): QuotaDecision {
    const buckets = this.#buckets
    const shape = this.#shape
    let bucket = buckets.get(key)
    let tokens: number
    let refilledAt: number
    if (bucket === undefined || now >= bucket.expiresAt) {
      tokens = shape.capacity
      refilledAt = now
    } else {
      tokens = bucket.tokens
      refilledAt = bucket.refilledAt
      // Re-inserted below: the map's order is least recently used first.
      buckets.delete(key)
    }
    const interval = shape.refillIntervalMs
    if (now >= refilledAt + interval) {
      const refills = Math.floor((now - refilledAt) / interval)
      tokens = Math.min(shape.capacity, tokens + refills * shape.tokensPerRefill)
      refilledAt += refills * interval
    }
    if (tokens < 1) {
      // Nothing is written for a refused request (as in the Lua script); the bucket stays as it was.
      if (bucket !== undefined) buckets.set(key, bucket)
      return { allowed: false, remaining: 0, resetAt: refilledAt + interval }
    }
    const remaining = tokens - 1
    if (bucket === undefined) {
      bucket = { tokens: remaining, refilledAt, expiresAt: now + bucketLifetimeMs(remaining, shape) }
    } else {
      bucket.tokens = remaining
      bucket.refilledAt = refilledAt
      bucket.expiresAt = now + bucketLifetimeMs(remaining, shape)
    }
    buckets.set(key, bucket)
    if (buckets.size > this.maxBuckets) this.#evictOldest()
    return { allowed: true, remaining, resetAt: refilledAt + interval }
  }

  /**
   * Drops the least recently used bucket. Usually it has expired (a full bucket and a missing one are
   * the same); under a flood of more distinct clients than `maxBuckets` within 75 s, the oldest client
   * starts over with a full bucket: bounded memory wins over exactness for that client.
   */
  #evictOldest(): void {
    const oldest = this.#buckets.keys().next()
    if (!oldest.done) this.#buckets.delete(oldest.value)
  }

  clear(): void {
    this.#buckets.clear()
  }
}
