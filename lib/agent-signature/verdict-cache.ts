/**
 * Verdicts of signatures without a nonce that verified, so that an agent reusing one signature until
 * it expires (the draft lets it: `nonce` is optional) pays a map lookup per request instead of a
 * Structured Fields parse and an Ed25519 verification. An entry is found by the request's raw
 * `Signature` field and holds for the exact header set and authority it was verified with, which with
 * the signer's key and the time determine the verdict (./web-bot-auth.ts checks them on every hit).
 *
 * Only verified signatures enter, so an attacker without a trusted key cannot add entries; the number
 * of entries is bounded (expired entries go first, then the oldest), and so is the length of what each holds.
 */

/** Live entries kept; past this, expired entries and then the oldest go. */
const MAX_CACHED_VERDICTS = 10_000
/** A header set longer than this is verified each time, not kept (a usual one is about 400 characters). */
const MAX_CACHED_HEADERS_LENGTH = 2_048

export interface Expiring {
  /** Seconds since the epoch after which the entry no longer holds. */
  validUntil: number
}

export class VerdictCache<Entry extends Expiring> {
  /** Key → entry, oldest first. */
  private readonly entries = new Map<string, Entry>()
  private readonly limit: number

  constructor(limit: number = MAX_CACHED_VERDICTS) {
    this.limit = limit
  }

  get size(): number {
    return this.entries.size
  }

  /** The live entry of `key`; an expired one is dropped. */
  get(key: string, nowSeconds: number): Entry | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    if (entry.validUntil < nowSeconds) {
      this.entries.delete(key)
      return undefined
    }
    return entry
  }

  /** Keeps `entry` under `key`; `length`: the characters it holds (key included), bounded by MAX_CACHED_HEADERS_LENGTH. */
  set(key: string, entry: Entry, length: number, nowSeconds: number): void {
    if (length > MAX_CACHED_HEADERS_LENGTH) return
    if (this.entries.delete(key)) {
      this.entries.set(key, entry)
      return
    }
    if (this.entries.size >= this.limit) this.evict(nowSeconds)
    this.entries.set(key, entry)
  }

  private evict(nowSeconds: number): void {
    for (const [key, entry] of this.entries) if (entry.validUntil < nowSeconds) this.entries.delete(key)
    // Still full of live entries: the oldest tenth goes, so that the sweep is not repeated at once.
    for (const key of this.entries.keys()) {
      if (this.entries.size < this.limit * 0.9) break
      this.entries.delete(key)
    }
  }
}
