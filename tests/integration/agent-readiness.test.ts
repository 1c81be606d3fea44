/**
 * The agent-readiness scanners people outside use to judge a site, each run once, by its own CLI,
 * against the built site at its https base URL on loopback (tests/support/tls-front.ts): AFDocs (the
 * Agent-Friendly Documentation Spec) and Vercel's agent-readability audit. Every check passes but
 * those in SCANNER_EXCEPTIONS, where a scanner asks for what the contract or HTTP forbids.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../../harness/paths.ts'
import { serveAtBaseUrl, type SiteAtBaseUrl } from '../support/tls-front.ts'

type Scanner = 'afdocs' | 'agent-readability'

interface ScannerException {
  scanner: Scanner
  check: string
  /** What the scanner reports: AFDocs's status, or the audit's detail. */
  outcome: string
  reason: string
}

/** The one list of what the scanners may report against this site, each with its reason. */
const SCANNER_EXCEPTIONS: ScannerException[] = [
  {
    scanner: 'agent-readability',
    check: 'Agent UA → markdown',
    outcome: 'returned HTML',
    reason:
      'Markdown is chosen by Accept, the standard the site follows (standards.md §8); choosing it by User-Agent alone would hand one URL two ' +
      'bodies that no Vary keys, so shared caches would mix them. Agents that send Accept: text/markdown, or fetch the .md URL, get Markdown.',
  },
  {
    scanner: 'agent-readability',
    check: 'Missing page → markdown',
    outcome: 'returned 404',
    reason: 'A missing page is a 404 (RFC 9110): the Markdown 404 explains it in Markdown, but a 200 would tell agents and caches the page exists.',
  },
  {
    scanner: 'agent-readability',
    check: '.md URL → markdown',
    outcome: 'status 0',
    reason:
      'When its sampled page is the homepage, the audit asks for `<origin>.md` (https://agents.example.com.md), another host rather than a URL of ' +
      'this site; the homepage is Markdown at /index.md and by negotiation. With any other sampled page the check passes.',
  },
  {
    scanner: 'afdocs',
    check: 'cache-header-hygiene',
    outcome: 'warn',
    reason:
      'Documents (llms.txt) keep s-maxage=86400, a day in shared caches: Vercel empties its CDN cache on every deployment, and browsers revalidate after an hour.',
  },
]

/** Checks that do not apply to this site, as AFDocs itself reports them. */
const AFDOCS_NOT_APPLICABLE = ['auth-alternative-access']

interface AfdocsReport {
  results: Array<{ id: string; status: 'pass' | 'warn' | 'fail' | 'skip' | 'error'; message: string }>
}

interface AgentReadabilityReport {
  score: number
  categories: Record<string, { checks: Array<{ name: string; passed: boolean; skipped: boolean; detail?: string }> }>
}

const installedVersion = (name: string) =>
  (JSON.parse(readFileSync(path.join(projectRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version

let served: SiteAtBaseUrl
let afdocs: AfdocsReport
let agentReadability: AgentReadabilityReport

/** Runs a scanner's CLI on the Node of the tests, through the front's proxy, and parses its JSON output. */
async function runScanner<T>(cli: string, args: string[]): Promise<T> {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(projectRoot, 'node_modules', cli), ...args], {
      env: { ...process.env, ...served.nodeClientEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000)
    child.on('error', reject)
    child.on('exit', () => {
      clearTimeout(timer)
      stdout.trim() ? resolve(stdout) : reject(new Error(`${cli} wrote no report:\n${stderr}`))
    })
  })
  return JSON.parse(output) as T
}

beforeAll(async () => {
  served = await serveAtBaseUrl()
  ;[afdocs, agentReadability] = await Promise.all([
    runScanner<AfdocsReport>('afdocs/bin/afdocs.mjs', ['check', served.base, '--format', 'json']),
    runScanner<AgentReadabilityReport>('@vercel/agent-readability/dist/cli/index.cjs', ['audit', served.base, '--json']),
  ])
}, 480_000)
afterAll(async () => {
  await served?.stop()
})

/** What a scanner reported that no exception covers. */
function unexcused(scanner: Scanner, reported: Array<{ check: string; outcome: string }>) {
  return reported.filter(
    ({ check, outcome }) =>
      !SCANNER_EXCEPTIONS.some((exception) => exception.scanner === scanner && exception.check === check && exception.outcome === outcome),
  )
}

describe('agent-readiness scanners on the built site', () => {
  it('AFDocs 0.22.2 (afdocs check --format json) passes its 28 checks but the listed exceptions and auth-alternative-access, which does not apply', () => {
    expect(installedVersion('afdocs')).toBe('0.22.2')
    expect(afdocs.results).toHaveLength(28)
    const reported = afdocs.results
      .filter((result) => result.status !== 'pass' && !(result.status === 'skip' && AFDOCS_NOT_APPLICABLE.includes(result.id)))
      .map((result) => ({ check: result.id, outcome: result.status, message: result.message }))
    expect(unexcused('afdocs', reported)).toEqual([])
    expect(afdocs.results.filter((result) => result.status === 'skip').map((result) => result.id)).toEqual(AFDOCS_NOT_APPLICABLE)
  })

  it("Vercel's agent-readability 0.5.1 (agent-readability audit --json) runs its 25 checks, none skipped, and passes all but the listed exceptions", () => {
    expect(installedVersion('@vercel/agent-readability')).toBe('0.5.1')
    const checks = Object.values(agentReadability.categories).flatMap((category) => category.checks)
    expect(checks).toHaveLength(25)
    expect(checks.filter((check) => check.skipped).map((check) => check.name)).toEqual([])
    const reported = checks.filter((check) => !check.passed).map((check) => ({ check: check.name, outcome: check.detail ?? '' }))
    expect(unexcused('agent-readability', reported)).toEqual([])
  })
})
