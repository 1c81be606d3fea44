/**
 * The shared quota store: `@upstash/ratelimit`'s token bucket in Upstash Redis (one token per 500 ms,
 * 150 at most), so every instance charges the same buckets. It throws when Redis does not answer in
 * time; blocked clients are remembered in a bounded in-process cache until their next token is due.
 */
import { Ratelimit } from '@upstash/ratelimit'
import type { Redis } from '@upstash/redis'
import { BUCKET, type BucketShape, type QuotaDecision } from './token-bucket.ts'

export class QuotaStoreTimeoutError extends Error {
  override name = 'QuotaStoreTimeoutError'
}

/** A Map that forgets its oldest entries beyond `limit` (the ratelimit library only accepts a Map). */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly limit: number
  constructor(limit: number) {
    super()
    this.limit = limit
  }
  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.limit) {
      const oldest = this.keys().next()
      if (!oldest.done) this.delete(oldest.value)
    }
    return super.set(key, value)
  }
}

export const BLOCKED_CACHE_LIMIT = 10_000

export class UpstashQuotaStore {
  readonly #ratelimit: Ratelimit
  #batch: Array<() => void> = []

  /** `bucket`: the agent API's quota unless given (the contact form keeps a smaller one under its own prefix). */
  constructor(redis: Redis, options: { prefix: string; timeoutMs: number; bucket?: BucketShape }) {
    const bucket = options.bucket ?? BUCKET
    this.#ratelimit = new Ratelimit({
      redis,
      limiter: Ratelimit.tokenBucket(bucket.tokensPerRefill, `${bucket.refillIntervalMs} ms`, bucket.capacity),
      prefix: options.prefix,
      // The client's own deadline aborts first; this is the library's backstop, reported as an error below.
      timeout: options.timeoutMs + 50,
      analytics: false,
      ephemeralCache: new BoundedMap<string, number>(BLOCKED_CACHE_LIMIT),
    })
  }

  async consume(key: string): Promise<QuotaDecision> {
    await this.#sameBatch()
    const result = await this.#ratelimit.limit(key)
    // On timeout the library "fails open" with limit 0; for us it is a store failure.
    if (result.reason === 'timeout') throw new QuotaStoreTimeoutError('Upstash Redis did not answer in time')
    return { allowed: result.success, remaining: result.remaining, resetAt: result.reset }
  }

  /**
   * Resolves every consume that arrived in this turn of the event loop together, in one macrotask,
   * so @upstash/redis's auto-pipelining sends all their scripts in one REST call instead of one
   * call per request (the measured cost of Upstash mode: the HTTP round trips, not Redis).
   */
  #sameBatch(): Promise<void> {
    return new Promise((resolve) => {
      this.#batch.push(resolve)
      if (this.#batch.length > 1) return
      setImmediate(() => {
        const released = this.#batch
        this.#batch = []
        for (const release of released) release()
      })
    })
  }
}
