/**
 * The soak as a function (scripts/soak.ts is its command line, a test runs it short): the built site
 * behind a simulated trusted proxy gets valid, greedy, hostile and slow traffic within a fixed time and
 * request budget, then an upload flood; afterwards no 5xx, hang or unanswered request, memory settled,
 * quota still exact.
 */
import { createHash } from 'node:crypto'
import type { Socket } from 'node:net'
import { MCP_MAX_BODY_BYTES } from '../../lib/contract/constants.ts'
import { cutOffBoundMs } from '../../lib/server/server-options.ts'
import { quotaRefills, type TimedExchange } from '../../harness/contract-answers.ts'
import { processCpuMs, processRssMb } from '../../harness/proc-stats.ts'
import { freePort, startSite } from '../../harness/site-server.ts'
import { positiveNumber } from '../knobs.ts'
import * as cases from './cases.ts'
import { type CaseContext, type Category, CUT_OFF_SLACK_MS, HANG_MS, SLOW_CATEGORIES, type SoakCase, type SlowCategory, toAnswer } from './cases.ts'
import { clientPool, forwardedForm, ipv4Client, seededRandom } from './clients.ts'
import { LOOPBACK, type Outcome, rawExchange } from '../../harness/raw-exchange.ts'

/**
 * `seconds` of traffic, at most `maxRequests` (all kinds together), `rate` valid + hostile requests a
 * second (greedy and slow clients come on top), `concurrency` of them at once from `clients` simulated
 * addresses; then at most `settleSeconds` idle for memory to come back, and the closing upload flood:
 * `uploaders`, each a slow 2 MB POST /mcp at `uploadRate` bytes a second. Each is set by SOAK_ and its
 * name in capitals (SOAK_MAX_REQUESTS, SOAK_UPLOAD_RATE, …).
 */
export const DEFAULT_SOAK_OPTIONS = {
  seconds: 60,
  maxRequests: 50_000,
  rate: 500,
  concurrency: 24,
  clients: 4_096,
  settleSeconds: 30,
  uploaders: 1_000,
  uploadRate: 64 * 1024,
  seed: 20260825,
  log: (line: string) => console.log(line),
}
export type SoakOptions = typeof DEFAULT_SOAK_OPTIONS
const FRACTIONAL = ['seconds', 'rate', 'settleSeconds']
/** The share of the paced requests that is hostile. */
const HOSTILE_SHARE = 0.25

export function soakOptionsFromEnv(env: Record<string, string | undefined>): SoakOptions {
  const options = { ...DEFAULT_SOAK_OPTIONS }
  for (const [key, value] of Object.entries(options)) {
    const name = `SOAK_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`
    if (typeof value === 'number') Object.assign(options, { [key]: positiveNumber(env, name, value, { integer: !FRACTIONAL.includes(key) }) })
  }
  return options
}

export interface Violation {
  kind: '5xx' | 'hang' | 'unanswered' | 'wrong answer' | 'inconsistent body' | 'cut-off timing' | 'quota' | 'memory' | 'server log' | 'crash'
  category: Category | 'run'
  label: string
  detail: string
}
export type SoakResult = Awaited<ReturnType<typeof runSoak>>

const FLAGS_SECRET = Buffer.alloc(32, 7).toString('base64url')
const SERVER_FAILURE = /a direct route failed|Internal Server Error|uncaught|unhandled|heap out of memory/i
const MAX_STORED_VIOLATIONS = 200
/** After its burst, a greedy client sends this often (ms): 25 requests/s, far above the refill of 2/s. */
const GREEDY_EVERY_MS = 40
const UPLOAD_FLOOD_RSS_BOUND_MB = 300

/**
 * "Near the starting level": V8 keeps part of the heap it grew under load (old-space pages are given
 * back only after later major GCs) and glibc keeps freed arenas, so RSS rarely returns to the byte.
 * A leak shows as growth with the number of requests; tens of thousands of requests leaking even
 * 1 KB each would exceed this. So: at most 25 % of the warm baseline, and at least 48 MB.
 */
