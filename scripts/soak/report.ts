/**
 * The soak's printed report, pure formatting of a SoakResult: counts by category and outcome, latency
 * percentiles, cut-off times, quota results, CPU, RSS before/peak/after, violations grouped with counts.
 */
import type { SoakResult, Violation } from './run.ts'

const n = (value: number) => value.toLocaleString('en-US').replace(/,/g, ' ')

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number
}

function latencyLine(label: string, values: readonly number[]): string {
  if (values.length === 0) return `${label}: none`
  const ms = (v: number) => `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`
  return `${label}: p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}, max ${ms(Math.max(...values))} (n=${n(values.length)})`
}

function groupViolations(violations: readonly Violation[]): string[] {
  const groups = new Map<string, number>()
  for (const v of violations) {
    const key = `${v.kind} · ${v.category} · ${v.label}: ${v.detail}`
    groups.set(key, (groups.get(key) ?? 0) + 1)
  }
  return [...groups].slice(0, 40).map(([key, count]) => `  ${count > 1 ? `${count}× ` : ''}${key}`)
}

export function formatReport(result: SoakResult): string {
  const { options, memory } = result
  const lines: string[] = []
  lines.push(
    `Soak: ${(result.trafficMs / 1000).toFixed(1)} s of traffic (SOAK_SECONDS=${options.seconds}), ${n(result.requests)} requests incl. warm-up (limit ${n(options.maxRequests)}), ` +
      `~${options.rate}/s paced + greedy + slow clients, seed ${options.seed}, total run ${(result.durationMs / 1000).toFixed(1)} s`,
  )
  lines.push(
    `Clients: ${n(result.clients.total)} simulated addresses (${n(result.clients.ipv6)} IPv6, one /64 each) as X-Forwarded-For from a trusted proxy (TRUST_PROXY=127.0.0.1)`,
  )
  lines.push('')
  lines.push(`${'category'.padEnd(16)}${'requests'.padStart(9)}  outcomes (status × count)`)
  const categories = [...result.outcomes.keys()]
  let total = 0
  for (const category of categories) {
    const outcomes = result.outcomes.get(category) as Map<string, number>
    const count = [...outcomes.values()].reduce((a, b) => a + b, 0)
    total += count
    const parts = [...outcomes].sort(([a], [b]) => a.localeCompare(b)).map(([key, value]) => `${key}×${n(value)}`)
    lines.push(`${category.padEnd(16)}${n(count).padStart(9)}  ${parts.join('  ')}`)
  }
  lines.push(`${'all'.padEnd(16)}${n(total).padStart(9)}`)
  lines.push('')
  lines.push(latencyLine('Latency, valid traffic', result.latency.valid))
  lines.push(latencyLine('Latency, hostile input (answered)', result.latency.hostile))
  for (const [category, times] of result.cutOffMs) {
    lines.push(
      `Slow clients, ${category}: ${times.length} cut off by the server after ${(Math.min(...times) / 1000).toFixed(1)}–${(Math.max(...times) / 1000).toFixed(1)} s`,
    )
  }
  for (const g of result.greedy) {
    lines.push(
      `Greedy client ${g.address}: ${n(g.admitted)} admitted (expected ${g.bounds[0]}…${g.bounds[1]}: 150 + 2/s), ${n(g.refused)} refused with the exact 429`,
    )
  }
  if (result.uploadFlood) {
    const flood = result.uploadFlood
    const endings = Object.entries(flood.endings)
      .map(([ending, count]) => `${ending}×${n(count)}`)
      .join('  ')
    const health = flood.healthChecks.map((check) => check.ms)
    lines.push(
      `Upload flood: ${n(flood.uploaders)} clients each sending a 2 MB POST /mcp at ${n(flood.bytesPerSecond)} B/s; ended ${endings}, the last after ${(flood.longestMs / 1000).toFixed(1)} s; ` +
        `server RSS peak ${flood.peakRssMb.toFixed(0)} MB; health checks meanwhile: ${flood.healthChecks.filter((check) => check.status === 200).length}/${flood.healthChecks.length} answered 200, slowest ${Math.round(Math.max(0, ...health))} ms`,
    )
  }
  lines.push('Quota after the soak (fresh clients, one request after another until refused):')
  for (const q of result.quota) {
    const exact = q.refills[0] === q.refills[1] ? `${q.refills[0]}` : `${q.refills[0]}…${q.refills[1]}`
    lines.push(
      `  ${q.label}: ${q.admitted} admitted in ${Math.round(q.elapsedMs)} ms (refills ${exact}), then ${q.refusal}${q.problems.length ? ` — ${q.problems.length} problem(s)` : ' — exact'}`,
    )
  }
  lines.push(
    `CPU during the traffic phase: server ${result.cpu.serverSeconds.toFixed(1)} s (${Math.round((100 * result.cpu.serverSeconds) / (result.trafficMs / 1000))} % of one core), ` +
      `soak driver ${result.cpu.soakSeconds.toFixed(1)} s`,
  )
  const growth = memory.afterMb - memory.beforeMb
  lines.push(
    `Server RSS: cold ${memory.coldMb.toFixed(0)} MB, before ${memory.beforeMb.toFixed(0)} MB (after warm-up), peak ${memory.peakMb.toFixed(0)} MB, ` +
      `after ${Math.round(memory.settledAfterMs / 1000)} s idle ${memory.afterMb.toFixed(0)} MB (${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB; allowed +${memory.allowedGrowthMb.toFixed(0)} MB)`,
  )
  lines.push(`Server RSS while idle after the soak, once a second: ${memory.settleTimelineMb.join(' ')} MB`)
  lines.push('')
  const kinds = (kind: Violation['kind']) => result.violations.filter((v) => v.kind === kind).length
  if (result.violationCount === 0) {
    lines.push('PASS: 0 violations — no 5xx, no hang, no unanswered request, every answer as the contract says, memory settled, quota exact.')
  } else {
    lines.push(
      `FAIL: ${n(result.violationCount)} violation(s) — 5xx ${kinds('5xx')}, hangs ${kinds('hang')}, unanswered ${kinds('unanswered')}, wrong answers ${kinds('wrong answer')}, ` +
        `cut-off timing ${kinds('cut-off timing')}, inconsistent bodies ${kinds('inconsistent body')}, quota ${kinds('quota')}, memory ${kinds('memory')}, server log ${kinds('server log')}, crash ${kinds('crash')}` +
        (result.violationCount > result.violations.length ? ` (first ${result.violations.length} listed)` : ''),
    )
    lines.push(...groupViolations(result.violations))
  }
  return lines.join('\n')
}
