/**
 * Nonces seen: a verified signature's nonce (with its signer) is admitted once until the signature
 * expires. Kept in the process, bounded, and, with Upstash configured, also in Redis (`SET … NX PX`),
 * so that another instance refuses the replay too. A failing Redis leaves the process's memory to
 * decide. Only signatures that verified record their nonce: an attacker without a trusted key can
 * neither fill the memory nor burn a nonce an agent is about to use. A signature without a nonce is
 * not kept here: it may be reused until it expires (./verdict-cache.ts).
 */
import { createHash } from 'node:crypto'

/** Claims a replay key in the shared store until `expiresAt` (epoch ms): true when it was new there. */
export type SharedClaim = (key: string, expiresAt: number) => Promise<boolean>

const MAX_REMEMBERED_NONCES = 100_000

export class ReplayGuard {
  /** Replay key → expiry (epoch ms), in insertion order. */
  private readonly seen = new Map<string, number>()
  private readonly now: () => number
  private readonly shared: SharedClaim | null
  private readonly limit: number

  constructor(now: () => number = Date.now, shared: SharedClaim | null = null, limit: number = MAX_REMEMBERED_NONCES) {
    this.now = now
    this.shared = shared
    this.limit = limit
  }

  /** The key a signer's nonce is remembered by: fixed-size, whatever the nonce's length. */
  replayKey(signer: string, nonce: string): string {
    return createHash('sha256').update(signer).update('\n').update(nonce).digest('base64url')
  }

  /** Whether this process admitted the key before and its signature has not expired: asked before verifying. */
  wasSeen(key: string): boolean {
    const known = this.seen.get(key)
    return known !== undefined && known > this.now()
  }

  /** Records a verified signature's key: whether it is new, at once from memory, or once the shared store answered. */
  admit(key: string, expiresAt: number): boolean | Promise<boolean> {
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
      // Still full of live nonces: the oldest tenth goes, so that the sweep is not repeated at once.
      for (const old of this.seen.keys()) {
        if (this.seen.size < this.limit * 0.9) break
        this.seen.delete(old)
      }
    }
    this.seen.delete(key)
    this.seen.set(key, expiresAt)
  }
}