const allowedGrowthMb = (beforeMb: number) => Math.max(48, beforeMb * 0.25)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
export const count = <K extends string>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1)

/** Counts, latencies and violations of the finished exchanges, each judged as its case says. */
class Recorder {
  readonly outcomes = new Map<Category, Map<string, number>>()
  readonly latency = { valid: [] as number[], hostile: [] as number[] }
  readonly cutOffMs = new Map<Category, number[]>()
  readonly violations: Violation[] = []
  violationCount = 0
  requests = 0
  readonly #bodies = new Map<string, string>()

  violation(kind: Violation['kind'], category: Violation['category'], label: string, detail: string): void {
    this.violationCount++
    if (this.violations.length < MAX_STORED_VIOLATIONS) this.violations.push({ kind, category, label, detail })
  }

  record(c: SoakCase, { answers, end, elapsedMs, error }: Outcome) {
    const v = (kind: Violation['kind'], detail: string) => this.violation(kind, c.category, c.label, detail)
    for (const answer of answers) if (answer.status >= 500) v('5xx', `${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`)
    const [cutOff, status] = [c.expect === 'cut-off', answers[0]?.status]
    const cut = status !== undefined ? `cut ${status}` : end === 'closed' ? 'cut closed' : end
    if (!this.outcomes.has(c.category)) this.outcomes.set(c.category, new Map())
    count(this.outcomes.get(c.category)!, cutOff ? cut : answers.length > 1 ? `${answers.length} answers` : String(status ?? end))
    if (end === 'timeout')
      return v('hang', cutOff ? `not cut off within ${c.boundMs} ms` : `no ${answers.length ? 'complete ' : ''}answer within ${c.boundMs} ms`)
    if (c.expect === 'close' && answers.length > 0) return v('wrong answer', `expected the connection to be closed, got ${answers[0]?.status}`)
    if (end === 'closed' && c.expect === 'answer')
      return v('unanswered', `connection closed after ${answers.length} answer(s)${error ? ` (${error})` : ''}`)
    if (cutOff) {
      const [min, max] = c.cutOffWindow ?? [0, c.boundMs]
      this.cutOffMs.set(c.category, [...(this.cutOffMs.get(c.category) ?? []), elapsedMs])
      if (elapsedMs < min || elapsedMs > max) v('cut-off timing', `cut off after ${Math.round(elapsedMs)} ms, expected ${min}–${max} ms`)
    } else if (answers.length > 0 && c.timed !== false) {
      ;((cases.VALID_CATEGORIES as readonly string[]).includes(c.category) ? this.latency.valid : this.latency.hostile).push(elapsedMs)
    }
    if (answers.length > 0 && c.judge) for (const p of c.judge(answers.map(toAnswer))) v('wrong answer', p)
    const first = answers[0]
    if (first?.status !== 200) return
    if (c.consistencyKey && first.body.length > 0) {
      const digest = createHash('sha256').update(first.body).digest('base64url')
      const known = this.#bodies.get(c.consistencyKey) ?? digest
      this.#bodies.set(c.consistencyKey, known)
      if (known !== digest) v('inconsistent body', `${c.consistencyKey}: a 200 body differs from the first one`)
    }
    c.learn?.(first)
  }
}

/**
 * What a greedy client's bucket may have admitted: at most 150 + the refills by its last answer; once
 * refused, at least 150 + the refills by its last refusal (every token so far was spent then); never
 * refused, every request.
 */
