/**
 * `npm run bench`: builds the site if needed, starts it and, in the same run, a bare node:http server
 * that sends the same bytes (the limit of this machine). Alternates the cases, repeats each run,
 * and prints requests/s, p50, p99, server CPU per request and peak RSS, each also as a ratio to the
 * bare server. Loopback only; every run is bounded by BENCH_DURATION seconds.
 *
 * Then the lead-delivery case (scripts/bench/delivery.ts): two instances on one lead store delivering
 * to a receiver that answers at once, in deliveries per second; and the cold-start case
 * (scripts/bench/cold-start.ts): the agent API's function and `npm start` against a bare Next app and
 * the MCP SDK's own minimal route, process start to first answer, pass/fail against the goals.
 *
 *   BENCH_RUNS (3), BENCH_DURATION (8 s), BENCH_CONNECTIONS (50), BENCH_CASES (comma-separated names,
 *   `lead-delivery` and `cold-start` among them), BENCH_DELIVERY_LEADS (2000 leads per store),
 *   BENCH_COLD_RUNS (5 cold starts of each kind),
 *   BENCH_SERVER (`npm-start`, or `next-start` to measure Next itself serving the same build, proxy.ts included),
 *   BENCH_BASELINE (a commit to measure against in the same run, scripts/bench/baseline.ts)
 *
 * With BENCH_BASELINE, each run starts the working tree's build and the baseline's afresh, loads them
 * back to back (the order swapped every run), then the bare server, and a second table compares the
 * two builds run by run: the ratio of each pair, so that neither the machine's drift between runs nor
 * one process's lasting luck reads as a difference between the builds.
 *
 * contact-form-post stores a new lead per request in an SQLite file of its own (the form's 303 is its
 * right answer), and the report counts the leads in the file against the 303 answers.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir, cpus, totalmem } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { exitOnConfigError, loadEnvFiles } from '../lib/env-files.ts'
import { projectRoot } from '../harness/paths.ts'
import { freePort, startSite, type RunningSite } from '../harness/site-server.ts'
import { makeAgentKey, signRequest, startLoopbackDirectory, type LoopbackDirectory } from '../harness/agent-signer.ts'
import { SITE_BUILDS } from '../harness/site-build.ts'
import { benchCases, type BenchCase } from './bench/cases.ts'
import { benchColdStart } from './bench/cold-start.ts'
import { benchDelivery } from './bench/delivery.ts'
import { baselineCommit, prepareBaseline } from './bench/baseline.ts'
import { positiveNumber } from './knobs.ts'
import type { LoadSigner } from './bench/load.ts'
import type { UpstashStack } from './bench/upstash.ts'
import { processCpuMs, processRssMb } from '../harness/proc-stats.ts'
import { median } from './bench/median.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
// BENCH_* may live in the `.env` files too, read as Next reads them; a wrong value stops here in one line.
const envFiles = loadEnvFiles()
let RUNS: number, DURATION: number, CONNECTIONS: number, COLD_RUNS: number, DELIVERY_LEADS: number
let BASELINE: string | undefined
try {
  BASELINE = baselineCommit(process.env)
  DELIVERY_LEADS = positiveNumber(process.env, 'BENCH_DELIVERY_LEADS', 2000, { integer: true })
  RUNS = positiveNumber(process.env, 'BENCH_RUNS', 3, { integer: true })
  COLD_RUNS = positiveNumber(process.env, 'BENCH_COLD_RUNS', 5, { integer: true })
  DURATION = positiveNumber(process.env, 'BENCH_DURATION', 8)
  CONNECTIONS = positiveNumber(process.env, 'BENCH_CONNECTIONS', 50, { integer: true })
} catch (error) {
  exitOnConfigError(error, envFiles)
}
const ONLY = process.env.BENCH_CASES?.split(',').filter(Boolean)
const SERVER = process.env.BENCH_SERVER === 'next-start' ? 'next-start' : 'npm-start'

interface Measurement {
  requestsPerSecond: number
  p50: number
  p99: number
  cpuMsPerRequest: number
  peakRssMb: number
  non2xx: number
  errors: number
  /** CPU of the Upstash stand-in (bridge + redis-server) per request; 0 without one. */
  storeCpuMsPerRequest: number
  /** Answers with the case's right status. */
  ok: number
  /** CPU of the load generator per request (it runs on the same cores as the server). */
  generatorCpuMsPerRequest: number
}

