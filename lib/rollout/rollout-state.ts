/**
 * This process's view of `public_agent_access`, served from memory: refreshed from the shared setting
 * in the background every 2 s, so a flip reaches every instance within 5 s at no per-request network
 * cost. A value older than 4 s (a process that slept, e.g. a frozen serverless function) is refreshed
 * before it is used; a failing refresh keeps the last value and is logged once per outage.
 */
import type { StoreLogger } from '../quota/failover-store.ts'

export const ROLLOUT_REFRESH_MS = 2000
const ROLLOUT_MAX_AGE_MS = 4000

export type RolloutSourceName = 'shared setting' | 'PUBLIC_AGENT_ACCESS'

export interface RolloutStateOptions {
  /** `PUBLIC_AGENT_ACCESS` (default true): the value while the shared setting is absent or unknown. */
  fallback: boolean
  /** Reads the shared setting (`null`: not set); absent in embedded mode. */
  read?: (() => Promise<boolean | null>) | undefined
  refreshMs?: number
  maxAgeMs?: number
  log?: StoreLogger
  now?: () => number
}

export class RolloutState {
  #value: boolean
  #source: RolloutSourceName = 'PUBLIC_AGENT_ACCESS'
  readonly #fallback: boolean
  readonly #read: (() => Promise<boolean | null>) | undefined
  readonly #refreshMs: number
  readonly #maxAgeMs: number
  readonly #log: StoreLogger
  readonly #now: () => number
  #fetchedAt = Number.NEGATIVE_INFINITY
  #attemptedAt = Number.NEGATIVE_INFINITY
  #inflight: Promise<void> | null = null
  #failing = false
  #timer: ReturnType<typeof setInterval> | null = null
  #announced = false

  constructor(options: RolloutStateOptions) {
    this.#fallback = options.fallback
    this.#value = options.fallback
    this.#read = options.read
    this.#refreshMs = options.refreshMs ?? ROLLOUT_REFRESH_MS
    this.#maxAgeMs = options.maxAgeMs ?? ROLLOUT_MAX_AGE_MS
    this.#log = options.log ?? console
    this.#now = options.now ?? (() => performance.now())
  }

  /** The last known value (no refresh). */
  get value(): boolean {
    return this.#value
  }

  get source(): RolloutSourceName {
    return this.#source
  }

  /**
   * The current value: synchronously while it is fresh enough, else after one refresh. A refresh that
   * failed less than `maxAgeMs` ago is not awaited again: requests never queue behind a broken store.
   */
  current(): boolean | Promise<boolean> {
    if (!this.#read) {
      if (!this.#announced) {
        this.#announced = true
        this.#log.info(`[rollout] public_agent_access is ${this.#value ? 'enabled' : 'disabled'} (PUBLIC_AGENT_ACCESS; no shared rollout setting)`)
      }
      return this.#value
    }
    if (this.#timer === null) this.#startTimer()
    const now = this.#now()
    if (now - this.#fetchedAt < this.#refreshMs) return this.#value
    if (now - this.#fetchedAt < this.#maxAgeMs || now - this.#attemptedAt < this.#maxAgeMs) {
      void this.refresh()
      return this.#value
    }
    return this.refresh().then(() => this.#value)
  }

  /** Reads the shared setting once (concurrent callers share the read). Never rejects. */
  refresh(): Promise<void> {
    if (!this.#read) return Promise.resolve()
    if (this.#inflight) return this.#inflight
    const read = this.#read
    this.#attemptedAt = this.#now()
    this.#inflight = (async () => {
      try {
        const shared = await read()
        this.#fetchedAt = this.#now()
        if (this.#failing) {
          this.#failing = false
          this.#log.info('[rollout] the shared rollout setting is readable again')
        }
        this.#apply(shared ?? this.#fallback, shared === null ? 'PUBLIC_AGENT_ACCESS' : 'shared setting')
      } catch (error) {
        if (!this.#failing) {
          this.#failing = true
          const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
          this.#log.warn(
            `[rollout] cannot read the shared rollout setting (${reason.slice(0, 300)}); keeping public_agent_access=${this.#value ? 'enabled' : 'disabled'} until it answers again`,
          )
        }
      } finally {
        this.#inflight = null
      }
    })()
    return this.#inflight
  }

  #apply(value: boolean, source: RolloutSourceName): void {
    const changed = value !== this.#value
    this.#value = value
    this.#source = source
    if (changed) {
      this.#log.info(`[rollout] public_agent_access changed: ${value ? 'disabled → enabled' : 'enabled → disabled'} (${source})`)
    } else if (!this.#announced) {
      this.#log.info(`[rollout] public_agent_access is ${value ? 'enabled' : 'disabled'} (${source})`)
    }
    this.#announced = true
  }

  #startTimer(): void {
    this.#timer = setInterval(() => void this.refresh(), this.#refreshMs)
    // A background refresh must not keep a process (or a test) alive.
    this.#timer.unref?.()
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer)
    this.#timer = null
  }
}
