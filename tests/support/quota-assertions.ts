/**
 * Exact expectations for the rate-limit headers of standards §1.4, and the bookkeeping that keeps them
 * exact on a real clock: a bucket gains one token per 500 ms from its first request, so the test
 * brackets how many refills a request can have seen from the times it was sent and answered.
 */
import { expect } from 'vitest'
import type { SimpleResponse } from './http-client.ts'

const POLICY = '"public-agent-rest";q=120;w=60;burst=30'
const REFILL_MS = 500

/** Reset of a 2xx: ceil((150 − level) / 2) with level = Remaining + a fraction of a token in [0, 1). */
function resetFor(remaining: number): number {
  return Math.ceil((150 - remaining) / 2)
}

function rateLimitHeaders(response: SimpleResponse) {
  const h = response.headers
  return {
    'ratelimit-limit': h['ratelimit-limit'],
    'ratelimit-remaining': h['ratelimit-remaining'],
    'ratelimit-reset': h['ratelimit-reset'],
    'ratelimit-policy': h['ratelimit-policy'],
    ratelimit: h.ratelimit,
    'retry-after': h['retry-after'],
  }
}

/** An admitted request's rate-limit headers (its status is 200 unless the route answered otherwise). */
export function expectAdmitted(response: SimpleResponse, remaining: number, status = 200): void {
  expect(response.status, response.body).toBe(status)
  const reset = resetFor(remaining)
  expect(rateLimitHeaders(response)).toEqual({
    'ratelimit-limit': '150',
    'ratelimit-remaining': String(remaining),
    'ratelimit-reset': String(reset),
    'ratelimit-policy': POLICY,
    ratelimit: `"public-agent-rest";r=${remaining};t=${reset}`,
    'retry-after': undefined,
  })
  expect(response.headers['api-version']).toBe('2026-08-25')
}

export function expectThrottled(response: SimpleResponse, base: string, path: string): void {
  expect(response.status, response.body).toBe(429)
  expect(rateLimitHeaders(response)).toEqual({
    'ratelimit-limit': '150',
    'ratelimit-remaining': '0',
    'ratelimit-reset': '1',
    'ratelimit-policy': POLICY,
    ratelimit: '"public-agent-rest";r=0;t=1',
    'retry-after': '1',
  })
  expect(response.headers['content-type']).toBe('application/problem+json')
  expect(response.headers['api-version']).toBe('2026-08-25')
  expect(response.headers['cache-control']).toBe('no-store')
  expect(JSON.parse(response.body)).toEqual({
    type: `${base}/problems/rate_limit_exceeded`,
    title: 'Too many requests',
    status: 429,
    code: 'rate_limit_exceeded',
    detail: 'This client address used its 150-request burst; the quota refills at 2 requests per second.',
    resolution: 'Wait Retry-After seconds, then stay under 120 requests per 60 seconds.',
    instance: `${base}${path}`,
  })
}

export interface TimedResponse {
  response: SimpleResponse
  sentAt: number
  receivedAt: number
}

export async function timed(send: () => Promise<SimpleResponse>): Promise<TimedResponse> {
  const sentAt = performance.now()
  const response = await send()
  return { response, sentAt, receivedAt: performance.now() }
}

/**
 * Bounds on the refills a bucket created by `first` can have received when `later` was decided: the
 * server decided each request somewhere between its sending and its answer.
 */
export function refillBounds(first: TimedResponse, later: TimedResponse): { min: number; max: number } {
  return {
    min: Math.max(0, Math.floor((later.sentAt - first.receivedAt - CLOCK_SLACK_MS) / REFILL_MS)),
    max: Math.floor((later.receivedAt - first.sentAt + CLOCK_SLACK_MS) / REFILL_MS),
  }
}

/**
 * The server decides on whole milliseconds of its wall clock, the test measures on its monotonic
 * clock, and a virtual machine's wall clock gets nudged: some slack keeps a decision that lands
 * next to a refill boundary from being misjudged.
 */
const CLOCK_SLACK_MS = 25

/**
 * Sends requests one after another (the `send` callbacks in turn) on a fresh bucket until at least
 * `count` were sent and the last was refused, and checks every answer exactly: the i-th admitted request
 * shows Remaining = 150 − i + refills, with refills bracketed by the clock; the first refusal is the
 * 429 of standards §1.5 and comes once every token (150 plus the refills) is spent.
 */
export async function burstUntilThrottled(
  sends: Array<() => Promise<SimpleResponse>>,
  options: { count: number; base: string; path: string },
): Promise<{ admitted: number; all: TimedResponse[] }> {
  const all: TimedResponse[] = []
  let admitted = 0
  for (let i = 0; i < options.count + 40; i++) {
    const result = await timed(sends[i % sends.length] as () => Promise<SimpleResponse>)
    all.push(result)
    const first = all[0] as TimedResponse
    const { min, max } = refillBounds(first, result)
    if (result.response.status === 429) {
      expectThrottled(result.response, options.base, options.path)
      // Refused only once the 150 tokens and every refill so far are spent.
      expect(admitted).toBeGreaterThanOrEqual(150 + min)
      expect(admitted).toBeLessThanOrEqual(150 + max)
      if (all.length >= options.count) return { admitted, all }
      continue
    }
    admitted++
    const remaining = Number(result.response.headers['ratelimit-remaining'])
    const context = `admitted request ${admitted} (sent +${Math.round(result.sentAt - first.sentAt)} ms, answered in ${Math.round(result.receivedAt - result.sentAt)} ms); so far: ${all
      .map((r) => `+${Math.round(r.sentAt - first.sentAt)}/${Math.round(r.receivedAt - r.sentAt)}ms→${r.response.headers['ratelimit-remaining']}`)
      .join(' ')}`
    expect(remaining, context).toBeGreaterThanOrEqual(150 - admitted + min)
    expect(remaining, context).toBeLessThanOrEqual(Math.min(149, 150 - admitted + max))
    expectAdmitted(result.response, remaining)
  }
  throw new Error(`no 429 after ${all.length} requests (${admitted} admitted)`)
}