function greedyCheck(address: string, exchanges: ReadonlyArray<TimedExchange & { status: number }>) {
  const admitted = exchanges.filter((e) => e.status === 200).length
  const refusals = exchanges.filter((e) => e.status === 429)
  const first = { sentAt: Math.min(...exchanges.map((e) => e.sentAt)), answeredAt: Math.min(...exchanges.map((e) => e.answeredAt)) }
  const last = (list: typeof exchanges, at: 'sentAt' | 'answeredAt') => list.reduce((a, b) => (b[at] > a[at] ? b : a))
  const bounds: [number, number] =
    refusals.length === 0
      ? [exchanges.length, exchanges.length]
      : [150 + quotaRefills(first, last(refusals, 'sentAt'))[0], 150 + quotaRefills(first, last(exchanges, 'answeredAt'))[1]]
  const outside = admitted < bounds[0] || admitted > bounds[1]
  const problem =
    exchanges.length === 0 ? 'sent nothing' : outside ? `${admitted} admitted over the phase, expected ${bounds[0]}…${bounds[1]}` : undefined
  return { summary: { address, admitted, refused: refusals.length, bounds }, problem }
}

/**
 * The quota, exact, afterwards: a fresh client (`addresses` used in turn, all one client to the server;
 * REST and MCP alternating, or REST) sending until refused sees Remaining = 150 − i + refills (bracketed
 * by the clock), then the exact 429 once every token is spent; each answer judged as its row says.
 */
async function burstUntilRefused(ctx: CaseContext, label: string, addresses: string[], mixTransports: boolean) {
  const [problems, started] = [[] as string[], performance.now()]
  const result = (refills: [number, number], elapsedMs: number, refusal: string, problem?: string) => {
    return { label, admitted, refills, elapsedMs, refusal, problems: problem ? [...problems, problem] : problems }
  }
  let [first, admitted] = [undefined as TimedExchange | undefined, 0]
  for (let i = 0; i < 150 + 60; i++) {
    const c = cases.greedyCase(ctx, addresses[i % addresses.length] as string, mixTransports && i % 2 === 1 ? 'mcp' : 'rest')
    const sentAt = performance.now()
    const outcome = await rawExchange(ctx.port, c.plan, HANG_MS)
    const exchange = { sentAt, answeredAt: performance.now() }
    first ??= exchange
    if (!outcome.answer) return result([0, 0], 0, 'none', `request ${i + 1}: ${outcome.end}`)
    const answer = toAnswer(outcome.answer)
    problems.push(...(c.judge?.([answer]) ?? []).map((p) => `request ${i + 1}: ${p}`))
    const [[min, max], h] = [quotaRefills(first, exchange), answer.headers]
    if (answer.status === 429) {
      if (admitted < 150 + min || admitted > 150 + max) problems.push(`refused after ${admitted} admitted; expected 150 + ${min}…${max} refills`)
      const refusal = `429 Retry-After ${h['retry-after']}, RateLimit-Remaining ${h['ratelimit-remaining']}, RateLimit-Reset ${h['ratelimit-reset']}, RateLimit: ${h.ratelimit}`
      return result([min, max], exchange.answeredAt - started, refusal)
    }
    admitted++
    const [low, high, remaining] = [150 - admitted + min, Math.min(149, 150 - admitted + max), Number(h['ratelimit-remaining'])]
    if (!(remaining >= low && remaining <= high)) problems.push(`admitted request ${admitted}: Remaining ${remaining}, expected ${low}…${high}`)
  }
  return result([0, 0], performance.now() - started, 'none', `no 429 after ${admitted} admitted requests`)
}

/**
 * The closing upload flood: every uploader at once starts a 2 MB POST /mcp and sends its body at
 * `uploadRate`. The server must keep its memory bounded (bodies hold at most its body budget, the rest
 * wait on the clients: lib/http/body-budget.ts), cut every too-slow upload off within the request
 * timeout, and keep answering everyone else (a health check a second) meanwhile.
 */
