/**
 * Delivering leads to the sales team: exactly once per destination while nothing crashes, at least
 * once when something does. The first attempt runs right after the form has answered
 * (`deliverLeadSoon`); whatever is still pending goes out on the next delivery round — the background
 * timer of `npm start` (`startLeadDeliveryTimer`), the Vercel Cron route, `npm run leads -- deliver`,
 * and, where no timer runs, a few due deliveries after each form answer.
 *
 * Each attempt is claimed from the store just before it starts, under a lease longer than its
 * deadline (lib/leads/lead-archive.ts), and its outcome is recorded only by the lease's holder, before
 * the next attempt: two workers never send the same delivery while both live, and a process killed at
 * any point leaves the delivery pending for the next round. At most `LEADS_DELIVERIES_PER_MINUTE`
 * attempts start per destination per minute, across every worker: a flood of leads is kept, and goes
 * out at that pace. Logs carry counts and outcomes only.
 */
import { getConfig, type LeadSettings, type SiteConfig } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'
import { attemptDelivery, destinationOrigin } from './delivery-send.ts'
import { DELIVERY_SCHEDULE, nextAttemptAt } from './delivery-schedule.ts'
import { DESTINATIONS, type ClaimedDelivery, type Destination, type LeadArchive } from './lead-archive.ts'
import { leadStoreFor } from './store.ts'

export interface DeliveryCounts {
  delivered: number
  /** Failed this time, tried again later. */
  retried: number
  /** Failed past the give-up age: marked failed. */
  failed: number
}

/** One attempt as telemetry may see it: where it went (the destination's kind and origin), when, and what came of it. */
interface DeliveryAttemptReport {
  destination: Destination
  /** The destination URL's origin: never its path or query, which may hold a credential. */
  origin: string
  /** Wall-clock milliseconds. */
  startedAt: number
  endedAt: number
  /** `delivered`, or what failed (`HTTP 503`, `timeout`, …). */
  outcome: string
}

/**
 * What telemetry does with deliveries, handed in by the layer that composes them (domain code never
 * imports telemetry): each attempt's report, and the attempt itself run where no instrumentation
 * records it (an HTTP client instrumentation would name its span after the destination's full URL).
 */
export interface DeliveryTelemetry {
  record(report: DeliveryAttemptReport): void
  untraced<T>(send: () => Promise<T>): Promise<T>
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
  telemetry?: DeliveryTelemetry
}

const DEFAULT_MAX_ATTEMPTS = 500
const DEFAULT_CONCURRENCY = 8
/** A lease outlasts its attempt's deadline by this much: the time to record the outcome, and clocks a little apart. */
const LEASE_MARGIN_MS = 10_000
/** Where no timer runs (Vercel, next start), each form answer also attempts this many due deliveries. */
const FOLLOW_UP_ATTEMPTS = 4
/** How often `npm start` looks for due deliveries and old leads. */
const DELIVERY_TIMER_INTERVAL_MS = 15_000

/**
 * Attempts the pending deliveries that are due (or those of one lead), each claimed right before it
 * starts and recorded in the store before the next.
 */
export async function deliverPending(store: LeadArchive, settings: LeadSettings, options: DeliveryOptions = {}): Promise<DeliveryCounts> {
  const counts: DeliveryCounts = { delivered: 0, retried: 0, failed: 0 }
  // Without a destination no delivery is ever pending (none is recorded with a lead): no store call.
  if (!settings.webhook && !settings.slackWebhookUrl) return counts
  const now = options.now ?? (() => new Date())
  const timeoutMs = options.attemptTimeoutMs ?? DELIVERY_SCHEDULE.attemptTimeoutMs
  const claim = (limit: number) =>
    store.claim({ now: now(), leaseMs: timeoutMs + LEASE_MARGIN_MS, limit, perMinute: settings.deliveriesPerMinute, leadId: options.leadId })
  const attempt = async (claimed: ClaimedDelivery) => {
    counts[await attemptOne(store, settings, claimed, timeoutMs, now, options)] += 1
  }
  if (options.leadId !== undefined) {
    // One lead's deliveries start together, so one claim may lease them all.
    await Promise.all((await claim(DESTINATIONS.length)).map(attempt))
    return counts
  }
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS
  let started = 0
  const worker = async () => {
    while (started < maxAttempts) {
      started += 1
      const [claimed] = await claim(1)
      if (!claimed) {
        started -= 1
        return
      }
      await attempt(claimed)
    }
  }
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, maxAttempts) }, worker))
  return counts
}

