/**
 * What a lead store keeps beyond `LeadStore.save` (lib/leads/lead.ts): each lead's delivery state per
 * destination, claimed and recorded by delivery, listed, re-queued and purged by the operator. Both
 * stores (store-sqlite.ts, store-upstash.ts) implement it; store.ts picks one from the settings.
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

/** A delivery claimed by one worker: leased until `leaseMs` after the claim, so no other picks it up meanwhile. */
export interface ClaimedDelivery {
  lead: StoredLead
  destination: Destination
  /** Attempts made before this one. */
  attempts: number
}

export type AttemptRecord =
  | { delivered: true; at: Date }
  /** `nextAttemptAt` null: given up. */
  | { delivered: false; at: Date; outcome: string; nextAttemptAt: Date | null }

export interface ClaimOptions {
  now: Date
  leaseMs: number
  limit: number
  /** Only this lead's deliveries (the attempt right after the form's answer). */
  leadId?: string
}

/** The whole store: saving (the form), delivery bookkeeping, and the operator's reading and purging. */
export interface LeadArchive extends LeadStore {
  readonly kind: 'sqlite' | 'upstash'
  /** Saved once durably written; a pending delivery is recorded with it for each destination (none for spam). */
  save(lead: NewLead): Promise<SavedLead>
  /** Every lead, oldest first. */
  list(): Promise<StoredLead[]>
  claim(options: ClaimOptions): Promise<ClaimedDelivery[]>
  record(leadId: string, destination: Destination, attempt: AttemptRecord): Promise<void>
  /**
   * The operator's retry: every undelivered delivery to these destinations becomes due now — pending
   * ones whatever their schedule, given-up ones again, and destinations a (non-spam) lead never had.
   * Returns how many.
   */
  requeue(destinations: readonly Destination[], now: Date): Promise<number>
  /** Deletes leads received before `before`; returns how many. */
  purge(before: Date): Promise<number>
  close(): Promise<void>
}

/** The same email and message again within this time is the same lead (a double submit, a reload). */
export const DUPLICATE_WINDOW_MS = 10 * 60_000