async function uploadFlood(ctx: CaseContext, pid: number, { uploaders, uploadRate }: SoakOptions, recorder: Recorder) {
  let [peakRssMb, flooding] = [processRssMb(pid), true]
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, processRssMb(pid))), 200)
  const healthChecks: { status: number; ms: number }[] = []
  const checker = (async () => {
    for (; flooding; await sleep(1_000)) {
      const { answer, elapsedMs } = await rawExchange(ctx.port, cases.greedyCase(ctx, '198.19.0.1', 'rest').plan, HANG_MS)
      healthChecks.push({ status: answer?.status ?? 0, ms: elapsedMs })
    }
  })()
  const bound = cutOffBoundMs('requestTimeout') + CUT_OFF_SLACK_MS
  // Each uploader is a distinct client behind the trusted proxy, so the quota does not refuse them first.
  const head = (i: number) =>
    `POST /mcp HTTP/1.1\r\nHost: ${LOOPBACK}:${ctx.port}\r\nX-Forwarded-For: 198.18.${i >> 8}.${i & 255}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json, text/event-stream\r\nContent-Length: ${MCP_MAX_BODY_BYTES}\r\nConnection: close\r\n\r\n`
  const trickle = { bytes: ' ', everyMs: 100, size: Math.max(1, Math.round(uploadRate / 10)), upTo: MCP_MAX_BODY_BYTES }
  const ends = await Promise.all(Array.from({ length: uploaders }, (_, i) => rawExchange(ctx.port, { payload: head(i), trickle }, bound + 30_000)))
  flooding = false
  await checker
  clearInterval(sampler)
  const endings = new Map<string, number>()
  for (const { answer, end } of ends) count(endings, String(answer?.status ?? end))
  const longestMs = Math.max(...ends.map((end) => end.elapsedMs))
  const v = (kind: Violation['kind'], detail: string) => recorder.violation(kind, 'run', 'upload flood', detail)
  if (peakRssMb > UPLOAD_FLOOD_RSS_BOUND_MB)
    v('memory', `server RSS peaked at ${peakRssMb.toFixed(0)} MB during the flood, above ${UPLOAD_FLOOD_RSS_BOUND_MB} MB`)
  if (longestMs > bound)
    v('cut-off timing', `an upload lasted ${(longestMs / 1000).toFixed(1)} s, past the request timeout's ${(bound / 1000).toFixed(1)} s`)
  const unexpected = [...endings.keys()].filter((ending) => !['408', '400', '413', 'closed'].includes(ending))
  if (unexpected.length) v('wrong answer', `uploads ended with ${unexpected.join(', ')}`)
  const failed = healthChecks.filter((check) => check.status !== 200).length
  if (failed) v('unanswered', `${failed} of ${healthChecks.length} health checks during the flood failed`)
  return { uploaders, bytesPerSecond: uploadRate, endings: Object.fromEntries(endings), longestMs, peakRssMb, healthChecks }
}

