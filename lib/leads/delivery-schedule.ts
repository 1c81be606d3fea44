/**
 * When a failed delivery is tried again: 30 s after the first failure, doubling up to one hour, each
 * delay stretched by up to a fifth at random (so instances that failed together do not retry
 * together), until the lead is older than the give-up age; then the delivery is marked failed.
 */
export const DELIVERY_SCHEDULE = {
  firstRetryMs: 30_000,
  maxRetryMs: 60 * 60_000,
  jitter: 0.2,
  /** A lead not accepted by a destination within this age is given up for that destination. */
  giveUpAfterMs: 3 * 24 * 60 * 60_000,
  /** Deadline of one attempt (connect, send, answer). */
  attemptTimeoutMs: 5_000,
} as const

/** The delay before the next attempt after `failedAttempts` failures (1 = the first failed). */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.min(failedAttempts - 1, 30))
  const base = Math.min(DELIVERY_SCHEDULE.firstRetryMs * 2 ** exponent, DELIVERY_SCHEDULE.maxRetryMs)
  return Math.round(base * (1 + DELIVERY_SCHEDULE.jitter * random()))
}

/** When to try again after a failure at `now`, or null when the lead is past the give-up age. */
export function nextAttemptAt(receivedAt: Date, failedAttempts: number, now: Date, random: () => number = Math.random): Date | null {
  if (now.getTime() - receivedAt.getTime() >= DELIVERY_SCHEDULE.giveUpAfterMs) return null
  return new Date(now.getTime() + retryDelayMs(failedAttempts, random))
}
