import { describe, expect, it } from 'vitest'
import { QUOTA } from '../../lib/contract/constants.ts'
import { MemoryQuotaStore } from '../../lib/quota/memory-store.ts'
import { BUCKET, bucketLifetimeMs, quotaHeaderValues, type QuotaDecision } from '../../lib/quota/token-bucket.ts'

const T0 = 1_800_000_000_000

describe('token bucket constants', () => {
  it('derive capacity 150 and one token per 500 ms from the contract constants', () => {
    expect(BUCKET).toEqual({ capacity: 150, refillIntervalMs: 500, tokensPerRefill: 1 })
    expect(QUOTA.requestsPerWindow / QUOTA.windowSeconds).toBe(QUOTA.refillPerSecond)
    expect(QUOTA.requestsPerWindow + QUOTA.burst).toBe(QUOTA.capacity)
  })
})

describe('header values (standards §1.4 worked values)', () => {
  it('full bucket, first request → Remaining 149, Reset 1', () => {
    const store = new MemoryQuotaStore()
    const decision = store.consume('a', T0)
    expect(decision).toEqual({ allowed: true, remaining: 149, resetAt: T0 + 500 })
    expect(quotaHeaderValues(decision, T0)).toEqual({ limit: 150, remaining: 149, reset: 1, retryAfter: null })
  })

  it('150 requests at once → Remaining 0, Reset 75; the 151st → 429, Retry-After 1, Reset 1', () => {
    const store = new MemoryQuotaStore()
    const values = []
    for (let i = 0; i < 150; i++) values.push(quotaHeaderValues(store.consume('a', T0), T0))
    expect(values.map((v) => v.remaining)).toEqual(Array.from({ length: 150 }, (_, i) => 149 - i))
    // Reset = ceil((150 − tokens) / 2) with tokens = remaining exactly when no time passed.
    expect(values.map((v) => v.reset)).toEqual(Array.from({ length: 150 }, (_, i) => Math.ceil((150 - (149 - i)) / 2)))
    expect(values[149]).toEqual({ limit: 150, remaining: 0, reset: 75, retryAfter: null })
    const refused = store.consume('a', T0)
    expect(refused).toEqual({ allowed: false, remaining: 0, resetAt: T0 + 500 })
    expect(quotaHeaderValues(refused, T0)).toEqual({ limit: 150, remaining: 0, reset: 1, retryAfter: 1 })
  })

  it('uses the real-valued level: Reset = ceil((150 − level) / 2) with level = remaining + progress to the next token', () => {
    // 10 requests at T0, then one 300 ms later: 139 whole tokens left, 0.6 of the next one → level 139.6.
    const store = new MemoryQuotaStore()
    for (let i = 0; i < 10; i++) store.consume('a', T0)
    const decision = store.consume('a', T0 + 300)
    expect(decision).toEqual({ allowed: true, remaining: 139, resetAt: T0 + 500 })
    expect(quotaHeaderValues(decision, T0 + 300)).toEqual({ limit: 150, remaining: 139, reset: Math.ceil((150 - 139.6) / 2), retryAfter: null })
    expect(quotaHeaderValues(decision, T0 + 300).reset).toBe(6)
  })

  it('Retry-After = max(1, ceil((1 − level) / 2)) and never more than the time to the next token', () => {
    const refused: QuotaDecision = { allowed: false, remaining: 0, resetAt: T0 + 500 }
    expect(quotaHeaderValues(refused, T0).retryAfter).toBe(1)
    expect(quotaHeaderValues(refused, T0 + 499).retryAfter).toBe(1)
    // A clock that is ahead or behind another instance's is clamped into one interval.
    expect(quotaHeaderValues(refused, T0 + 5_000)).toEqual({ limit: 150, remaining: 0, reset: 1, retryAfter: 1 })
    expect(quotaHeaderValues(refused, T0 - 60_000)).toEqual({ limit: 150, remaining: 0, reset: 1, retryAfter: 1 })
  })

  it('for any progress towards the next token, Reset on a 2xx depends on Remaining only', () => {
    for (let remaining = 0; remaining < 150; remaining++) {
      for (const untilNext of [1, 100, 250, 499, 500]) {
        const values = quotaHeaderValues({ allowed: true, remaining, resetAt: T0 + untilNext }, T0)
        expect(values.reset).toBe(Math.floor((149 - remaining) / 2) + 1)
        expect(values.reset).toBe(Math.ceil((150 - (remaining + 1 - untilNext / 500)) / 2))
      }
    }
  })

  it('refills one token per 500 ms, never above 150, and a refused request costs nothing', () => {
    const store = new MemoryQuotaStore()
    for (let i = 0; i < 150; i++) store.consume('a', T0)
    expect(store.consume('a', T0 + 499).allowed).toBe(false)
    expect(store.consume('a', T0 + 499).allowed).toBe(false)
    // One token at T0 + 500: exactly one request passes.
    expect(store.consume('a', T0 + 500)).toEqual({ allowed: true, remaining: 0, resetAt: T0 + 1000 })
    expect(store.consume('a', T0 + 501)).toEqual({ allowed: false, remaining: 0, resetAt: T0 + 1000 })
    // 10 s later: 20 tokens back.
    expect(store.consume('a', T0 + 10_500)).toEqual({ allowed: true, remaining: 19, resetAt: T0 + 11_000 })
    // Much later: full again (150, so 149 after this request), no overflow.
    expect(store.consume('a', T0 + 3_600_000).remaining).toBe(149)
  })

  it('steady state allows 2 requests per second; from a full bucket at most 270 in 60 s', () => {
    const store = new MemoryQuotaStore()
    let admitted = 0
    for (let t = 0; t < 60_000; t += 10) if (store.consume('a', T0 + t).allowed) admitted++
    expect(admitted).toBe(150 + 119) // 119 refills strictly inside the 60 s span (the 120th lands at 60 000)
    expect(store.consume('a', T0 + 60_000).allowed).toBe(true)
  })

  it('a bucket lives until it would be full again', () => {
    expect(bucketLifetimeMs(149)).toBe(500)
    expect(bucketLifetimeMs(0)).toBe(75_000)
  })
})