export async function runSoak(options: SoakOptions = DEFAULT_SOAK_OPTIONS) {
  const [started, { log }, port] = [performance.now(), options, await freePort()]
  const site = await startSite({ TRUST_PROXY: '127.0.0.1', FLAGS_SECRET }, { port })
  const pid = site.process.pid as number
  const rss = () => processRssMb(pid)
  const [random, pool, sockets] = [seededRandom(options.seed), clientPool(options.clients), [] as Socket[]]
  const ctx: CaseContext = { port, baseUrl: site.baseUrl, random, pool, sockets, etags: new Map() }
  const recorder = new Recorder()
  const inFlight = new Set<Promise<Outcome>>()
  const execute = (c: SoakCase): Promise<Outcome> => {
    recorder.requests++
    const done = rawExchange(port, c.plan, c.boundMs).then((outcome) => {
      recorder.record(c, outcome)
      return outcome
    })
    inFlight.add(done)
    void done.finally(() => inFlight.delete(done))
    return done
  }
  const cpuNow = () => ({ serverSeconds: processCpuMs(pid) / 1000, soakSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6 })
  const memory = { coldMb: rss(), beforeMb: 0, peakMb: 0, afterMb: 0, allowedGrowthMb: 0, settleTimelineMb: [] as number[], settledAfterMs: 0 }
  const sampler = setInterval(() => (memory.peakMb = Math.max(memory.peakMb, rss())), 200)
  const greedy: ReturnType<typeof greedyCheck>['summary'][] = []
  let [trafficMs, cpu, quota] = [0, cpuNow(), [] as Awaited<ReturnType<typeof burstUntilRefused>>[]]
  let flood: Awaited<ReturnType<typeof uploadFlood>> | null = null
  try {
    log(`soak: site on ${site.baseUrl} (pid ${pid}), TRUST_PROXY=127.0.0.1, ${options.clients} simulated clients; warming up`)
    const warm = cases.warmUpCases(ctx)
    for (let i = 0; i < warm.length; i += 8) await Promise.all(warm.slice(i, i + 8).map(execute))
    await sleep(1_000)
    memory.beforeMb = memory.peakMb = rss()
    cpu = cpuNow()

    log(`soak: ${options.seconds} s of traffic, at most ${options.maxRequests} requests, ~${options.rate}/s valid + hostile`)
    const trafficStart = performance.now()
    const deadline = trafficStart + options.seconds * 1000
    const running = () => performance.now() < deadline && recorder.requests < options.maxRequests
    // Paces valid + hostile requests to `rate` per second across all workers.
    let nextAt = performance.now()
    const paced = async () => {
      const [now, at] = [performance.now(), Math.max(performance.now(), nextAt)]
      nextAt = at + 1000 / options.rate
      if (at > now) await sleep(at - now)
    }
    const workers = Array.from({ length: options.concurrency }, async () => {
      while (running()) {
        await paced()
        if (running()) await execute(random() < HOSTILE_SHARE ? cases.hostileCase(ctx) : cases.validCase(ctx))
      }
    })
    // Greedy clients: each spends its burst at once (a few requests at a time until refused), then stays
    // far above the refill for the whole phase; every answer is judged, the admitted total checked here.
    const greedyWorkers = [0, 1, 2].map(async (index) => {
      const address = index === 1 ? `2001:db8:ffff:${index.toString(16)}::1` : ipv4Client(120_000 + index)
      const exchanges: { sentAt: number; answeredAt: number; status: number }[] = []
      const one = async () => {
        const sentAt = performance.now()
        const outcome = await execute(cases.greedyCase(ctx, forwardedForm(random, address)))
        exchanges.push({ sentAt, answeredAt: performance.now(), status: outcome.answer?.status ?? 0 })
      }
      while (running() && !exchanges.some((e) => e.status === 429) && exchanges.length < 200) await Promise.all(Array.from({ length: 6 }, one))
      for (let sentAt = performance.now(); running(); sentAt = performance.now())
        await Promise.all([one(), sleep(GREEDY_EVERY_MS - (performance.now() - sentAt))])
      const check = greedyCheck(address, exchanges)
      greedy.push(check.summary)
      if (check.problem) recorder.violation('quota', 'quota-greedy', address, check.problem)
    })
    // Slow clients: one of each kind at the start (senders always; readers and bodies when their cut-off
    // fits in the phase), then one every 1.5 s, of a kind whose cut-off still fits in the phase.
    const slowWorker = (async () => {
      const fits = (kind: SlowCategory) => performance.now() + cases.cutOffWindowOf(kind)[1] <= deadline
      const first = SLOW_CATEGORIES.filter((kind) => kind === 'slow-headers' || kind === 'idle-connection' || fits(kind))
      const slow = first.map((kind) => execute(cases.slowCase(ctx, kind)))
      for (let turn = 0; running(); turn++) {
        await sleep(1_500)
        const kinds = SLOW_CATEGORIES.filter(fits)
        if (running() && kinds.length > 0) slow.push(execute(cases.slowCase(ctx, kinds[turn % kinds.length] as SlowCategory)))
      }
      await Promise.all(slow)
    })()

    await Promise.all([...workers, ...greedyWorkers])
    trafficMs = performance.now() - trafficStart
    memory.peakMb = Math.max(memory.peakMb, rss())
    const cpuAfter = cpuNow()
    cpu = { serverSeconds: cpuAfter.serverSeconds - cpu.serverSeconds, soakSeconds: cpuAfter.soakSeconds - cpu.soakSeconds }
    const done = `${(trafficMs / 1000).toFixed(1)} s (${recorder.requests} requests)`
    log(`soak: traffic done after ${done}; slow clients still to be cut off: ${inFlight.size}`)

    // Idle until RSS is back near its starting level, for at most settleSeconds (V8 gives memory back
    // when its memory reducer runs, several seconds after allocation stops), while the last slow
    // clients wait to be cut off: they send a byte now and then, nothing that allocates.
    memory.allowedGrowthMb = allowedGrowthMb(memory.beforeMb)
    const settled = () => memory.afterMb <= memory.beforeMb + memory.allowedGrowthMb
    const settle = (async () => {
      const settleStart = performance.now()
      for (; ; await sleep(1000)) {
        memory.afterMb = rss()
        memory.settleTimelineMb.push(Math.round(memory.afterMb))
        if (settled() || performance.now() - settleStart >= options.settleSeconds * 1000) break
      }
      memory.settledAfterMs = performance.now() - settleStart
    })()
    await Promise.all([slowWorker, settle])
    // Every exchange carries its own bound; this only guards against a bug in the soak itself.
    const leftovers = await Promise.race([Promise.all([...inFlight]).then(() => 0), sleep(40_000).then(() => inFlight.size)])
    if (leftovers > 0) recorder.violation('unanswered', 'run', 'drain', `${leftovers} exchanges still open 40 s after the phase`)
    const [after, before, allowed] = [memory.afterMb, memory.beforeMb, memory.allowedGrowthMb].map((mb) => mb.toFixed(0))
    if (!settled()) recorder.violation('memory', 'run', 'RSS', `RSS ${after} MB after settling, more than ${before} + ${allowed} MB`)

    quota = [
      await burstUntilRefused(ctx, 'fresh IPv4 client, REST', ['198.19.255.254'], false),
      await burstUntilRefused(ctx, 'fresh IPv6 /64 (two addresses), REST + MCP', ['2001:db8:fffe:1::1', '2001:db8:fffe:1:ffff::2'], true),
      await burstUntilRefused(ctx, 'IPv4 and its IPv4-mapped IPv6 form', ['198.19.255.253', '::ffff:198.19.255.253'], false),
    ]
    for (const burst of quota) for (const p of burst.problems) recorder.violation('quota', 'run', burst.label, p)

    log(`soak: upload flood, ${options.uploaders} clients each sending a 2 MB POST /mcp at ${options.uploadRate} B/s`)
    flood = await uploadFlood(ctx, pid, options, recorder)

    const exit = site.process.exitCode ?? site.process.signalCode
    if (exit !== null) recorder.violation('crash', 'run', 'server', `the server exited (${exit}): ${site.output().slice(-600)}`)
    const failures = site
      .output()
      .split('\n')
      .filter((line) => SERVER_FAILURE.test(line))
    for (const line of failures.slice(0, 20)) recorder.violation('server log', 'run', 'server output', line.slice(0, 200))
  } finally {
    clearInterval(sampler)
    for (const socket of sockets.splice(0)) socket.destroy()
    await site.stop()
  }
  const { log: _, ...settings } = options
  const { outcomes, latency, cutOffMs, violations, violationCount, requests } = recorder
  const phases = { trafficMs, requests, outcomes, latency, cutOffMs, memory, cpu, quota, uploadFlood: flood, greedy }
  const clients = { total: pool.addresses.length, ipv6: pool.ipv6 }
  return { options: settings, durationMs: performance.now() - started, ...phases, clients, violations, violationCount }
}
