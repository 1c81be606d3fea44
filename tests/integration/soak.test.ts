/**
 * `npm run soak` short, so CI proves it: 8 s of valid, greedy, hostile and slow traffic; no 5xx, hang
 * or unanswered request, every answer the contract's, slow clients cut off in time, memory back near
 * its start, quota exact.
 */
import { describe, expect, it } from 'vitest'
import { formatReport } from '../../scripts/soak/report.ts'
import { DEFAULT_SOAK_OPTIONS, runSoak, type SoakResult } from '../../scripts/soak/run.ts'
import { HOSTILE_CATEGORIES, VALID_CATEGORIES } from '../../scripts/soak/cases.ts'

const sum = (map: Map<string, number> | undefined) => [...(map?.values() ?? [])].reduce((a, b) => a + b, 0)

describe('the soak, short', () => {
  let result: SoakResult
  let report = ''

  it('runs 8 s of mixed traffic with no violation', async () => {
    const lines: string[] = []
    result = await runSoak({ ...DEFAULT_SOAK_OPTIONS, seconds: 8, settleSeconds: 20, log: (line) => lines.push(line) })
    report = formatReport(result)
    console.log(report)
    expect(result.violations, report).toEqual([])
    expect(result.violationCount).toBe(0)
  }, 120_000)

  it('sent every category, valid and hostile, and every slow client was cut off with a 408', () => {
    for (const category of [...VALID_CATEGORIES, ...HOSTILE_CATEGORIES, 'quota-greedy'] as const) {
      expect(sum(result.outcomes.get(category)), `${category}\n${report}`).toBeGreaterThan(0)
    }
    expect(result.outcomes.get('slow-headers')?.get('cut 408'), report).toBeGreaterThanOrEqual(1)
    expect(result.outcomes.get('idle-connection')?.get('cut 408'), report).toBeGreaterThanOrEqual(1)
    expect(result.requests).toBeLessThanOrEqual(DEFAULT_SOAK_OPTIONS.maxRequests)
    expect(result.trafficMs).toBeLessThan(8_000 + 10_000)
  })

  it('left the quota exact: fresh clients get 150 (plus refills) then the exact 429', () => {
    expect(result.quota.map((q) => q.label)).toEqual([
      'fresh IPv4 client, REST',
      'fresh IPv6 /64 (two addresses), REST + MCP',
      'IPv4 and its IPv4-mapped IPv6 form',
    ])
    for (const q of result.quota) {
      expect(q.problems, q.label).toEqual([])
      expect(q.admitted).toBeGreaterThanOrEqual(150 + q.refills[0])
      expect(q.admitted).toBeLessThanOrEqual(150 + q.refills[1])
      expect(q.refusal).toBe('429 Retry-After 1, RateLimit-Remaining 0, RateLimit-Reset 1, RateLimit: "public-agent-rest";r=0;t=1')
    }
    for (const g of result.greedy) {
      expect(g.refused, g.address).toBeGreaterThan(0)
      expect(g.admitted, g.address).toBeGreaterThanOrEqual(g.bounds[0])
      expect(g.admitted, g.address).toBeLessThanOrEqual(g.bounds[1])
    }
  })

  it('brought the server RSS back near where it started', () => {
    const { beforeMb, afterMb, allowedGrowthMb } = result.memory
    expect(beforeMb).toBeGreaterThan(0)
    expect(afterMb).toBeLessThanOrEqual(beforeMb + allowedGrowthMb)
  })
})
