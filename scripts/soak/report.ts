/**
 * The soak's printed report, pure formatting of a SoakResult: counts by category and outcome, latency
 * percentiles, cut-off times, quota results, CPU, RSS before/peak/after, violations grouped with counts.
 */
import { count, type SoakResult, type Violation } from './run.ts'

const n = (value: number) => value.toLocaleString('en-US').replace(/,/g, ' ')
const s = (ms: number) => (ms / 1000).toFixed(1)
const mb = (value: number) => value.toFixed(0)

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
}

function latencyLine(label: string, values: readonly number[]): string {
  const ms = (v: number) => `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`
  if (values.length === 0) return `${label}: none`
  return `${label}: p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}, max ${ms(Math.max(...values))} (n=${n(values.length)})`
}

export function formatReport(result: SoakResult): string {
  const { options, memory, cpu, uploadFlood: flood } = result
  const lines = [
    `Soak: ${s(result.trafficMs)} s of traffic (SOAK_SECONDS=${options.seconds}), ${n(result.requests)} requests incl. warm-up (limit ${n(options.maxRequests)}), ` +
      `~${options.rate}/s paced + greedy + slow clients, seed ${options.seed}, total run ${s(result.durationMs)} s`,
    `Clients: ${n(result.clients.total)} simulated addresses (${n(result.clients.ipv6)} IPv6, one /64 each) as X-Forwarded-For from a trusted proxy (TRUST_PROXY=127.0.0.1)`,
    '',
    `${'category'.padEnd(16)}${'requests'.padStart(9)}  outcomes (status × count)`,
  ]
  let total = 0
  for (const [category, outcomes] of result.outcomes) {
    const requests = [...outcomes.values()].reduce((a, b) => a + b, 0)
    total += requests
    const parts = [...outcomes].sort(([a], [b]) => a.localeCompare(b)).map(([key, value]) => `${key}×${n(value)}`)
    lines.push(`${category.padEnd(16)}${n(requests).padStart(9)}  ${parts.join('  ')}`)
  }
  lines.push(`${'all'.padEnd(16)}${n(total).padStart(9)}`, '')
  lines.push(latencyLine('Latency, valid traffic', result.latency.valid), latencyLine('Latency, hostile input (answered)', result.latency.hostile))
  for (const [category, times] of result.cutOffMs)
    lines.push(`Slow clients, ${category}: ${times.length} cut off by the server after ${s(Math.min(...times))}–${s(Math.max(...times))} s`)
  for (const { address, admitted, bounds, refused } of result.greedy)
    lines.push(
      `Greedy client ${address}: ${n(admitted)} admitted (expected ${bounds[0]}…${bounds[1]}: 150 + 2/s), ${n(refused)} refused with the exact 429`,
    )
  if (flood) {
    const endings = Object.entries(flood.endings).map(([ending, count]) => `${ending}×${n(count)}`)
    const answered = flood.healthChecks.filter((check) => check.status === 200).length
    const slowest = Math.round(Math.max(0, ...flood.healthChecks.map((check) => check.ms)))
    lines.push(
      `Upload flood: ${n(flood.uploaders)} clients each sending a 2 MB POST /mcp at ${n(flood.bytesPerSecond)} B/s; ended ${endings.join('  ')}, the last after ${s(flood.longestMs)} s; ` +
        `server RSS peak ${mb(flood.peakRssMb)} MB; health checks meanwhile: ${answered}/${flood.healthChecks.length} answered 200, slowest ${slowest} ms`,
    )
  }
  lines.push('Quota after the soak (fresh clients, one request after another until refused):')
  for (const q of result.quota) {
    const refills = q.refills[0] === q.refills[1] ? `${q.refills[0]}` : `${q.refills[0]}…${q.refills[1]}`
    const verdict = q.problems.length ? ` — ${q.problems.length} problem(s)` : ' — exact'
    lines.push(`  ${q.label}: ${q.admitted} admitted in ${Math.round(q.elapsedMs)} ms (refills ${refills}), then ${q.refusal}${verdict}`)
  }
  const growth = memory.afterMb - memory.beforeMb
  lines.push(
    `CPU during the traffic phase: server ${cpu.serverSeconds.toFixed(1)} s (${Math.round((100 * cpu.serverSeconds) / (result.trafficMs / 1000))} % of one core), ` +
      `soak driver ${cpu.soakSeconds.toFixed(1)} s`,
    `Server RSS: cold ${mb(memory.coldMb)} MB, before ${mb(memory.beforeMb)} MB (after warm-up), peak ${mb(memory.peakMb)} MB, ` +
      `after ${Math.round(memory.settledAfterMs / 1000)} s idle ${mb(memory.afterMb)} MB (${growth >= 0 ? '+' : ''}${mb(growth)} MB; allowed +${mb(memory.allowedGrowthMb)} MB)`,
    `Server RSS while idle after the soak, once a second: ${memory.settleTimelineMb.join(' ')} MB`,
    '',
  )
  if (result.violationCount === 0) {
    lines.push('PASS: 0 violations — no 5xx, no hang, no unanswered request, every answer as the contract says, memory settled, quota exact.')
    return lines.join('\n')
  }
  const kinds = (kind: Violation['kind']) => result.violations.filter((v) => v.kind === kind).length
  lines.push(
    `FAIL: ${n(result.violationCount)} violation(s) — 5xx ${kinds('5xx')}, hangs ${kinds('hang')}, unanswered ${kinds('unanswered')}, wrong answers ${kinds('wrong answer')}, ` +
      `cut-off timing ${kinds('cut-off timing')}, inconsistent bodies ${kinds('inconsistent body')}, quota ${kinds('quota')}, memory ${kinds('memory')}, server log ${kinds('server log')}, crash ${kinds('crash')}` +
      (result.violationCount > result.violations.length ? ` (first ${result.violations.length} listed)` : ''),
  )
  const groups = new Map<string, number>()
  for (const { kind, category, label, detail } of result.violations) count(groups, `${kind} · ${category} · ${label}: ${detail}`)
  lines.push(...[...groups].slice(0, 40).map(([key, count]) => `  ${count > 1 ? `${count}× ` : ''}${key}`))
  return lines.join('\n')
}
