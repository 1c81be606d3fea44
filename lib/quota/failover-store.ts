/**
 * Never a 5xx because of the quota store: the shared store is used while it answers; when it throws or
 * times out, the in-process store takes over at once (logged once per outage), one request per second
 * probes the shared store again, and the first success switches back (logged once).
 */
import type { MemoryQuotaStore } from './memory-store.ts'
import type { QuotaDecision } from './token-bucket.ts'

export interface SharedQuotaStore {
  consume(key: string): Promise<QuotaDecision>
}

export interface StoreLogger {
  warn(message: string): void
  info(message: string): void
}

const PROBE_INTERVAL_MS = 1000

export class FailoverQuotaStore {
  readonly #shared: SharedQuotaStore
  readonly #local: MemoryQuotaStore
  readonly #log: StoreLogger
  readonly #probeIntervalMs: number
  readonly #onFailover: () => void
  #degraded = false
  #probing = false
  #nextProbeAt = 0

  /** `onFailover`: called once per switch to the in-process store (counted as a metric). */
  constructor(
    shared: SharedQuotaStore,
    local: MemoryQuotaStore,
    options: { log?: StoreLogger; probeIntervalMs?: number; onFailover?: () => void } = {},
  ) {
    this.#shared = shared
    this.#local = local
    this.#log = options.log ?? console
    this.#probeIntervalMs = options.probeIntervalMs ?? PROBE_INTERVAL_MS
    this.#onFailover = options.onFailover ?? (() => {})
  }

  /** `shared` while Upstash answers, `local` while the in-process store stands in for it. */
  get mode(): 'shared' | 'local' {
    return this.#degraded ? 'local' : 'shared'
  }

  consume(key: string): QuotaDecision | Promise<QuotaDecision> {
    if (!this.#degraded) return this.#consumeShared(key)
    const now = Date.now()
    if (!this.#probing && now >= this.#nextProbeAt) return this.#probe(key)
    return this.#local.consume(key, now)
  }

  async #consumeShared(key: string): Promise<QuotaDecision> {
    try {
      return await this.#shared.consume(key)
    } catch (error) {
      this.#fail(error)
      return this.#local.consume(key)
    }
  }

  async #probe(key: string): Promise<QuotaDecision> {
    this.#probing = true
    try {
      const decision = await this.#shared.consume(key)
      if (this.#degraded) {
        this.#degraded = false
        this.#log.info('[quota] Upstash Redis answers again: the shared quota store is back in use')
      }
      return decision
    } catch (error) {
      this.#fail(error)
      return this.#local.consume(key)
    } finally {
      this.#probing = false
    }
  }

  #fail(error: unknown): void {
    this.#nextProbeAt = Date.now() + this.#probeIntervalMs
    if (this.#degraded) return
    this.#degraded = true
    this.#onFailover()
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    this.#log.warn(
      `[quota] Upstash Redis failed (${reason.slice(0, 300)}); counting requests in this process until it answers again (probing every ${this.#probeIntervalMs} ms)`,
    )
  }
}
