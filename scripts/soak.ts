/**
 * `npm run soak`: bounded robustness run on loopback (SOAK_SECONDS, SOAK_MAX_REQUESTS; also SOAK_RATE,
 * SOAK_CONCURRENCY, SOAK_CLIENTS, SOAK_SETTLE_SECONDS, SOAK_SEED). Prints the report; exits 1 on any
 * 5xx, hang, unanswered request, wrong answer, unsettled memory or inexact quota.
 */
import { formatReport } from './soak/report.ts'
import { runSoak, soakOptionsFromEnv } from './soak/run.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
const result = await runSoak(soakOptionsFromEnv(process.env))
console.log(`\n${formatReport(result)}`)
process.exitCode = result.violationCount > 0 ? 1 : 0
