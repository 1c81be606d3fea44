/**
 * Delivering leads to the sales team, at least once: right after the form has answered
 * (`deliverLeadSoon`), then again on every delivery round for whatever is still pending — the
 * background timer of `npm start` (`startLeadDeliveryTimer`), the Vercel Cron route, and
 * `npm run leads -- retry` (which first makes every undelivered delivery due now). Every attempt's result is written to the store before the next, so a
 * process killed at any point leaves the delivery pending there, and the next round picks it up.
 * Logs carry counts and outcomes only.
 */
import { getConfig, type SiteConfig } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'
import { attemptDelivery, type DestinationSettings } from './delivery-send.ts'
import { DELIVERY_SCHEDULE, nextAttemptAt } from './delivery-schedule.ts'
import type { ClaimedDelivery, LeadArchive } from './lead-archive.ts'
import { leadStoreFor } from './store.ts'

export interface DeliveryCounts {
  delivered: number
  /** Failed this time, tried again later. */
  retried: number
  /** Failed past the give-up age: marked failed. */
  failed: number
}

export interface DeliveryOptions {
  /** The clock of the schedule (which deliveries are due, when to retry). */
  now?: () => Date
  /** Only this lead's deliveries. */
  leadId?: string
  /** At most this many attempts in one call. */
  maxAttempts?: number
  attemptTimeoutMs?: number
  concurrency?: number
  random?: () => number
}

const CLAIM_BATCH = 50
const DEFAULT_MAX_ATTEMPTS = 500
const DEFAULT_CONCURRENCY = 8
/** How often `npm start` looks for due deliveries and old leads. */
export const DELIVERY_TIMER_INTERVAL_MS = 15_000

/** Attempts the pending deliveries that are due (or those of one lead), recording each result in the store. */
export async function deliverPending(store: LeadArchive, settings: DestinationSettings, options: DeliveryOptions = {}): Promise<DeliveryCounts> {
  const counts: DeliveryCounts = { delivered: 0, retried: 0, failed: 0 }
  // Without a destination no delivery is ever pending (none is recorded with a lead): no store call.
  if (!settings.webhook && !settings.slackWebhookUrl) return counts
  const now = options.now ?? (() => new Date())
  const timeoutMs = options.attemptTimeoutMs ?? DELIVERY_SCHEDULE.attemptTimeoutMs
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS
  // Leased for longer than an attempt can take: another worker leaves it alone meanwhile; if this
  // process dies, the lease runs out and the next round takes it over.
  const leaseMs = timeoutMs + 10_000
  let attempted = 0
  while (attempted < maxAttempts) {
    const claimed = await store.claim({
      now: now(),
      leaseMs,
      limit: Math.min(CLAIM_BATCH, maxAttempts - attempted),
      leadId: options.leadId,
    })
    if (claimed.length === 0) break
    attempted += claimed.length
    await eachWithConcurrency(claimed, options.concurrency ?? DEFAULT_CONCURRENCY, async (delivery) => {
      const result = await attemptOne(store, settings, delivery, timeoutMs, now, options.random)
      counts[result] += 1
    })
    // One lead's deliveries are one batch; a failed one is due again later, not in this call.
    if (options.leadId !== undefined) break
  }
  return counts
}

async function attemptOne(
  store: LeadArchive,
  settings: DestinationSettings,
  { lead, destination, attempts }: ClaimedDelivery,
  timeoutMs: number,
  now: () => Date,
  random?: () => number,
): Promise<keyof DeliveryCounts> {
  // Signed with the wall clock whatever `now` says: receivers reject a webhook-timestamp far from their own.
  const outcome = await attemptDelivery(lead, destination, settings, timeoutMs)
  const at = now()
  if (outcome.delivered) {
    await store.record(lead.id, destination, { delivered: true, at })
    return 'delivered'
  }
  const next = nextAttemptAt(lead.receivedAt, attempts + 1, at, random)
  await store.record(lead.id, destination, { delivered: false, at, outcome: outcome.outcome, nextAttemptAt: next })
  return next ? 'retried' : 'failed'
}

async function eachWithConcurrency<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T
      next += 1
      await work(item)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
}

/** Leads older than the retention setting are deleted. */
export function retentionCutoff(config: SiteConfig, now: Date): Date {
  return new Date(now.getTime() - config.leads.retentionDays * 24 * 60 * 60_000)
}

export interface DeliveryRound extends DeliveryCounts {
  purged: number
}

/** One round: every due delivery, then the purge of old leads (the timer, the cron route). */
export async function runDeliveryRound(config: SiteConfig, store: LeadArchive, options: DeliveryOptions = {}): Promise<DeliveryRound> {
  const counts = await deliverPending(store, config.leads, options)
  const purged = await store.purge(retentionCutoff(config, (options.now ?? (() => new Date()))()))
  return { ...counts, purged }
}

/** One log line of counts, or null when nothing happened. */
export function describeRound(round: Partial<DeliveryRound>): string | null {
  const parts = (['delivered', 'retried', 'failed', 'purged'] as const).filter((key) => (round[key] ?? 0) > 0).map((key) => `${round[key]} ${key}`)
  return parts.length > 0 ? `[leads] deliveries: ${parts.join(', ')}` : null
}

/**
 * The attempt right after the form answered (Next: `after(deliverLeadSoon(id))`; npm start: not
 * awaited). Never rejects; a failure leaves the delivery pending for the next round.
 */
export async function deliverLeadSoon(id: string): Promise<void> {
  try {
    const config = getConfig()
    const store = leadStoreFor(config)
    if (!store) return
    const counts = await deliverPending(store, config.leads, { leadId: id })
    if (counts.retried > 0 || counts.failed > 0) {
      const line = describeRound(counts)
      if (line) console.warn(line)
    }
  } catch (error) {
    console.error(`[leads] delivery attempt failed: ${errorName(error)}; the lead stays pending`)
  }
}

/** The error's kind only: a store error's message could quote a lead. */
export function errorName(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error'
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? `${error.name} ${code}` : error.name
}

/**
 * `npm start`'s background deliveries: a round at start (what a killed process left pending) and every
 * 15 s after. Returns the function that stops it.
 */
export function startLeadDeliveryTimer(config: SiteConfig = getConfig()): () => void {
  const store = leadStoreFor(config)
  if (!store) return () => {}
  return processSingleton('lead-delivery-timer', () => {
    let running = false
    const round = async () => {
      if (running) return
      running = true
      try {
        const line = describeRound(await runDeliveryRound(config, store))
        if (line) console.log(line)
      } catch (error) {
        console.error(`[leads] delivery round failed: ${errorName(error)}; trying again in ${DELIVERY_TIMER_INTERVAL_MS / 1000} s`)
      } finally {
        running = false
      }
    }
    void round()
    const timer = setInterval(round, DELIVERY_TIMER_INTERVAL_MS)
    timer.unref()
    return () => clearInterval(timer)
  })
}