/** A case's measurements, in the order of the runs; `baseline` only with BENCH_BASELINE, and only for cases the baseline answers right. */
interface CaseRuns {
  site: Measurement[]
  bare: Measurement[]
  baseline: Measurement[]
}

/** A case as the runs send it: a signed case's headers, and its load generator's signer when it signs each request. */
type LoadCase = BenchCase & { signer?: LoadSigner }

async function runLoad(pid: number, url: string, benchCase: LoadCase, storeCpuMs: () => number = () => 0): Promise<Measurement> {
  const spec = {
    url,
    method: benchCase.method,
    headers: benchCase.headers,
    body: benchCase.body,
    connections: CONNECTIONS,
    duration: DURATION,
    signer: benchCase.signer,
  }
  const cpuBefore = processCpuMs(pid)
  const storeBefore = storeCpuMs()
  let peak = processRssMb(pid)
  const sampler = setInterval(() => (peak = Math.max(peak, processRssMb(pid))), 100)
  const child = spawn(process.execPath, [path.join(projectRoot, 'scripts/bench/load.ts'), JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  await new Promise((resolve) => child.on('exit', resolve))
  clearInterval(sampler)
  const cpu = processCpuMs(pid) - cpuBefore
  const storeCpu = storeCpuMs() - storeBefore
  const result = JSON.parse(output) as {
    requests: { average: number; total: number }
    latency: { p50: number; p99: number }
    non2xx: number
    errors: number
    timeouts: number
    '2xx': number
    '3xx': number
    generatorCpuMs: number
  }
  const total = Math.max(1, result['2xx'] + result.non2xx)
  // A case whose right answer is a 303 counts its 3xx answers as right, and the rest (2xx too) as wrong.
  const ok = benchCase.status === undefined ? result['2xx'] : result['3xx']
  return {
    ok,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMsPerRequest: cpu / total,
    peakRssMb: peak,
    non2xx: total - ok,
    errors: result.errors + result.timeouts,
    storeCpuMsPerRequest: storeCpu / total,
    generatorCpuMsPerRequest: result.generatorCpuMs / total,
  }
}

/** The site's answer to a case, if it is the case's right answer. */
async function answersRight(site: RunningSite, benchCase: BenchCase): Promise<boolean> {
  try {
    await recordAnswer(site, benchCase)
    return true
  } catch {
    return false
  }
}

/** Records the site's exact answer to a case, for the bare server to replay. */
function recordAnswer(site: RunningSite, benchCase: BenchCase): Promise<{ key: string; status: number; headers: [string, string][]; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: site.port,
        path: benchCase.path,
        method: benchCase.method,
        headers: { ...benchCase.headers, 'x-forwarded-for': '10.255.255.1' },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const body = Buffer.concat(chunks)
          const skip = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'])
          const headers: [string, string][] = []
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i] ?? ''
            if (!skip.has(name.toLowerCase())) headers.push([name, res.rawHeaders[i + 1] ?? ''])
          }
          headers.push(['Content-Length', String(body.length)])
          const right = benchCase.status === undefined ? (res.statusCode ?? 500) < 300 : res.statusCode === benchCase.status
          if (!right) reject(new Error(`${benchCase.name}: the site answered ${res.statusCode}: ${body.toString().slice(0, 300)}`))
          resolve({ key: `${benchCase.method} ${benchCase.path}`, status: res.statusCode ?? 0, headers, body: body.toString('base64') })
        })
      },
    )
    req.on('error', reject)
    req.end(benchCase.body?.replaceAll('{{n}}', 'recorded'))
  })
}

