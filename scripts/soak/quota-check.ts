/**
 * The quota, exact: a greedy client, far above it all through the soak, was admitted what its bucket
 * allows; afterwards a fresh client sending until refused sees Remaining = 150 − i + refills (bracketed
 * by the clock), then the exact 429 once every token is spent. What is right is the judge's
 * (quotaRefills, and each answer judged as its row says); deviations are problem lines.
 */
import { quotaRefills, type TimedExchange } from '../../harness/contract-answers.ts'
import { type CaseContext, greedyCase, HANG_MS, toAnswer } from './cases.ts'
import { createAgent, sendHttp } from './wire.ts'

export interface BurstResult {
  label: string
  admitted: number
  /** Refills the bucket may have received by the refusal: [min, max]. */
  refills: [number, number]
  elapsedMs: number
  /** The refusal's headers as sent, for the report. */
  refusal: string
  problems: string[]
}

/** A fresh client (`addresses` used in turn, all one client to the server; REST and MCP alternating, or REST) sends until refused. */
export async function burstUntilRefused(ctx: CaseContext, label: string, addresses: string[], mixTransports: boolean): Promise<BurstResult> {
  const agent = createAgent(1)
  const problems: string[] = []
  const started = performance.now()
  let first: TimedExchange | undefined
  let admitted = 0
  try {
    for (let i = 0; i < 150 + 60; i++) {
      const c = greedyCase(ctx, addresses[i % addresses.length] as string, mixTransports && i % 2 === 1 ? 'mcp' : 'rest')
      if (c.send.kind !== 'http') throw new Error('greedy rows go through the keep-alive client')
      const sentAt = performance.now()
      const outcome = await sendHttp(ctx.port, agent, c.send.spec, HANG_MS)
      const exchange = { sentAt, answeredAt: performance.now() }
      first ??= exchange
      if (!outcome.answer) return { label, admitted, refills: [0, 0], elapsedMs: 0, refusal: 'none', problems: [`request ${i + 1}: ${outcome.end}`] }
      const answer = toAnswer(outcome.answer)
      problems.push(...(c.judge?.([answer]) ?? []).map((p) => `request ${i + 1}: ${p}`))
      const [min, max] = quotaRefills(first, exchange)
      if (answer.status === 429) {
        if (admitted < 150 + min || admitted > 150 + max) problems.push(`refused after ${admitted} admitted; expected 150 + ${min}…${max} refills`)
        const h = answer.headers
        const refusal = `429 Retry-After ${h['retry-after']}, RateLimit-Remaining ${h['ratelimit-remaining']}, RateLimit-Reset ${h['ratelimit-reset']}, RateLimit: ${h.ratelimit}`
        return { label, admitted, refills: [min, max], elapsedMs: exchange.answeredAt - started, refusal, problems }
      }
      admitted++
      const [low, high] = [150 - admitted + min, Math.min(149, 150 - admitted + max)]
      const remaining = Number(answer.headers['ratelimit-remaining'])
      if (!(remaining >= low && remaining <= high)) problems.push(`admitted request ${admitted}: Remaining ${remaining}, expected ${low}…${high}`)
    }
    problems.push(`no 429 after ${admitted} admitted requests`)
    return { label, admitted, refills: [0, 0], elapsedMs: performance.now() - started, refusal: 'none', problems }
  } finally {
    agent.destroy()
  }
}

/**
 * What a greedy client's bucket may have admitted: at most 150 + the refills by its last answer; once
 * refused, at least 150 + the refills by its last refusal (every token so far was spent then); never
 * refused, every request.
 */
export function greedyCheck(address: string, exchanges: ReadonlyArray<TimedExchange & { status: number }>) {
  const admitted = exchanges.filter((e) => e.status === 200).length
  const refusals = exchanges.filter((e) => e.status === 429)
  const first = { sentAt: Math.min(...exchanges.map((e) => e.sentAt)), answeredAt: Math.min(...exchanges.map((e) => e.answeredAt)) }
  const last = (list: typeof exchanges, at: 'sentAt' | 'answeredAt') => list.reduce((a, b) => (b[at] > a[at] ? b : a))
  const bounds: [number, number] =
    refusals.length === 0
      ? [exchanges.length, exchanges.length]
      : [150 + quotaRefills(first, last(refusals, 'sentAt'))[0], 150 + quotaRefills(first, last(exchanges, 'answeredAt'))[1]]
  const outside = admitted < bounds[0] || admitted > bounds[1]
  const problem =
    exchanges.length === 0 ? 'sent nothing' : outside ? `${admitted} admitted over the phase, expected ${bounds[0]}…${bounds[1]}` : undefined
  return { summary: { address, admitted, refused: refusals.length, bounds }, problem }
}
