/**
 * Runs Next's own CLI (`next dev`, `next build`, `next typegen`, …) with telemetry off: npm scripts call
 * `node scripts/next.ts <command>` instead of `next <command>`, so no script prints Next's telemetry
 * notice or sends an event, on any platform (an inline `NEXT_TELEMETRY_DISABLED=1 next …` needs a POSIX shell).
 */
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { constants } from 'node:os'
import path from 'node:path'
import { loadSettingsOrExit } from '../lib/env-files.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
const [command, ...options] = process.argv.slice(2)
if (command === 'dev') {
  // `next dev` serves public/ as it is: the pages' script is rebuilt there on every change of its sources.
  await (await import('./page-script.ts')).watchPageScript()
  // The server build takes zod and the MCP SDK from their bundles (scripts/prebundled-packages.ts).
  await (await import('./prebundled-packages.ts')).buildPrebundledPackages()
  // `next dev` listens on every interface unless told otherwise, and its visual editor writes content/
  // for whoever reaches it: it listens where HOST says (loopback by default), read as `next dev` reads
  // settings (the `.env.development*` files too), unless the command names a hostname itself.
  if (!options.some((option) => /^(-H|--hostname)(=|$)/.test(option))) {
    options.push('--hostname', loadSettingsOrExit(process.cwd(), 'development').host)
  }
}
const require = createRequire(import.meta.url)
// The `next` command as Next's package declares it (its `bin`), run as its own process.
const nextPackage = require.resolve('next/package.json')
const cli = path.join(path.dirname(nextPackage), (require(nextPackage) as { bin: { next: string } }).bin.next)
const next = spawn(process.execPath, [cli, ...(command === undefined ? [] : [command]), ...options], { stdio: 'inherit' })
// Ctrl-C reaches both processes; a signal sent to this one alone goes on to Next, whose exit ends this one.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => next.kill(signal))
next.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)))