async function startBare(recordingsFile: string): Promise<{ port: number; process: ChildProcess }> {
  const port = await freePort()
  const child = spawn(process.execPath, [path.join(projectRoot, 'scripts/bench/bare-server.ts'), recordingsFile, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve) => child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve()))
  return { port, process: child }
}

function summarize(measurements: Measurement[]): Measurement {
  const pick = (key: keyof Measurement) => median(measurements.map((m) => m[key]))
  return {
    requestsPerSecond: pick('requestsPerSecond'),
    p50: pick('p50'),
    p99: pick('p99'),
    cpuMsPerRequest: pick('cpuMsPerRequest'),
    peakRssMb: Math.max(...measurements.map((m) => m.peakRssMb)),
    non2xx: measurements.reduce((sum, m) => sum + m.non2xx, 0),
    errors: measurements.reduce((sum, m) => sum + m.errors, 0),
    storeCpuMsPerRequest: pick('storeCpuMsPerRequest'),
    ok: measurements.reduce((sum, m) => sum + m.ok, 0),
    generatorCpuMsPerRequest: pick('generatorCpuMsPerRequest'),
  }
}

const leadsDatabase = path.join(mkdtempSync(path.join(tmpdir(), 'bench-leads-')), 'leads.sqlite')
const baselineLeadsDatabase = path.join(path.dirname(leadsDatabase), 'baseline-leads.sqlite')

/** Every 303 of the form case is a lead in the file: counted there, after the runs. */
function printStoredLeads(results: Map<string, CaseRuns>): void {
  const entry = results.get('contact-form-post')
  if (!entry) return
  const db = new DatabaseSync(leadsDatabase, { readOnly: true })
  const { count } = db.prepare(`SELECT COUNT(*) AS count FROM leads WHERE email LIKE 'bench-%'`).get() as { count: number }
  db.close()
  const answered = entry.site.reduce((sum, m) => sum + m.ok, 0)
  const perSecond = median(entry.site.map((m) => m.requestsPerSecond))
  // A run ends with requests in flight: the server stores them, autocannon no longer counts their answers.
  const kept =
    count >= answered
      ? `every 303 has its lead, ${count - answered} more from requests in flight at the end of a run`
      : `${answered - count} LEADS MISSING`
  console.log(
    `\ncontact-form-post: ${count} leads in the SQLite file for ${answered} answers 303 (${kept}); ` +
      `${perSecond.toFixed(0)} stored leads per second, p99 ${summarize(entry.site).p99} ms at ${CONNECTIONS} connections (target p99 < 50 ms).`,
  )
}

async function main(): Promise<void> {
  const cases = benchCases().filter((c) => !ONLY || ONLY.includes(c.name))
  if (cases.length > 0) await benchLoad(cases)
  if (!ONLY || ONLY.includes('lead-delivery')) await benchDelivery(DELIVERY_LEADS)
  if (!ONLY || ONLY.includes('cold-start')) await benchColdStart(COLD_RUNS)
}

/**
 * The signed cases' headers: a key of a loopback directory the site trusts, signing for the site's own
 * authority (the test build's base URL). `reused`: one signature without a nonce, valid for the whole
 * bench (an hour); `per-request`: the load generator signs each request with the key (its private JWK,
 * made for this run), and the headers here are the first request's.
 */
function signCases(cases: BenchCase[], directory: LoopbackDirectory): LoadCase[] {
  const authority = new URL(SITE_BUILDS.test.BASE_URL).host
  const key = directory.keys[0]
  if (!key) throw new Error('the bench directory has no key')
  return cases.map((benchCase) => {
    if (!benchCase.signed) return benchCase
    const reused = benchCase.signed === 'reused'
    const headers = {
      ...benchCase.headers,
      host: authority,
      ...signRequest(key, { authority, agent: directory.origin, lifetime: 3600, ...(reused ? { nonce: null } : {}) }),
    }
    if (reused) return { ...benchCase, headers }
    const signer: LoadSigner = { jwk: key.privateKey.export({ format: 'jwk' }), keyid: key.keyid, authority, agent: directory.origin }
    return { ...benchCase, headers, signer }
  })
}

