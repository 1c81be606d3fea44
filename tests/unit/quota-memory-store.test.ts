import { describe, expect, it } from 'vitest'
import { MemoryQuotaStore } from '../../lib/quota/memory-store.ts'
import { BoundedMap } from '../../lib/quota/upstash-store.ts'

const T0 = 1_800_000_000_000

describe('in-process store bounds', () => {
  it('never holds more buckets than its limit, whatever the number of clients', () => {
    const store = new MemoryQuotaStore(1000)
    for (let i = 0; i < 100_000; i++) store.consume(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, T0 + i)
    expect(store.size).toBe(1000)
  })

  it('evicts the least recently used bucket, keeping an active client counted', () => {
    const store = new MemoryQuotaStore(3)
    for (let i = 0; i < 50; i++) store.consume('busy', T0)
    store.consume('b', T0)
    store.consume('c', T0)
    store.consume('busy', T0) // touched: now the most recent
    store.consume('d', T0) // evicts b, the least recently used
    expect(store.size).toBe(3)
    expect(store.consume('busy', T0).remaining).toBe(150 - 52)
    expect(store.consume('b', T0).remaining).toBe(149) // b started over
  })

  it('a refused request does not refresh the bucket nor change it', () => {
    const store = new MemoryQuotaStore(10)
    for (let i = 0; i < 150; i++) store.consume('a', T0)
    for (let i = 0; i < 100; i++) expect(store.consume('a', T0 + 1).allowed).toBe(false)
    expect(store.consume('a', T0 + 500).remaining).toBe(0)
  })

  it('an expired bucket is a full one, anchored at its new first use', () => {
    const store = new MemoryQuotaStore(10)
    store.consume('a', T0) // 149 left, expires after 500 ms
    expect(store.consume('a', T0 + 700)).toEqual({ allowed: true, remaining: 149, resetAt: T0 + 1200 })
  })

  it('rejects a non-positive bound', () => {
    expect(() => new MemoryQuotaStore(0)).toThrow()
  })

  it('the blocked-client cache handed to @upstash/ratelimit is bounded too', () => {
    const map = new BoundedMap<string, number>(100)
    for (let i = 0; i < 10_000; i++) map.set(`k${i}`, i)
    expect(map.size).toBe(100)
    expect(map.has('k9999')).toBe(true)
    expect(map.has('k0')).toBe(false)
    expect(map).toBeInstanceOf(Map)
  })
})
