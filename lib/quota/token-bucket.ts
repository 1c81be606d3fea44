/**
 * The token bucket of the public quota and the header values it implies (standards §1.4): capacity
 * 150, one token back every 500 ms, a refused request costs nothing. Pure functions of the bucket state,
 * shared by the in-process and the Upstash store so both answer with identical numbers.
 */
import { QUOTA } from '../contract/constants.ts'

/** A token bucket's shape: how many tokens it holds and how fast they come back. */
export interface BucketShape {
  readonly capacity: number
  readonly refillIntervalMs: number
  readonly tokensPerRefill: number
}

/** One token comes back every `refillIntervalMs`: the sustained 2 per second, in whole tokens. */
export const BUCKET: BucketShape = Object.freeze({
  capacity: QUOTA.capacity,
  refillIntervalMs: 1000 / QUOTA.refillPerSecond,
  tokensPerRefill: 1,
})

/**
 * What a store answers for one request. `remaining` is the whole tokens left after charging it (0 when
 * refused); `resetAt` the epoch milliseconds at which the next token arrives (`@upstash/ratelimit`'s `reset`).
 */
export interface QuotaDecision {
  allowed: boolean
  remaining: number
  resetAt: number
}

/** Values of the rate-limit headers; `retryAfter` only on a refusal. */
export interface QuotaHeaderValues {
  limit: number
  remaining: number
  reset: number
  retryAfter: number | null
}

/**
 * Milliseconds until the next token, clamped into (0, interval]: a bucket refills at most one interval
 * ahead, and instances whose clocks disagree slightly must not produce values outside that range.
 */
function msUntilNextToken(decision: QuotaDecision, now: number): number {
  const until = decision.resetAt - now
  if (!(until > 0)) return 1
  return Math.min(until, BUCKET.refillIntervalMs)
}

/**
 * The real-valued level of standards §1.4 is `remaining + 1 − untilNext / interval` (whole tokens plus
 * the progress towards the next one). In integer milliseconds, that gives:
 * - admitted: Remaining = floor(level) = remaining; Reset = ceil((150 − level) / 2) s =
 *   ceil(((150 − remaining − 1) · 500 + untilNext) / 1000);
 * - refused (level < 1): Retry-After = max(1, ceil((1 − level) / 2)) = max(1, ceil(untilNext / 1000)), and
 *   Reset equals Retry-After.
 */
export function quotaHeaderValues(decision: QuotaDecision, now: number): QuotaHeaderValues {
  const untilNext = msUntilNextToken(decision, now)
  if (!decision.allowed) {
    const retryAfter = Math.max(1, Math.ceil(untilNext / 1000))
    return { limit: BUCKET.capacity, remaining: 0, reset: retryAfter, retryAfter }
  }
  const remaining = Math.min(Math.max(0, Math.floor(decision.remaining)), BUCKET.capacity - 1)
  const msToFull = (BUCKET.capacity - remaining - 1) * BUCKET.refillIntervalMs + untilNext
  return { limit: BUCKET.capacity, remaining, reset: Math.ceil(msToFull / 1000), retryAfter: null }
}

/**
 * How long Redis keeps a bucket after this request: until it would be full again (the Lua script's
 * `PEXPIRE`), after which a missing bucket and a full one are the same.
 */
export function bucketLifetimeMs(remaining: number, bucket: BucketShape = BUCKET): number {
  return Math.ceil((bucket.capacity - remaining) / bucket.tokensPerRefill) * bucket.refillIntervalMs
}