/**
 * The verdicts (`agent_signature`) of the access-log lines a site writes, counted as they come: a signed
 * case's answers must all be logged `verified`, or its numbers would measure another path.
 */
function countVerdicts(site: RunningSite, counts: Map<string, number>): void {
  let partial = ''
  site.process.stdout?.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString()
    const end = text.lastIndexOf('\n') + 1
    partial = text.slice(end)
    for (const [, verdict = ''] of text.slice(0, end).matchAll(/"agent_signature":"(\w+)"/g)) counts.set(verdict, (counts.get(verdict) ?? 0) + 1)
  })
}

/** What the access log said of one run of a signed case: verified lines, and lines that said anything else. */
interface SignedRun {
  answers: number
  verified: number
  other: Record<string, number>
}

async function signedRun(counts: Map<string, number>, before: Map<string, number>, answers: number): Promise<SignedRun> {
  // The last lines of a run can arrive just after its answers (stdout is a pipe).
  await new Promise((resolve) => setTimeout(resolve, 300))
  const other: Record<string, number> = {}
  for (const [verdict, count] of counts) {
    const added = count - (before.get(verdict) ?? 0)
    if (verdict !== 'verified' && added > 0) other[verdict] = added
  }
  return { answers, verified: (counts.get('verified') ?? 0) - (before.get('verified') ?? 0), other }
}

