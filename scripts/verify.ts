/**
 * `npm run verify -- <url>`: checks a running deployment from outside, read-only, with a bounded
 * number of requests (scripts/verify/). Exit 0 when every check passes, 1 when any fails, 2 on
 * wrong usage.
 */
import { writeFileSync } from 'node:fs'
import { ANNOUNCED_ORIGIN } from './verify/checks.ts'
import { reportLines, VERIFY_DEFAULTS, type VerifyOptions, verifyDeployment } from './verify/run.ts'

const USAGE = `Usage: npm run verify -- <url> [options]

  <url>                   the deployment's origin, http(s), e.g. https://cadence-git-main-acme.vercel.app
  --json <file>           also write the results as JSON to <file> ("-": JSON on stdout, the lines on stderr)
  --origin <url>          the public origin its documents must name, when <url> is not it
                          (a self-hosted instance checked behind its proxy); default: <url>
  --origin announced      the origin the deployment names as its canonical homepage: for one
                          deployment under several hostnames (Vercel: the deployment URL, the
                          branch URL, the production domain)
  --allow-disabled        pass when public agent access is switched off on purpose (else a failure)
  --expect <environment>  preview (noindex everywhere) or production (indexable); default: as the site says
  --timeout-ms <ms>       each request's time bound (default ${VERIFY_DEFAULTS.timeoutMs})
  --total-timeout-ms <ms> the whole run's time bound (default ${VERIFY_DEFAULTS.totalTimeoutMs})

VERCEL_AUTOMATION_BYPASS_SECRET, when set, is sent as x-vercel-protection-bypass (Vercel Deployment Protection).`

class UsageError extends Error {}

/** A bare http(s) origin: a path other than `/`, a query or a fragment is a mistake (the site lives at the root). */
function originOf(value: string, what: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new UsageError(`${what} is not a URL: ${JSON.stringify(value)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${what} must be http or https, got ${JSON.stringify(value)}`)
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new UsageError(`${what} must be an origin (scheme, host and port only), got ${JSON.stringify(value)}`)
  }
  return url.origin
}

function milliseconds(value: string | undefined, flag: string): number {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 600_000) {
    throw new UsageError(`${flag} expects a number of milliseconds from 1 to 600000, got ${JSON.stringify(value ?? '')}`)
  }
  return Number(value)
}

function parseArguments(argv: readonly string[], env: NodeJS.ProcessEnv): { options: VerifyOptions; jsonTarget: string | null } {
  let url: string | undefined
  let jsonTarget: string | null = null
  const options: Partial<VerifyOptions> = {}
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? ''
    const [flag, inline] =
      argument.startsWith('--') && argument.includes('=')
        ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)]
        : [argument, undefined]
    const value = () => {
      if (inline !== undefined) return inline
      index++
      const next = argv[index]
      if (next === undefined || (next.startsWith('--') && next !== '-')) throw new UsageError(`${flag} needs a value`)
      return next
    }
    if (flag === '--json') jsonTarget = value()
    else if (flag === '--origin') {
      const origin = value()
      options.publicOrigin = origin === ANNOUNCED_ORIGIN ? origin : originOf(origin, '--origin')
    } else if (flag === '--allow-disabled' && inline === undefined) options.allowDisabled = true
    else if (flag === '--expect') {
      const expected = value()
      if (expected !== 'preview' && expected !== 'production')
        throw new UsageError(`--expect is preview or production, got ${JSON.stringify(expected)}`)
      options.expectIndexing = expected
    } else if (flag === '--timeout-ms') options.timeoutMs = milliseconds(value(), flag)
    else if (flag === '--total-timeout-ms') options.totalTimeoutMs = milliseconds(value(), flag)
    else if (flag.startsWith('-')) throw new UsageError(`unknown option ${JSON.stringify(argument)}`)
    else if (url === undefined) url = originOf(argument, 'the URL')
    else throw new UsageError(`one URL only, got ${JSON.stringify(url)} and ${JSON.stringify(argument)}`)
  }
  if (url === undefined) throw new UsageError('no URL given')
  const bypass = env.VERCEL_AUTOMATION_BYPASS_SECRET?.trim()
  return {
    options: { ...options, origin: url, ...(bypass ? { extraHeaders: { 'x-vercel-protection-bypass': bypass } } : {}) },
    jsonTarget,
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArguments>
  try {
    parsed = parseArguments(argv, process.env)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(`verify: ${error.message}\n\n${USAGE}`)
    return 2
  }
  const report = await verifyDeployment(parsed.options)
  const print = parsed.jsonTarget === '-' ? console.error : console.log
  for (const line of reportLines(report)) print(line)
  if (parsed.jsonTarget === '-') console.log(JSON.stringify(report, null, 2))
  else if (parsed.jsonTarget !== null) {
    try {
      writeFileSync(parsed.jsonTarget, `${JSON.stringify(report, null, 2)}\n`)
    } catch (error) {
      console.error(`verify: could not write the JSON report to ${parsed.jsonTarget}: ${error instanceof Error ? error.message : String(error)}`)
      return 1
    }
  }
  return report.failed === 0 ? 0 : 1
}

try {
  process.exitCode = await main(process.argv.slice(2))
} catch (error) {
  // Checks never throw (every failure is a result): this would be a bug in verify itself.
  console.error(`verify: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
}
