/**
 * `npm run verify -- <url>` as an operator runs it: against the test build served as `npm start`
 * and as `next start` serve it (every check passes), with public agent access switched off (a failure unless
 * --allow-disabled), a Vercel preview build (noindex everywhere), and loopback servers that answer
 * 404 HTML to everything or never answer (failed checks, exit 1, no stack trace), plus wrong usage.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_BASE_PATH, QUOTA } from '../../lib/contract/constants.ts'
import { projectRoot } from '../../harness/paths.ts'
import { SITE_BUILDS } from '../../harness/site-build.ts'
import { freePort, type RunningSite, startSite } from '../../harness/site-server.ts'

interface VerifyRun {
  code: number | null
  signal: NodeJS.Signals | null
  lines: string[]
  output: string
  report: any
}

/** The public origin of the `test` build: the site listens on loopback, its documents name this. */
const TEST_ORIGIN = SITE_BUILDS.test.BASE_URL
const PREVIEW_ORIGIN = `https://${SITE_BUILDS.preview.VERCEL_BRANCH_URL}`
/** Far above the run's own bounds: a verify still running then is a hang, and the test fails on the kill. */
const KILL_AFTER_MS = 45_000

const scratch = mkdtempSync(path.join(tmpdir(), 'cadence-verify-'))
let runs = 0

/** Runs the CLI: through `npm run verify` as documented, or (faster, the same script) with node directly. */
async function verify(args: string[], env: Record<string, string> = {}, via: 'npm' | 'node' = 'node'): Promise<VerifyRun> {
  const jsonFile = path.join(scratch, `report-${runs++}.json`)
  const withJson = args.length > 0 && !args.includes('--no-json') ? [...args, '--json', jsonFile] : args.filter((arg) => arg !== '--no-json')
  return await new Promise((resolve, reject) => {
    const { VERCEL_AUTOMATION_BYPASS_SECRET: _ignored, ...inherited } = process.env
    const [command, commandArgs] =
      via === 'npm' ? ['npm', ['run', '--silent', 'verify', '--', ...withJson]] : [process.execPath, ['scripts/verify.ts', ...withJson]]
    const child = spawn(command, commandArgs, {
      cwd: projectRoot,
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: KILL_AFTER_MS,
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      let report: unknown
      try {
        report = JSON.parse(readFileSync(jsonFile, 'utf8'))
      } catch {
        report = undefined
      }
      const output = `${stdout}${stderr.replace(/^npm warn .*\n/gm, '')}`
      resolve({ code, signal, lines: stdout.trimEnd().split('\n'), output, report })
    })
  })
}