async function benchLoad(selected: BenchCase[]): Promise<void> {
  let upstash: UpstashStack | undefined
  const sites: Record<string, RunningSite> = {}
  const bare: { port: number; process: ChildProcess }[] = []
  const directory = selected.some((c) => c.signed) ? await startLoopbackDirectory([makeAgentKey()]) : undefined
  const cases = directory ? signCases(selected, directory) : selected
  // Built before any server starts: a build would disturb nothing yet.
  const baseline = BASELINE ? { commit: BASELINE, dir: prepareBaseline(BASELINE) } : undefined
  try {
    // The contact form's leads go to an SQLite file of this run, not to the test build's own.
    const signatures: Record<string, string> = directory ? { AGENT_SIGNATURE_DIRECTORIES: directory.origin } : {}
    /** A site whose access-log verdicts are counted into `counts` as they come. */
    const startCountedSite = async (counts: Map<string, number>, leadsPath: string, dir?: string) => {
      const site = await startSite({ TRUST_PROXY: '127.0.0.1', LEADS_DATABASE_PATH: leadsPath, ...signatures }, { server: SERVER, dir })
      countVerdicts(site, counts)
      return site
    }
    const verdicts = new Map<string, number>()
    const startMemorySite = () => startCountedSite(verdicts, leadsDatabase)
    // The baseline's lines are read and counted alike (not reported): this process shares the cores it
    // measures on, and reading one site's log but not the other's read 0.94–0.96 for a build against itself.
    const baselineVerdicts = new Map<string, number>()
    const startBaselineSite = (dir: string) => startCountedSite(baselineVerdicts, baselineLeadsDatabase, dir)
    sites.memory = await startMemorySite()
    if (baseline) sites.baseline = await startBaselineSite(baseline.dir)
    const signedRuns = new Map<string, SignedRun[]>()
    if (cases.some((c) => c.store === 'upstash')) {
      const { startUpstashStack } = await import('./bench/upstash.ts')
      const stack = await startUpstashStack()
      upstash = stack
      sites.upstash = await startSite({ TRUST_PROXY: '127.0.0.1', ...stack.env }, { server: SERVER })
    }
    const recordings = []
    for (const benchCase of cases) recordings.push(await recordAnswer(sites[benchCase.store] as RunningSite, benchCase))
    // The baseline runs in-process stores only; a case it does not answer right (one it predates) is left out of the comparison.
    const comparable = new Set<string>()
    if (sites.baseline) {
      for (const benchCase of cases)
        if (benchCase.store === 'memory' && (await answersRight(sites.baseline, benchCase))) comparable.add(benchCase.name)
    }
    // The signed case's first request started the directory fetch; the runs measure a key already held.
    if (directory) await waitForDirectoryFetch(directory, 0)
    const recordingsFile = path.join(mkdtempSync(path.join(tmpdir(), 'bench-')), 'answers.json')
    writeFileSync(recordingsFile, JSON.stringify(recordings))
    const bareServer = await startBare(recordingsFile)
    bare.push(bareServer)

    const results = new Map<string, CaseRuns>()
    const restartCompared = async (run: number, baselineDir: string) => {
      const fetches = directory?.requests ?? 0
      await Promise.all([sites.memory?.stop(), sites.baseline?.stop()])
      // The build started first alternates too.
      if (run % 2 === 1) {
        sites.memory = await startMemorySite()
        sites.baseline = await startBaselineSite(baselineDir)
      } else {
        sites.baseline = await startBaselineSite(baselineDir)
        sites.memory = await startMemorySite()
      }
      // One request of each case to each: a signed one starts the new processes' directory fetch.
      for (const benchCase of cases.filter((c) => c.store === 'memory')) {
        await recordAnswer(sites.memory, benchCase)
        if (comparable.has(benchCase.name)) await answersRight(sites.baseline, benchCase)
      }
      if (directory) await waitForDirectoryFetch(directory, fetches)
    }
    for (let run = 1; run <= RUNS; run++) {
      // Against a baseline, both builds start afresh for every run, in turns: one process of a build can
      // serve several percent faster or slower than another of the same build for its whole life (the
      // same build against itself read 0.935 on one pair of processes), which would pass for a
      // difference between the builds.
      if (baseline && run > 1) await restartCompared(run, baseline.dir)
      for (const benchCase of cases) {
        const site = sites[benchCase.store] as RunningSite
        const entry = results.get(benchCase.name) ?? { site: [], bare: [], baseline: [] }
        const againstBaseline = sites.baseline && comparable.has(benchCase.name) ? sites.baseline : undefined
        // Odd runs load the baseline after the site, even runs before it.
        const loadBaseline = async () => {
          if (!againstBaseline) return
          process.stderr.write('baseline… ')
          entry.baseline.push(await runLoad(againstBaseline.process.pid ?? 0, `${againstBaseline.origin}${benchCase.path}`, benchCase))
        }
        process.stderr.write(`run ${run}/${RUNS} ${benchCase.name}: `)
        if (run % 2 === 0) await loadBaseline()
        process.stderr.write('site… ')
        const storeCpu = benchCase.store === 'upstash' && upstash ? upstash.cpuMs : undefined
        const verdictsBefore = new Map(verdicts)
        const measured = await runLoad(site.process.pid ?? 0, `${site.origin}${benchCase.path}`, benchCase, storeCpu)
        entry.site.push(measured)
        if (benchCase.signed) {
          const runs = signedRuns.get(benchCase.name) ?? []
          runs.push(await signedRun(verdicts, verdictsBefore, measured.ok))
          signedRuns.set(benchCase.name, runs)
        }
        if (run % 2 === 1) await loadBaseline()
        process.stderr.write('bare…\n')
        entry.bare.push(await runLoad(bareServer.process.pid ?? 0, `http://127.0.0.1:${bareServer.port}${benchCase.path}`, benchCase))
        results.set(benchCase.name, entry)
      }
    }
    printReport(cases, results)
    if (baseline) printBaselineComparison(baseline.commit, cases, comparable, results)
    printSignedRuns(signedRuns, results)
    printStoredLeads(results)
  } finally {
    for (const site of Object.values(sites)) await site.stop()
    for (const server of bare) server.process.kill('SIGTERM')
    await upstash?.stop()
    await directory?.close()
    // The run's leads are test data, not kept.
    rmSync(path.dirname(leadsDatabase), { recursive: true, force: true })
  }
}

