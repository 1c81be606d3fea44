/**
 * Runs Next's own CLI (`next dev`, `next build`, `next typegen`, …) with telemetry off: npm scripts call
 * `node scripts/next.ts <command>` instead of `next <command>`, so no script prints Next's telemetry
 * notice or sends an event, on any platform (an inline `NEXT_TELEMETRY_DISABLED=1 next …` needs a POSIX shell).
 */
import { createRequire } from 'node:module'

process.env.NEXT_TELEMETRY_DISABLED = '1'
// `next dev` serves public/ as it is: the pages' script is rebuilt there on every change of its sources.
if (process.argv[2] === 'dev') await (await import('./page-script.ts')).watchPageScript()
const require = createRequire(import.meta.url)
const cli = require.resolve('next/dist/bin/next')
// Next's CLI parses process.argv and re-launches itself from argv[1] (next build's upgrade check).
process.argv = [process.argv[0] ?? process.execPath, cli, ...process.argv.slice(2)]
require(cli)
