/**
 * `npm run soak`: a bounded robustness run against the built site on loopback — valid traffic from
 * thousands of simulated clients plus hostile and slow input for SOAK_SECONDS (60) and at most
 * SOAK_MAX_REQUESTS; exits 1 on any 5xx, hang, unanswered request, wrong answer, unsettled memory
 * or inexact quota. Other knobs: SOAK_RATE, SOAK_CONCURRENCY, SOAK_CLIENTS, SOAK_SETTLE_SECONDS, SOAK_SEED.
 */
import { formatReport } from './soak/report.ts'
import { runSoak, soakOptionsFromEnv } from './soak/run.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
const result = await runSoak(soakOptionsFromEnv(process.env))
console.log(`\n${formatReport(result)}`)
process.exitCode = result.violationCount > 0 ? 1 : 0