/** Waits until the directory has answered more than `before` requests (a site started since fetched it). */
async function waitForDirectoryFetch(directory: LoopbackDirectory, before: number): Promise<void> {
  const deadline = Date.now() + 10_000
  while (directory.requests <= before) {
    if (Date.now() > deadline) throw new Error('the site never fetched the bench key directory')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  // The answer is on its way to the site: give it the moment to validate and hold the keys.
  await new Promise((resolve) => setTimeout(resolve, 500))
}

/**
 * Each signed case against rest-health (same run): the extra CPU per request and the share of its
 * throughput (goal: under 0.1 ms, within 5 %), and what the access log said of its requests. A signed
 * request logged anything but `verified` fails the bench.
 */
function printSignedRuns(signedRuns: Map<string, SignedRun[]>, results: Map<string, CaseRuns>): void {
  const unsigned = results.get('rest-health')
  const failures: string[] = []
  for (const [name, runs] of signedRuns) {
    const answers = runs.reduce((sum, run) => sum + run.answers, 0)
    const verified = runs.reduce((sum, run) => sum + run.verified, 0)
    const other: Record<string, number> = {}
    for (const run of runs) for (const [verdict, count] of Object.entries(run.other)) other[verdict] = (other[verdict] ?? 0) + count
    const otherText = Object.keys(other).length === 0 ? 'none anything else' : JSON.stringify(other)
    console.log(`\n${name}: ${answers} right answers; the access log says verified for ${verified} requests, ${otherText}.`)
    if (Object.keys(other).length > 0 || verified < answers) failures.push(name)
    const signed = results.get(name)
    if (!unsigned || !signed) continue
    const [health, site] = [summarize(unsigned.site), summarize(signed.site)]
    const extraCpu = site.cpuMsPerRequest - health.cpuMsPerRequest
    const share = site.requestsPerSecond / health.requestsPerSecond
    console.log(
      `${name} against rest-health: ${extraCpu.toFixed(3)} CPU ms more per request (goal < 0.1), ${(share * 100).toFixed(1)} % of its throughput (goal ≥ 95 %).`,
    )
    // On a shared machine the medians can hide a disturbed run: each run, in the order they ran.
    const eachRun = (entry: { site: Measurement[] }) =>
      entry.site
        .map(
          (m) => `${m.requestsPerSecond.toFixed(0)} req/s ${m.cpuMsPerRequest.toFixed(3)} ms (generator ${m.generatorCpuMsPerRequest.toFixed(3)} ms)`,
        )
        .join(', ')
    console.log(`  runs: rest-health ${eachRun(unsigned)}; ${name} ${eachRun(signed)}`)
  }
  if (failures.length > 0) throw new Error(`signed requests not all logged verified: ${failures.join(', ')}`)
}

/**
 * The working tree's build against the baseline's, case by case: each run's pair (loaded back to back)
 * as a ratio, their median and range, for requests per second and server CPU per request.
 */
function printBaselineComparison(commit: string, cases: BenchCase[], comparable: Set<string>, results: Map<string, CaseRuns>): void {
  console.log(
    `\nAgainst the baseline ${commit.slice(0, 7)}, in the same run: per case, the ratio this build / baseline of each run's pair ` +
      `(loaded back to back, the order swapped every run); median [lowest–highest].\n`,
  )
  const rows = [['case', 'req/s', 'baseline req/s', 'req/s ratio', 'CPU ms/req', 'baseline CPU ms/req', 'CPU ratio']]
  const pairRatios = (site: Measurement[], baseline: Measurement[], key: keyof Measurement) =>
    site.map((m, i) => m[key] / Math.max(Number.EPSILON, baseline[i]?.[key] ?? 0))
  const spread = (ratios: number[]) => `${median(ratios).toFixed(3)} [${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}]`
  // Each run's pairs in the order they ran: a process that is slow for its whole life shows as one run in every case.
  const eachRun: string[] = []
  for (const benchCase of cases) {
    const entry = results.get(benchCase.name)
    if (!entry || entry.baseline.length === 0) continue
    const [site, baseline] = [summarize(entry.site), summarize(entry.baseline)]
    const rates = pairRatios(entry.site, entry.baseline, 'requestsPerSecond')
    const cpu = pairRatios(entry.site, entry.baseline, 'cpuMsPerRequest')
    rows.push([
      benchCase.name,
      site.requestsPerSecond.toFixed(0),
      baseline.requestsPerSecond.toFixed(0),
      spread(rates),
      site.cpuMsPerRequest.toFixed(3),
      baseline.cpuMsPerRequest.toFixed(3),
      spread(cpu),
    ])
    eachRun.push(`  ${benchCase.name}: ${rates.map((rate, i) => `${rate.toFixed(3)} (${(cpu[i] ?? 0).toFixed(3)})`).join(', ')}`)
  }
  printTable(rows)
  console.log(['\nreq/s ratio of each run (CPU ratio):', ...eachRun].join('\n'))
  const left = cases.filter((c) => !comparable.has(c.name)).map((c) => c.name)
  if (left.length > 0) console.log(`Not compared (the baseline answers them otherwise, or they need a store it is not given): ${left.join(', ')}.`)
}

function printTable(rows: string[][]): void {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? []
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`
  console.log(line(rows[0] ?? []))
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const row of rows.slice(1)) console.log(line(row))
}

function printReport(cases: BenchCase[], results: Map<string, CaseRuns>): void {
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  console.log(
    `\n${new Date().toISOString().slice(0, 10)} · ${cpus().length} × ${cpu} · ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.versions.node}`,
  )
  console.log(`${RUNS} alternating runs per case, ${DURATION} s each, ${CONNECTIONS} connections, autocannon; medians (peak RSS: max)\n`)
  const rows = [
    ['case', 'req/s', 'ratio', 'p50 ms', 'p99 ms', 'p99 ×bare', 'CPU ms/req', 'CPU ×bare', 'peak RSS MB', 'RSS ×bare', 'non-2xx', 'errors'],
  ]
  for (const benchCase of cases) {
    const entry = results.get(benchCase.name)
    if (!entry) continue
    const site = summarize(entry.site)
    const bare = summarize(entry.bare)
    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(3) : '—')
    rows.push([
      benchCase.name,
      site.requestsPerSecond.toFixed(0),
      ratio(site.requestsPerSecond, bare.requestsPerSecond),
      String(site.p50),
      String(site.p99),
      ratio(site.p99, Math.max(1, bare.p99)),
      site.cpuMsPerRequest.toFixed(3),
      ratio(site.cpuMsPerRequest, bare.cpuMsPerRequest),
      site.peakRssMb.toFixed(0),
      ratio(site.peakRssMb, bare.peakRssMb),
      String(site.non2xx),
      String(site.errors),
    ])
    rows.push([
      '  bare node:http',
      bare.requestsPerSecond.toFixed(0),
      '1',
      String(bare.p50),
      String(bare.p99),
      '1',
      bare.cpuMsPerRequest.toFixed(3),
      '1',
      bare.peakRssMb.toFixed(0),
      '1',
      String(bare.non2xx),
      String(bare.errors),
    ])
  }
  printTable(rows)
  for (const benchCase of cases.filter((c) => c.store === 'upstash')) {
    const entry = results.get(benchCase.name)
    if (!entry) continue
    const site = summarize(entry.site)
    console.log(
      `\n${benchCase.name}: the local Upstash stand-in (REST bridge + redis-server, on the same ${cpus().length} cores) used ${site.storeCpuMsPerRequest.toFixed(3)} CPU ms per request besides the site's ${site.cpuMsPerRequest.toFixed(3)}.`,
    )
  }
  const memory = results.get('rest-resource')
  const upstashRun = results.get('rest-resource-upstash')
  if (memory && upstashRun) {
    const ratio = summarize(upstashRun.site).requestsPerSecond / summarize(memory.site).requestsPerSecond
    console.log(`Upstash mode runs at ${(ratio * 100).toFixed(0)} % of the in-process mode (target ≥ 80 %).`)
  }
}

await main()