function expectNoStackTrace(run: VerifyRun): void {
  expect(run.output).not.toMatch(/^\s+at .+[(:]\d+/m)
  expect(run.output).not.toMatch(/\b(TypeError|ReferenceError|SyntaxError|Unhandled)/)
}

function summaryOf(run: VerifyRun): { passed: number; failed: number } {
  const match = /^(\d+) passed, (\d+) failed$/.exec(run.lines.at(-1) ?? '')
  expect(match, run.output).not.toBeNull()
  return { passed: Number(match?.[1]), failed: Number(match?.[2]) }
}

describe('npm run verify against the test build (npm start)', () => {
  let site: RunningSite
  let disabled: RunningSite
  beforeAll(async () => {
    ;[site, disabled] = await Promise.all([startSite(), startSite({ PUBLIC_AGENT_ACCESS: 'false' })])
  })
  afterAll(async () => {
    await Promise.all([site?.stop(), disabled?.stop()])
  })

  it('passes every check (at least 20), exits 0, and spends no more of the quota than it reports, well under 150', async () => {
    const run = await verify([site.origin, '--origin', TEST_ORIGIN], {}, 'npm')
    expect(run.code, run.output).toBe(0)
    expectNoStackTrace(run)
    const { passed, failed } = summaryOf(run)
    expect(failed).toBe(0)
    expect(passed).toBeGreaterThanOrEqual(20)
    expect(run.lines.filter((line) => line.startsWith('PASS  '))).toHaveLength(passed)
    expect(run.lines).toContain('agent access: enabled; indexing: production')

    expect(run.report).toMatchObject({
      origin: site.origin,
      publicOrigin: TEST_ORIGIN,
      agentAccess: 'enabled',
      indexing: 'production',
      passed,
      failed: 0,
    })
    expect(run.report.checks).toHaveLength(passed)
    expect(run.report.checks.map((check: { name: string }) => check.name)).toEqual(
      expect.arrayContaining([
        `REST getAgentHealth GET ${API_BASE_PATH}/health`,
        `REST unknown resource GET ${API_BASE_PATH}/resources/verify-no-such-resource → 404 problem`,
        'MCP POST /mcp server/discover',
        'MCP POST /mcp mismatched Mcp-Name → 400 -32020 mcp_header_mismatch',
        'document /openapi.json',
        'page /pricing as Markdown (Accept: text/markdown) = /pricing.md',
      ]),
    )
    const { sent, spentQuota, limit } = run.report.requests
    expect(sent).toBeLessThanOrEqual(limit)
    expect(limit).toBeLessThan(QUOTA.capacity)
    expect(run.lines.at(-2)).toMatch(new RegExp(`^requests: ${sent} sent \\(at most ${limit}\\), ${spentQuota} of them to the agent API and MCP`))
    // The site's own count: this request sees the bucket less what verify spent (plus what refilled since).
    const remaining = Number((await site.fetch(`${API_BASE_PATH}/health`)).headers.get('ratelimit-remaining'))
    expect(remaining).toBeGreaterThanOrEqual(QUOTA.capacity - spentQuota - 1)
  })

  it('without --origin, reports every URL that names the build base URL instead of the checked one, and exits 1', async () => {
    const run = await verify([site.origin])
    expect(run.code).toBe(1)
    expectNoStackTrace(run)
    expect(run.lines).toContain(`FAIL  document /mcp.json — 1 URL(s) of this site under another origin than ${site.origin}: ${TEST_ORIGIN}/mcp`)
  })

  it('with agent access disabled: one failed check naming the state and --allow-disabled, exit 1; the 503 answers themselves pass', async () => {
    const run = await verify([disabled.origin, '--origin', TEST_ORIGIN])
    expect(run.code, run.output).toBe(1)
    expectNoStackTrace(run)
    expect(summaryOf(run).failed).toBe(1)
    expect(run.lines.filter((line) => line.startsWith('FAIL  '))).toEqual([
      'FAIL  agent access (public_agent_access) — disabled: the agent API answers 503 public_agent_access_disabled, Retry-After 300 (pass --allow-disabled when it is switched off on purpose)',
    ])
    expect(run.lines).toContain(
      `PASS  REST getPublicCapabilities GET ${API_BASE_PATH}/capabilities while disabled → 503 problem — 503 public_agent_access_disabled, Retry-After 300`,
    )
    expect(run.lines).toContain('PASS  MCP POST /mcp server/discover while disabled → 503 — 503, JSON-RPC -31503 public_agent_access_disabled')
    expect(run.report.agentAccess).toBe('disabled')
  })

  it('with agent access disabled and --allow-disabled: every check passes, the state is reported, exit 0', async () => {
    const run = await verify([disabled.origin, '--origin', TEST_ORIGIN, '--allow-disabled'])
    expect(run.code, run.output).toBe(0)
    expect(summaryOf(run).failed).toBe(0)
    expect(run.lines).toContain(
      'PASS  agent access (public_agent_access) — disabled: the agent API answers 503 public_agent_access_disabled, Retry-After 300 (allowed by --allow-disabled)',
    )
    expect(run.lines).toContain('agent access: disabled; indexing: production')
  })
})

describe('npm run verify against next start (Next serving the build, as Vercel does)', () => {
  let next: RunningSite
  beforeAll(async () => {
    next = await startSite({}, { server: 'next-start' })
  })
  afterAll(async () => {
    await next?.stop()
  })

  it('passes every check, exit 0', async () => {
    const run = await verify([next.origin, '--origin', TEST_ORIGIN])
    expect(run.code, run.output).toBe(0)
    expect(summaryOf(run).passed).toBe(run.report.checks.length)
  })
})

describe('npm run verify against the preview build', () => {
  let preview: RunningSite
  beforeAll(async () => {
    preview = await startSite({}, { build: 'preview' })
  })
  afterAll(async () => {
    await preview?.stop()
  })

  it('as the workflow runs it (--origin announced): holds URLs to the branch URL the homepage names, and reports a preview with noindex on every answer, robots.txt disallowing all and a noindex meta on every page, exit 0', async () => {
    const run = await verify([preview.origin, '--origin', 'announced', '--expect', 'preview'])
    expect(run.code, run.output).toBe(0)
    expect(run.report.publicOrigin).toBe(PREVIEW_ORIGIN)
    expect(run.lines).toContain(`PASS  public origin announced by / (Link rel="canonical") — ${PREVIEW_ORIGIN}: every URL of this site must name it`)
    expect(run.lines.find((line) => line.includes('indexing: preview (expected: preview)'))).toMatch(
      /^PASS {2}indexing: preview \(expected: preview\) — X-Robots-Tag: noindex on all \d+ answers, robots.txt disallows everything, every page has a noindex meta$/,
    )
  })

  it('fails the indexing check when the preview was expected to be production', async () => {
    const run = await verify([preview.origin, '--origin', PREVIEW_ORIGIN, '--expect', 'production'])
    expect(run.code).toBe(1)
    expect(summaryOf(run).failed).toBe(1)
    expect(run.lines.find((line) => line.startsWith('FAIL  '))).toMatch(
      /^FAIL {2}indexing: preview \(expected: production\) — \d+ answer\(s\) with X-Robots-Tag: noindex/,
    )
  })
})

describe('npm run verify against servers that are not the site', () => {
  const received: IncomingHttpHeaders[] = []
  const servers: Server[] = []
  let notFoundOrigin = ''
  let silentOrigin = ''
  let hangsOnApiOrigin = ''

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler)
    servers.push(server)
    const port = await freePort()
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    return `http://127.0.0.1:${port}`
  }

  beforeAll(async () => {
    notFoundOrigin = await serve((request, response) => {
      received.push(request.headers)
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Not found</title><h1>Not found</h1>')
    })
    // Accepts every connection and never answers.
    silentOrigin = await serve(() => {})
    // Pages and documents answer (404), the agent API and MCP never do.
    hangsOnApiOrigin = await serve((request, response) => {
      if (request.url?.startsWith(API_BASE_PATH) || request.url?.startsWith('/mcp')) return
      response.writeHead(404, { 'content-type': 'text/plain' }).end('no')
    })
  })
  afterAll(() => {
    for (const server of servers) server.closeAllConnections()
    for (const server of servers) server.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('a server answering 404 HTML everywhere: every check fails with its reason, exit 1, no stack trace; each request carries the Vercel bypass secret', async () => {
    const run = await verify([notFoundOrigin], { VERCEL_AUTOMATION_BYPASS_SECRET: 'bypass-for-test' })
    expect(run.code, run.output).toBe(1)
    expectNoStackTrace(run)
    const { passed, failed } = summaryOf(run)
    expect(passed).toBe(0)
    expect(failed).toBeGreaterThanOrEqual(20)
    expect(run.lines).toContain(`FAIL  REST getAgentHealth GET ${API_BASE_PATH}/health — GET ${API_BASE_PATH}/health: status 404, expected 200`)
    expect(run.lines).toContain('FAIL  document /llms.txt — GET /llms.txt: status 404, expected 200')
    // The count it reports is what the server saw, and every request named the secret.
    expect(received).toHaveLength(run.report.requests.sent)
    expect(received.every((headers) => headers['x-vercel-protection-bypass'] === 'bypass-for-test')).toBe(true)
  })

  it('a server that never answers: one failed check naming the per-request bound, exit 1, one request spent', async () => {
    const run = await verify([silentOrigin, '--timeout-ms', '300'])
    expect(run.signal).toBeNull()
    expect(run.code, run.output).toBe(1)
    expectNoStackTrace(run)
    expect(run.lines).toEqual([
      `verify ${silentOrigin}`,
      `FAIL  reach ${silentOrigin} — GET /: no answer within 300 ms`,
      'agent access: unknown; indexing: unknown',
      expect.stringMatching(/^requests: 1 sent \(at most 100\), 0 of them to the agent API and MCP/),
      '0 passed, 1 failed',
    ])
  })

  it('a server that hangs on the agent API only: those checks fail on the per-request bound and the run ends, exit 1', async () => {
    const run = await verify([hangsOnApiOrigin, '--timeout-ms', '300', '--total-timeout-ms', '20000'])
    expect(run.signal).toBeNull()
    expect(run.code, run.output).toBe(1)
    expectNoStackTrace(run)
    expect(run.lines).toContain(
      `FAIL  REST listPublicResources GET ${API_BASE_PATH}/resources — GET ${API_BASE_PATH}/resources: no answer within 300 ms`,
    )
    expect(run.lines).toContain('FAIL  MCP POST /mcp server/discover — POST /mcp: no answer within 300 ms')
  })

  it('wrong usage (no URL, not http(s), a path, an unknown option, a bad number): exit 2 with the reason and the usage', async () => {
    const cases: Array<[string[], string]> = [
      [[], 'verify: no URL given'],
      [['ftp://example.com'], 'verify: the URL must be http or https, got "ftp://example.com"'],
      [['https://example.com/docs'], 'verify: the URL must be an origin (scheme, host and port only), got "https://example.com/docs"'],
      [['https://example.com', '--fast'], 'verify: unknown option "--fast"'],
      [['https://example.com', '--timeout-ms', 'soon'], 'verify: --timeout-ms expects a number of milliseconds from 1 to 600000, got "soon"'],
    ]
    const runs = await Promise.all(cases.map(([args]) => verify([...args, '--no-json'])))
    runs.forEach((run, index) => {
      expect(run.code, run.output).toBe(2)
      expect(run.output).toContain(`${cases[index]?.[1]}\n\nUsage: npm run verify -- <url> [options]`)
      expectNoStackTrace(run)
    })
  })
})
