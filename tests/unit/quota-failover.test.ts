import { describe, expect, it } from 'vitest'
import { FailoverQuotaStore, type SharedQuotaStore } from '../../lib/quota/failover-store.ts'
import { MemoryQuotaStore } from '../../lib/quota/memory-store.ts'
import type { QuotaDecision } from '../../lib/quota/token-bucket.ts'
import { RolloutState } from '../../lib/rollout/rollout-state.ts'

function recordingLog() {
  const lines: string[] = []
  return { lines, log: { warn: (m: string) => lines.push(`warn ${m}`), info: (m: string) => lines.push(`info ${m}`) } }
}

/** A shared store that can be switched between answering, throwing and hanging. */
function controllableShared() {
  let mode: 'ok' | 'throw' | 'hang' = 'ok'
  let calls = 0
  const store: SharedQuotaStore = {
    consume: async (): Promise<QuotaDecision> => {
      calls++
      if (mode === 'throw') throw new Error('connect ECONNREFUSED')
      if (mode === 'hang') await new Promise((resolve) => setTimeout(resolve, 50))
      if (mode === 'hang') throw new Error('TimeoutError: aborted')
      return { allowed: true, remaining: 42, resetAt: Date.now() + 500 }
    },
  }
  return { store, set: (next: typeof mode) => (mode = next), calls: () => calls }
}

describe('quota store failover', () => {
  it('answers from the in-process store when the shared one fails, logs once, probes, and switches back', async () => {
    const shared = controllableShared()
    const { lines, log } = recordingLog()
    const store = new FailoverQuotaStore(shared.store, new MemoryQuotaStore(), { log, probeIntervalMs: 100 })
    expect(await store.consume('a')).toMatchObject({ remaining: 42 })
    expect(store.mode).toBe('shared')

    shared.set('throw')
    const local = await store.consume('a')
    expect(local).toMatchObject({ allowed: true, remaining: 149 })
    expect(store.mode).toBe('local')
    const callsAfterFailure = shared.calls()
    // Within the probe interval, no call reaches the shared store: answers are synchronous and local.
    for (let i = 0; i < 20; i++) expect(store.consume('a')).toMatchObject({ allowed: true, remaining: 148 - i })
    expect(shared.calls()).toBe(callsAfterFailure)
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(await store.consume('a')).toMatchObject({ remaining: 128 }) // the probe failed: still local
    expect(shared.calls()).toBe(callsAfterFailure + 1)
    expect(lines.filter((l) => l.startsWith('warn'))).toHaveLength(1)
    expect(lines[0]).toMatch(/^warn \[quota\] Upstash Redis failed \(Error: connect ECONNREFUSED\)/)

    shared.set('ok')
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(await store.consume('a')).toMatchObject({ remaining: 42 })
    expect(store.mode).toBe('shared')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toBe('info [quota] Upstash Redis answers again: the shared quota store is back in use')
  })

  it('lets only one request at a time wait for a probe of a hanging store', async () => {
    const shared = controllableShared()
    const { lines, log } = recordingLog()
    const store = new FailoverQuotaStore(shared.store, new MemoryQuotaStore(), { log, probeIntervalMs: 0 })
    shared.set('throw')
    await store.consume('a')
    shared.set('hang')
    const started = Date.now()
    const probe = store.consume('a') // probes: waits for the hanging call
    const others = Array.from({ length: 10 }, () => store.consume('a'))
    for (const other of others) expect(other).not.toBeInstanceOf(Promise)
    await probe
    expect(Date.now() - started).toBeGreaterThanOrEqual(45)
    expect(lines.filter((l) => l.startsWith('warn'))).toHaveLength(1)
  })
})

describe('rollout state', () => {
  function fakeClock() {
    let now = 0
    return { now: () => now, advance: (ms: number) => (now += ms) }
  }

  it('without a shared setting serves PUBLIC_AGENT_ACCESS synchronously, announced once', () => {
    const { lines, log } = recordingLog()
    const off = new RolloutState({ fallback: false, log })
    expect(off.current()).toBe(false)
    expect(off.current()).toBe(false)
    expect(new RolloutState({ fallback: true, log }).current()).toBe(true)
    expect(lines).toEqual([
      'info [rollout] public_agent_access is disabled (PUBLIC_AGENT_ACCESS; no shared rollout setting)',
      'info [rollout] public_agent_access is enabled (PUBLIC_AGENT_ACCESS; no shared rollout setting)',
    ])
  })

  it('waits for the first read, then serves from memory and refreshes in the background', async () => {
    const clock = fakeClock()
    let shared: boolean | null = null
    let reads = 0
    const { lines, log } = recordingLog()
    const state = new RolloutState({
      fallback: true,
      read: async () => {
        reads++
        return shared
      },
      log,
      now: clock.now,
      refreshMs: 2000,
      maxAgeMs: 4000,
    })
    shared = false
    const first = state.current()
    expect(first).toBeInstanceOf(Promise)
    expect(await first).toBe(false)
    expect(state.source).toBe('shared setting')
    expect(reads).toBe(1)
    // Fresh: no read at all, for any number of requests.
    for (let i = 0; i < 100; i++) expect(state.current()).toBe(false)
    expect(reads).toBe(1)
    // Stale but not too old: answer at once, refresh behind it.
    shared = true
    clock.advance(2500)
    expect(state.current()).toBe(false)
    await state.refresh()
    expect(reads).toBe(2)
    expect(state.current()).toBe(true)
    // Deleted setting: back to PUBLIC_AGENT_ACCESS.
    shared = null
    clock.advance(5000)
    expect(await state.current()).toBe(true)
    expect(state.source).toBe('PUBLIC_AGENT_ACCESS')
    state.stop()
    expect(lines).toEqual([
      'info [rollout] public_agent_access changed: enabled → disabled (shared setting)',
      'info [rollout] public_agent_access changed: disabled → enabled (shared setting)',
    ])
  })

  it('keeps the last value while the setting cannot be read, logs once, and does not make requests wait again', async () => {
    const clock = fakeClock()
    let failing = false
    let reads = 0
    const { lines, log } = recordingLog()
    const state = new RolloutState({
      fallback: true,
      read: async () => {
        reads++
        if (failing) throw new Error('fetch failed')
        return false
      },
      log,
      now: clock.now,
    })
    expect(await state.current()).toBe(false)
    failing = true
    clock.advance(10_000)
    expect(await state.current()).toBe(false) // too old: waits once, the read fails, last value kept
    expect(reads).toBe(2)
    clock.advance(100)
    expect(state.current()).toBe(false) // a failed read moments ago: no waiting
    await state.refresh()
    await state.refresh()
    expect(lines.filter((l) => l.startsWith('warn'))).toEqual([
      'warn [rollout] cannot read the shared rollout setting (Error: fetch failed); keeping public_agent_access=disabled until it answers again',
    ])
    failing = false
    clock.advance(10_000)
    expect(await state.current()).toBe(false)
    expect(lines.at(-1)).toBe('info [rollout] the shared rollout setting is readable again')
    state.stop()
  })
})
