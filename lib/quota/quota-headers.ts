/**
 * The five rate-limit header fields (standards §1.2–1.4) plus `Retry-After`, formatted once per
 * distinct value set and reused: an admitted request's headers cost no allocation on the hot path.
 */
import { QUOTA, RATE_LIMIT_HEADER_NAMES, RATE_LIMIT_POLICY_VALUE } from '../contract/constants.ts'
import type { HeaderList } from '../http/header-list.ts'
import { BUCKET, type QuotaHeaderValues } from './token-bucket.ts'

const [LIMIT_NAME, REMAINING_NAME, RESET_NAME, POLICY_NAME, RATELIMIT_NAME] = RATE_LIMIT_HEADER_NAMES

/** `"public-agent-rest";r=149;t=1`: the same live values as the -06 triple, as one structured field. */
export function rateLimitFieldValue(remaining: number, reset: number): string {
  return `"${QUOTA.policyName}";r=${remaining};t=${reset}`
}

export function formatQuotaHeaders(values: QuotaHeaderValues): HeaderList {
  const headers: Array<readonly [string, string]> = [
    [LIMIT_NAME, String(values.limit)],
    [REMAINING_NAME, String(values.remaining)],
    [RESET_NAME, String(values.reset)],
    [POLICY_NAME, RATE_LIMIT_POLICY_VALUE],
    [RATELIMIT_NAME, rateLimitFieldValue(values.remaining, values.reset)],
  ]
  if (values.retryAfter !== null) headers.push(['Retry-After', String(values.retryAfter)])
  return Object.freeze(headers)
}

// Remaining is 0…149 and Reset at most 76 s (75 s to full plus one clamped interval), so the cache is
// bounded by the arithmetic itself: 150 × 128 admitted lists, 128 refused ones.
const RESET_SLOTS = 128
const admittedCache: Array<HeaderList | undefined> = []
const refusedCache: Array<HeaderList | undefined> = []

/** The header list for these values, from the cache when the values are in range. */
export function quotaHeaders(values: QuotaHeaderValues): HeaderList {
  const refused = values.retryAfter !== null
  const inRange = values.reset >= 0 && values.reset < RESET_SLOTS && values.remaining >= 0 && values.remaining < BUCKET.capacity
  if (!inRange || (refused && values.retryAfter !== values.reset)) return formatQuotaHeaders(values)
  const cache = refused ? refusedCache : admittedCache
  const slot = refused ? values.reset : values.remaining * RESET_SLOTS + values.reset
  const cached = cache[slot] ?? formatQuotaHeaders(values)
  cache[slot] = cached
  return cached
}
