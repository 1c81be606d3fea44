/**
 * What a lead store keeps beyond `LeadStore` (lib/leads/lead.ts): each lead's delivery state per
 * destination, claimed and recorded by delivery, listed, re-queued, released and purged by the
 * operator. Both stores (store-sqlite.ts, store-upstash.ts) implement it; store.ts picks one from the
 * settings.
 *
 * Exactly once per destination while nothing crashes rests on the lease: a delivery is claimed right
 * before its one attempt, under a lease longer than an attempt can take and a token of its own; only
 * the holder of that token may record the outcome, and no other worker (nor the operator's retry)
 * claims it while the lease runs. If the worker dies, the lease runs out and the next round takes the
 * delivery over; a record that comes after that, from the old worker, is refused.
 */
import type { LeadStore, NewLead, SavedLead } from './lead.ts'

/** Where a lead is sent, in this order. */
export const DESTINATIONS = ['webhook', 'slack'] as const
export type Destination = (typeof DESTINATIONS)[number]

/** The delivery of one lead to one destination. */
export interface DeliveryState {
  /** `failed`: given up (the give-up age passed); `npm run leads -- retry` makes it pending again. */
  state: 'pending' | 'delivered' | 'failed'
  attempts: number
  /** When the next attempt is due (pending only). */
  nextAttemptAt: Date | null
  /** What the last attempt got: `HTTP 503`, `timeout`, `connection refused`… — never anything of the lead. */
  lastOutcome: string | null
  deliveredAt: Date | null
}

export interface StoredLead extends NewLead {
  id: string
  deliveries: Partial<Record<Destination, DeliveryState>>
}

/** A delivery claimed for one attempt that starts now, under a lease only its token may end. */
export interface ClaimedDelivery {
  lead: StoredLead
  destination: Destination
  /** Attempts made before this one. */
  attempts: number
  /** The fencing token of this claim: `record` is refused without it. */
  lease: string
}

export type AttemptRecord =
  | { delivered: true; at: Date }
  /** `nextAttemptAt` null: given up. */
  | { delivered: false; at: Date; outcome: string; nextAttemptAt: Date | null }

export interface ClaimOptions {
  now: Date
  /** How long the claimed attempts may take before another worker may claim them again. */
  leaseMs: number
  /** At most this many deliveries: only as many as the caller starts at once. */
  limit: number
  /** At most this many attempts per destination started in any minute, by every worker together. */
  perMinute: number
  /** Only this lead's deliveries (the attempt right after the form's answer). */
  leadId?: string
}

export type ReleaseResult = 'released' | 'not-found' | 'not-spam'

/** The whole store: saving (the form), delivery bookkeeping, and the operator's reading and purging. */
export interface LeadArchive extends LeadStore {
  readonly kind: 'sqlite' | 'upstash'
  /** Saved once durably written; a pending delivery is recorded with it for each destination (none for spam). */
  save(lead: NewLead): Promise<SavedLead>
  /** Every lead, spam included, oldest first. */
  list(): Promise<StoredLead[]>
  /** Due deliveries that no live lease holds, each leased to the caller with a token of its own. */
  claim(options: ClaimOptions): Promise<ClaimedDelivery[]>
  /** Records an attempt's outcome and ends its lease; false (nothing written) when the lease is no longer this claim's. */
  record(claim: ClaimedDelivery, attempt: AttemptRecord): Promise<boolean>
  /**
   * The operator's retry: every undelivered delivery to these destinations that no live lease holds
   * becomes due now — pending ones whatever their schedule, given-up ones again, and destinations a
   * lead (not spam) never had. Returns how many.
   */
  requeue(destinations: readonly Destination[], now: Date): Promise<number>
  /** A suspected spam lead becomes a lead: its deliveries to these destinations are due now. */
  release(id: string, destinations: readonly Destination[], now: Date): Promise<ReleaseResult>
  /** Deletes leads received before `before`, leaving nothing of them in the store's files; returns how many. */
  purge(before: Date): Promise<number>
  close(): Promise<void>
}

/** The same email and message again within this time is the same lead (a double submit, a reload). */
export const DUPLICATE_WINDOW_MS = 10 * 60_000

/** The window of `ClaimOptions.perMinute`. */
export const DELIVERY_RATE_WINDOW_MS = 60_000
