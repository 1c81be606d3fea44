/**
 * Signatures seen: a verified signature (its signer and nonce, or its bytes when it has no nonce) is
 * admitted once until it expires. Kept in the process, bounded, and, with Upstash configured, also in
 * Redis (`SET … NX PX`), so that another instance refuses the replay too. A failing Redis leaves the
 * process's memory to decide. Only signatures that verified are remembered: an attacker without a
 * trusted key cannot fill it.
 */
import { createHash } from 'node:crypto'

/** Claims a replay key in the shared store until `expiresAt` (epoch ms): true when it was new there. */
export type SharedClaim = (key: string, expiresAt: number) => Promise<boolean>

export const MAX_REMEMBERED_SIGNATURES = 100_000

export class ReplayGuard {
  /** Replay key → expiry (epoch ms), in insertion order. */
  private readonly seen = new Map<string, number>()
  private readonly now: () => number
  private readonly shared: SharedClaim | null
  private readonly limit: number

  constructor(now: () => number = Date.now, shared: SharedClaim | null = null, limit: number = MAX_REMEMBERED_SIGNATURES) {
    this.now = now
    this.shared = shared
    this.limit = limit
  }

  /** Whether this signature is seen for the first time: at once from memory, or once the shared store answered. */
  admit(signer: string, nonce: string | null, signature: Uint8Array, expiresAt: number): boolean | Promise<boolean> {
    const key = createHash('sha256')
      .update(signer)
      .update('\n')
      .update(nonce === null ? Buffer.from(signature) : `nonce:${nonce}`)
      .digest('base64url')
    const now = this.now()
    const known = this.seen.get(key)
    if (known !== undefined && known > now) return false
    this.remember(key, expiresAt, now)
    if (!this.shared) return true
    return this.shared(key, expiresAt).catch(() => true)
  }

  private remember(key: string, expiresAt: number, now: number): void {
    if (this.seen.size >= this.limit) {
      for (const [old, expiry] of this.seen) if (expiry <= now) this.seen.delete(old)
      // Still full of live signatures: the oldest tenth goes, so that the sweep is not repeated at once.
      for (const old of this.seen.keys()) {
        if (this.seen.size < this.limit * 0.9) break
        this.seen.delete(old)
      }
    }
    this.seen.delete(key)
    this.seen.set(key, expiresAt)
  }
}