async function attemptOne(
  store: LeadArchive,
  settings: LeadSettings,
  claimed: ClaimedDelivery,
  timeoutMs: number,
  now: () => Date,
  options: DeliveryOptions,
): Promise<keyof DeliveryCounts> {
  const { lead, destination } = claimed
  const startedAt = Date.now()
  // Signed with the wall clock whatever `now` says: receivers reject a webhook-timestamp far from their own.
  const send = () => attemptDelivery(lead, destination, settings, timeoutMs)
  const outcome = await (options.telemetry ? options.telemetry.untraced(send) : send())
  const at = now()
  const next = outcome.delivered ? null : nextAttemptAt(lead.receivedAt, claimed.attempts + 1, at, options.random)
  const recorded = await store.record(
    claimed,
    outcome.delivered ? { delivered: true, at } : { delivered: false, at, outcome: outcome.outcome, nextAttemptAt: next },
  )
  options.telemetry?.record({
    destination,
    origin: destinationOrigin(settings, destination),
    startedAt,
    endedAt: Date.now(),
    outcome: outcome.delivered ? 'delivered' : outcome.outcome,
  })
  if (!recorded) console.warn(`[leads] a ${destination} delivery outlived its lease; its outcome was left to the worker that took it over`)
  return outcome.delivered ? 'delivered' : next ? 'retried' : 'failed'
}

/** Leads older than the retention setting are deleted. */
export function retentionCutoff(config: SiteConfig, now: Date): Date {
  return new Date(now.getTime() - config.leads.retentionDays * 24 * 60 * 60_000)
}

export interface DeliveryRound extends DeliveryCounts {
  purged: number
}

/** One round: the purge of old leads, then every due delivery (the timer, the cron route, `npm run leads -- deliver`). */
export async function runDeliveryRound(config: SiteConfig, store: LeadArchive, options: DeliveryOptions = {}): Promise<DeliveryRound> {
  // First, and whatever deliveries do: old leads go even while every receiver is down.
  const purged = await store.purge(retentionCutoff(config, (options.now ?? (() => new Date()))()))
  const counts = await deliverPending(store, config.leads, options)
  return { ...counts, purged }
}

/** One log line of counts, or null when nothing happened. */
export function describeRound(round: Partial<DeliveryRound>): string | null {
  const parts = (['delivered', 'retried', 'failed', 'purged'] as const).filter((key) => (round[key] ?? 0) > 0).map((key) => `${round[key]} ${key}`)
  return parts.length > 0 ? `[leads] deliveries: ${parts.join(', ')}` : null
}

/**
 * The attempt right after the form answered (Next: in `after()`; npm start: not awaited), and where no
 * timer runs, a few due deliveries besides, so retries go out as visitors come. Never rejects; a
 * failure leaves the delivery pending for the next round.
 */
export async function deliverLeadSoon(id: string, telemetry?: DeliveryTelemetry): Promise<void> {
  try {
    const config = getConfig()
    const store = leadStoreFor(config)
    if (!store) return
    const counts = await deliverPending(store, config.leads, { leadId: id, telemetry })
    if (!deliveryTimerRunning()) {
      const more = await deliverPending(store, config.leads, { maxAttempts: FOLLOW_UP_ATTEMPTS, telemetry })
      for (const key of ['delivered', 'retried', 'failed'] as const) counts[key] += more[key]
    }
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

const TIMER = 'lead-delivery-timer'

function deliveryTimerRunning(): boolean {
  return processSingleton<{ running: boolean }>(TIMER, () => ({ running: false })).running
}

/**
 * `npm start`'s background deliveries: a round at start (what a killed process left pending) and every
 * 15 s after. Returns the function that stops it.
 */
export function startLeadDeliveryTimer(config: SiteConfig = getConfig(), telemetry?: DeliveryTelemetry): () => void {
  const store = leadStoreFor(config)
  const timer = processSingleton<{ running: boolean; stop?: () => void }>(TIMER, () => ({ running: false }))
  if (!store || timer.running) return () => {}
  let busy = false
  const round = async () => {
    if (busy) return
    busy = true
    try {
      const line = describeRound(await runDeliveryRound(config, store, { telemetry }))
      if (line) console.log(line)
    } catch (error) {
      console.error(`[leads] delivery round failed: ${errorName(error)}; trying again in ${DELIVERY_TIMER_INTERVAL_MS / 1000} s`)
    } finally {
      busy = false
    }
  }
  void round()
  const interval = setInterval(round, DELIVERY_TIMER_INTERVAL_MS)
  interval.unref()
  timer.running = true
  return () => {
    clearInterval(interval)
    timer.running = false
  }
}
