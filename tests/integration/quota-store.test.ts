/**
 * Identical semantics of the two quota stores: the same random request sequence, on a controlled clock,
 * gives the same decisions (allowed, remaining, next token) from the in-process store and from
 * `@upstash/ratelimit`'s token bucket in a real Redis behind the Upstash REST bridge. Redis expires keys
 * on its own (real) clock, so the controlled clock never lets a bucket sit idle until it would expire;
 * expiry itself is covered by the in-process store's unit tests (it mirrors the script's PEXPIRE).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { FailoverQuotaStore } from '../../lib/quota/failover-store.ts'
import { MemoryQuotaStore } from '../../lib/quota/memory-store.ts'
import { bucketLifetimeMs, type QuotaDecision } from '../../lib/quota/token-bucket.ts'
import { UpstashQuotaStore } from '../../lib/quota/upstash-store.ts'
import { createUpstashRedis } from '../../lib/redis/upstash-client.ts'
import { startRedis, type RunningRedis } from '../../harness/redis.ts'
import { startUpstashBridge, type UpstashBridge } from '../../harness/upstash-bridge.ts'

let redis: RunningRedis
let bridge: UpstashBridge

beforeAll(async () => {
  redis = await startRedis()
  bridge = await startUpstashBridge({ redisPort: redis.port })
})
afterAll(async () => {
  vi.useRealTimers()
  await bridge?.stop()
  await redis?.dispose()
})

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('in-process and Upstash stores', () => {
  it('decide identically over bursts, refusals and refills', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const T0 = 1_900_000_000_000
    vi.setSystemTime(T0)
    const client = createUpstashRedis({ url: bridge.url, token: bridge.token, timeoutMs: 2_000 })
    const upstash = new UpstashQuotaStore(client, { prefix: `equivalence-${process.pid}`, timeoutMs: 2_000 })
    const memory = new MemoryQuotaStore()
    const next = random(20261121)
    const lastReset = new Map<string, number>()
    const expiresAt = new Map<string, number>()
    let now = T0
    let refused = 0
    let refills = 0
    for (let i = 0; i < 700; i++) {
      const key = `198.51.100.${Math.floor(next() * 2)}`
      // Mostly bursts (no time passing), sometimes a pause of up to 1 s, never long enough for a
      // bucket to expire.
      const pause = next() < 0.85 ? 0 : Math.floor(next() * 1_000)
      now += Math.max(0, Math.min(pause, Math.min(...expiresAt.values()) - now - 1))
      // The library remembers a blocked client until exactly its next token, one millisecond longer
      // than the bucket itself; that instant is not a semantic difference worth chasing.
      if (lastReset.get(key) === now) now += 1
      vi.setSystemTime(now)
      const expected: QuotaDecision = memory.consume(key, now)
      const actual = await upstash.consume(key)
      expect(actual, `request ${i} for ${key} at +${now - T0} ms`).toEqual(expected)
      lastReset.set(key, expected.resetAt)
      if (expected.allowed) expiresAt.set(key, now + bucketLifetimeMs(expected.remaining))
      if (!expected.allowed) refused++
      if (expected.allowed && expected.remaining > 0 && i > 0) refills++
    }
    // The sequence really exercised refusals and refills.
    expect(refused).toBeGreaterThan(20)
    expect(refills).toBeGreaterThan(100)
  })
})

describe('the Upstash store under concurrency', () => {
  it('sends the consumes of one event-loop turn in one REST call, as requests read from many sockets are', async () => {
    const client = createUpstashRedis({ url: bridge.url, token: bridge.token, timeoutMs: 2_000 })
    const store = new UpstashQuotaStore(client, { prefix: `batching-${process.pid}`, timeoutMs: 2_000 })
    await store.consume('warm-up') // loads the script (EVALSHA, then EVAL on NOSCRIPT)
    bridge.resetCounts()
    // Each consume starts in its own macrotask, the way each request's socket data arrives.
    const decisions = await Promise.all(
      Array.from(
        { length: 30 },
        (_, index) => new Promise<QuotaDecision>((resolve, reject) => setImmediate(() => store.consume(`client-${index % 3}`).then(resolve, reject))),
      ),
    )
    expect(bridge.requestCounts()).toEqual({ '/pipeline': 1 })
    expect(bridge.commandCounts()).toEqual({ EVALSHA: 30 })
    // Ten requests per client, in order: 149 … 140 remaining.
    expect(decisions.filter((_, index) => index % 3 === 0).map((decision) => decision.remaining)).toEqual([
      149, 148, 147, 146, 145, 144, 143, 142, 141, 140,
    ])
    expect(decisions.every((decision) => decision.allowed)).toBe(true)
  })
})

describe('an erroring Upstash (wrong token: every call answered 401)', () => {
  it('is a store failure: the in-process store answers, logged once', async () => {
    vi.useRealTimers()
    const client = createUpstashRedis({ url: bridge.url, token: 'not-the-token', timeoutMs: 500 })
    const lines: string[] = []
    const log = { warn: (m: string) => lines.push(m), info: (m: string) => lines.push(m) }
    const store = new FailoverQuotaStore(new UpstashQuotaStore(client, { prefix: 'wrong-token', timeoutMs: 500 }), new MemoryQuotaStore(), { log })
    const decisions = []
    for (let i = 0; i < 5; i++) decisions.push(await store.consume('203.0.113.1'))
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 149],
      [true, 148],
      [true, 147],
      [true, 146],
      [true, 145],
    ])
    expect(store.mode).toBe('local')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[quota\] Upstash Redis failed \(UpstashError: Unauthorized/)
  })
})
