/**
 * `npm run soak`: bounded robustness run on loopback (its SOAK_* knobs: scripts/soak/run.ts). Prints the
 * report; exits 1 on any 5xx, hang, unanswered request, wrong answer, unsettled memory or inexact quota.
 */
import { exitOnConfigError, loadEnvFiles } from '../lib/env-files.ts'
import { formatReport } from './soak/report.ts'
import { runSoak, soakOptionsFromEnv, type SoakOptions } from './soak/run.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
// SOAK_* may live in the `.env` files too, read as Next reads them; a wrong value stops here in one line.
const envFiles = loadEnvFiles()
let options: SoakOptions
try {
  options = soakOptionsFromEnv(process.env)
} catch (error) {
  exitOnConfigError(error, envFiles)
}
const result = await runSoak(options)
console.log(`\n${formatReport(result)}`)
process.exitCode = result.violationCount > 0 ? 1 : 0
