/**
 * The soak as a function (scripts/soak.ts is its command line, a test runs it short): the built site
 * behind a simulated trusted proxy gets valid, greedy, hostile and slow traffic within a fixed time and
 * request budget; afterwards no 5xx, hang or unanswered request, memory settled, quota still exact.
 */
import { createHash } from 'node:crypto'
import { positiveNumber } from '../knobs.ts'
import { processCpuMs, processRssMb } from '../../harness/proc-stats.ts'
import { freePort, startSite, type RunningSite } from '../../harness/site-server.ts'
import {
  CUT_OFF_SLACK_MS,
  cutOffWindow,
  greedyCase,
  hostileCase,
  slowCase,
  SLOW_CATEGORIES,
  toAnswer,
  validCase,
  warmUpCases,
  VALID_CATEGORIES,
  type CaseContext,
  type Category,
  type SlowCategory,
  type SoakCase,
} from './cases.ts'
import { clientPool, ipv4Client, seededRandom, type Random } from './clients.ts'
import { burstUntilRefused, type BurstResult } from './quota-check.ts'
import { runUploadFlood, uploadFloodProblems, type UploadFloodResult } from './upload-flood.ts'
import { createAgent, rawExchange, sendHttp, type Outcome } from './wire.ts'

/** Server RSS the upload flood must stay under. */
export const UPLOAD_FLOOD_RSS_BOUND_MB = 300

export interface SoakOptions {
  /** Length of the traffic phase. */
  seconds: number
  /** Most requests sent in the traffic phase (all kinds together). */
  maxRequests: number
  /** Target requests per second of valid + hostile traffic (greedy and slow clients come on top). */
  rate: number
  /** Concurrent valid/hostile requests. */
  concurrency: number
  /** Distinct simulated client addresses. */
  clients: number
  /** Share of hostile requests among valid + hostile. */
  hostileShare: number
  /** Longest idle time for memory to come back near its starting level. */
  settleSeconds: number
  /** Clients of the upload flood that closes the run, each a slow 2 MB POST /mcp. */
  uploaders: number
  /** Bytes per second each of them sends. */
  uploadBytesPerSecond: number
  seed: number
  log: (line: string) => void
}

export const DEFAULT_SOAK_OPTIONS: SoakOptions = {
  seconds: 60,
  maxRequests: 50_000,
  rate: 500,
  concurrency: 24,
  clients: 4_096,
  hostileShare: 0.25,
  settleSeconds: 30,
  uploaders: 1_000,
  uploadBytesPerSecond: 64 * 1024,
  seed: 20260825,
  log: (line) => console.log(line),
}

export function soakOptionsFromEnv(env: Record<string, string | undefined>): SoakOptions {
  const d = DEFAULT_SOAK_OPTIONS
  const whole = { integer: true }
  return {
    ...d,
    seconds: positiveNumber(env, 'SOAK_SECONDS', d.seconds),
    maxRequests: positiveNumber(env, 'SOAK_MAX_REQUESTS', d.maxRequests, whole),
    rate: positiveNumber(env, 'SOAK_RATE', d.rate),
    concurrency: positiveNumber(env, 'SOAK_CONCURRENCY', d.concurrency, whole),
    clients: positiveNumber(env, 'SOAK_CLIENTS', d.clients, whole),
    settleSeconds: positiveNumber(env, 'SOAK_SETTLE_SECONDS', d.settleSeconds),
    uploaders: positiveNumber(env, 'SOAK_UPLOADERS', d.uploaders, whole),
    uploadBytesPerSecond: positiveNumber(env, 'SOAK_UPLOAD_RATE', d.uploadBytesPerSecond, whole),
    seed: positiveNumber(env, 'SOAK_SEED', d.seed, whole),
  }
}

export interface Violation {
  kind: '5xx' | 'hang' | 'unanswered' | 'wrong answer' | 'inconsistent body' | 'cut-off timing' | 'quota' | 'memory' | 'server log' | 'crash'
  category: Category | 'run'
  label: string
  detail: string
}

export interface MemoryReport {
  coldMb: number
  beforeMb: number
  peakMb: number
  afterMb: number
  allowedGrowthMb: number
  /** RSS once a second while settling. */
  settleTimelineMb: number[]
  settledAfterMs: number
}

export interface SoakResult {
  options: Omit<SoakOptions, 'log'>
  durationMs: number
  trafficMs: number
  requests: number
  /** Per category: outcome key (status, `closed`, `timeout`, `cut 408`, `cut closed`) → count. */
  outcomes: Map<Category, Map<string, number>>
  latency: { valid: number[]; hostile: number[] }
  cutOffMs: Map<Category, number[]>
  memory: MemoryReport
  /** CPU seconds used during the traffic phase by the server and by the soak's own process. */
  cpu: { serverSeconds: number; soakSeconds: number }
  quota: BurstResult[]
  /** The closing upload flood (null when the run stopped before it). */
  uploadFlood: UploadFloodResult | null
  greedy: Array<{ address: string; admitted: number; refused: number; bounds: [number, number] }>
  clients: { total: number; ipv6: number }
  violations: Violation[]
  violationCount: number
}

const FLAGS_SECRET = Buffer.alloc(32, 7).toString('base64url')
const MAX_STORED_VIOLATIONS = 200
/** After its burst, a greedy client sends this often (ms): 25 requests/s, far above the refill of 2/s. */
const GREEDY_EVERY_MS = 40
const GREEDY_CLIENTS = 3
const GREEDY_BURST_PARALLEL = 6
const REFILL_MS = 500
const CLOCK_SLACK_MS = 25

interface GreedyExchange {
  sentAt: number
  answeredAt: number
  status: number
}

/**
 * What one bucket may have admitted. The bucket starts at the first decision t0 (after the first send,
 * before the first answer) and gains a token every 500 ms. Upper bound: 150 + the refills up to the
 * last answer. Lower bound, once refused: at the last refusal every token so far was spent, so at least
 * 150 + the refills up to it were admitted. Never refused: every request was admitted.
 */
export function checkGreedy(address: string, exchanges: readonly GreedyExchange[]): { summary: SoakResult['greedy'][number]; problem?: string } {
  const admitted = exchanges.filter((e) => e.status === 200).length
  const refusals = exchanges.filter((e) => e.status === 429)
  const firstSent = Math.min(...exchanges.map((e) => e.sentAt))
  const firstAnswered = Math.min(...exchanges.map((e) => e.answeredAt))
  const lastAnswered = Math.max(...exchanges.map((e) => e.answeredAt))
  const upper = 150 + Math.floor((lastAnswered - firstSent + CLOCK_SLACK_MS) / REFILL_MS)
  const lastRefusal = refusals.length > 0 ? Math.max(...refusals.map((e) => e.sentAt)) : null
  const lower = lastRefusal === null ? exchanges.length : 150 + Math.max(0, Math.floor((lastRefusal - firstAnswered - CLOCK_SLACK_MS) / REFILL_MS))
  const bounds: [number, number] = [lower, lastRefusal === null ? exchanges.length : upper]
  const summary = { address, admitted, refused: refusals.length, bounds }
  if (exchanges.length === 0) return { summary, problem: 'sent nothing' }
  if (admitted < bounds[0] || admitted > bounds[1])
    return { summary, problem: `${admitted} admitted over the phase, expected ${bounds[0]}…${bounds[1]}` }
  return { summary }
}

/**
 * "Near the starting level": V8 keeps part of the heap it grew under load (old-space pages are given
 * back only after later major GCs) and glibc keeps freed arenas, so RSS rarely returns to the byte.
 * A leak shows as growth with the number of requests; tens of thousands of requests leaking even
 * 1 KB each would exceed this. So: at most 25 % of the warm baseline, and at least 48 MB.
 */
export function allowedGrowthMb(beforeMb: number): number {
  return Math.max(48, beforeMb * 0.25)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Paces requests to `rate` per second across all workers. */
function createLimiter(rate: number): () => Promise<void> {
  let nextAt = performance.now()
  const interval = 1000 / rate
  return async () => {
    const now = performance.now()
    const at = Math.max(now, nextAt)
    nextAt = at + interval
    if (at > now) await sleep(at - now)
  }
}

class Recorder {
  readonly outcomes = new Map<Category, Map<string, number>>()
  readonly latency = { valid: [] as number[], hostile: [] as number[] }
  readonly cutOffMs = new Map<Category, number[]>()
  readonly violations: Violation[] = []
  violationCount = 0
  requests = 0
  readonly #bodies = new Map<string, string>()

  violation(v: Violation): void {
    this.violationCount++
    if (this.violations.length < MAX_STORED_VIOLATIONS) this.violations.push(v)
  }

  count(category: Category, key: string): void {
    const map = this.outcomes.get(category) ?? new Map<string, number>()
    this.outcomes.set(category, map)
    map.set(key, (map.get(key) ?? 0) + 1)
  }

  /** Judges one finished exchange. */
  record(c: SoakCase, outcome: Outcome): void {
    const answers = outcome.answers
    const v = (kind: Violation['kind'], detail: string) => this.violation({ kind, category: c.category, label: c.label, detail })
    for (const answer of answers) {
      if (answer.status >= 500) v('5xx', `${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`)
    }
    if (c.expect === 'cut-off') {
      const cut = answers.length > 0 ? `cut ${answers[0]?.status}` : outcome.end === 'closed' ? 'cut closed' : outcome.end
      this.count(c.category, cut)
      if (outcome.end === 'timeout') {
        v('hang', `not cut off within ${c.boundMs} ms`)
        return
      }
      const [min, max] = c.cutOffWindow ?? [0, c.boundMs]
      const times = this.cutOffMs.get(c.category) ?? []
      this.cutOffMs.set(c.category, times)
      times.push(outcome.elapsedMs)
      if (outcome.elapsedMs < min || outcome.elapsedMs > max)
        v('cut-off timing', `cut off after ${Math.round(outcome.elapsedMs)} ms, expected ${min}–${max} ms`)
      if (answers.length > 0 && c.judge) for (const p of c.judge(answers.map(toAnswer))) v('wrong answer', p)
      return
    }
    const key = answers.length > 1 ? `${answers.length} answers` : answers[0] ? String(answers[0].status) : outcome.end
    this.count(c.category, key)
    if (outcome.end === 'timeout') {
      v('hang', `no ${answers.length ? 'complete ' : ''}answer within ${c.boundMs} ms`)
      return
    }
    if (c.expect === 'close') {
      if (answers.length > 0) v('wrong answer', `expected the connection to be closed, got ${answers[0]?.status}`)
      return
    }
    if (outcome.end === 'closed' && c.expect === 'answer') {
      v('unanswered', `connection closed after ${answers.length} answer(s)${outcome.error ? ` (${outcome.error})` : ''}`)
      return
    }
    if (answers.length === 0) return
    const latencies = (VALID_CATEGORIES as readonly string[]).includes(c.category) ? this.latency.valid : this.latency.hostile
    if (c.timed !== false) latencies.push(outcome.elapsedMs)
    if (c.judge) for (const p of c.judge(answers.map(toAnswer))) v('wrong answer', p)
    const first = answers[0]
    if (c.consistencyKey && first && first.status === 200 && first.body.length > 0) {
      const digest = createHash('sha256').update(first.body).digest('base64url')
      const known = this.#bodies.get(c.consistencyKey)
      if (known === undefined) this.#bodies.set(c.consistencyKey, digest)
      else if (known !== digest) v('inconsistent body', `${c.consistencyKey}: a 200 body differs from the first one`)
    }
    if (first && first.status === 200) c.learn?.(first)
  }
}

export async function runSoak(options: SoakOptions = DEFAULT_SOAK_OPTIONS): Promise<SoakResult> {
  const started = performance.now()
  const { log } = options
  const port = await freePort()
  const site: RunningSite = await startSite({ TRUST_PROXY: '127.0.0.1', FLAGS_SECRET }, { port })
  const pid = site.process.pid as number
  const baseUrl = site.baseUrl
  const random: Random = seededRandom(options.seed)
  const pool = clientPool(options.clients)
  const ctx: CaseContext = { port, baseUrl, random, pool, etags: new Map(), bigFiller: Buffer.alloc(2 * 1024 * 1024 + 1, 0x20) }
  const recorder = new Recorder()
  const agent = createAgent(options.concurrency + GREEDY_CLIENTS)
  const inFlight = new Set<Promise<Outcome>>()

  const execute = (c: SoakCase): Promise<Outcome> => {
    recorder.requests++
    const exchange = c.send.kind === 'http' ? sendHttp(port, agent, c.send.spec, c.boundMs) : rawExchange(port, c.send.plan, c.boundMs)
    const done = exchange.then((outcome) => {
      recorder.record(c, outcome)
      return outcome
    })
    inFlight.add(done)
    void done.finally(() => inFlight.delete(done))
    return done
  }

  let peakMb = 0
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, processRssMb(pid))), 200)
  const greedy: SoakResult['greedy'] = []
  let trafficMs = 0
  const memory: MemoryReport = {
    coldMb: processRssMb(pid),
    beforeMb: 0,
    peakMb: 0,
    afterMb: 0,
    allowedGrowthMb: 0,
    settleTimelineMb: [],
    settledAfterMs: 0,
  }
  const cpu = { serverSeconds: 0, soakSeconds: 0 }
  let quota: BurstResult[] = []
  let uploadFlood: UploadFloodResult | null = null
  try {
    log(`soak: site on ${baseUrl} (pid ${pid}), TRUST_PROXY=127.0.0.1, ${options.clients} simulated clients; warming up`)
    const warm = warmUpCases(ctx)
    for (let i = 0; i < warm.length; i += 8) await Promise.all(warm.slice(i, i + 8).map(execute))
    await sleep(1_000)
    memory.beforeMb = processRssMb(pid)
    peakMb = memory.beforeMb
    cpu.serverSeconds = processCpuMs(pid) / 1000
    cpu.soakSeconds = (process.cpuUsage().user + process.cpuUsage().system) / 1e6

    log(`soak: ${options.seconds} s of traffic, at most ${options.maxRequests} requests, ~${options.rate}/s valid + hostile`)
    const trafficStart = performance.now()
    const deadline = trafficStart + options.seconds * 1000
    const budgetLeft = () => recorder.requests < options.maxRequests
    const running = () => performance.now() < deadline && budgetLeft()
    const limiter = createLimiter(options.rate)

    const workers = Array.from({ length: options.concurrency }, async () => {
      while (running()) {
        await limiter()
        if (!running()) break
        await execute(random() < options.hostileShare ? hostileCase(ctx) : validCase(ctx))
      }
    })

    // Greedy clients: each spends its burst at once, then stays far above the refill for the whole
    // phase; every answer is exact (cases.ts), and the admitted total is checked here.
    const greedyWorkers = Array.from({ length: GREEDY_CLIENTS }, async (_, index) => {
      const address = index === 1 ? `2001:db8:ffff:${index.toString(16)}::1` : ipv4Client(120_000 + index)
      const exchanges: GreedyExchange[] = []
      const one = async () => {
        const sentAt = performance.now()
        const outcome = await execute(greedyCase(ctx, address))
        exchanges.push({ sentAt, answeredAt: performance.now(), status: outcome.answer?.status ?? 0 })
      }
      // The burst: a few requests at a time until refused.
      while (running() && !exchanges.some((e) => e.status === 429) && exchanges.length < 200) {
        await Promise.all(Array.from({ length: GREEDY_BURST_PARALLEL }, one))
      }
      while (running()) {
        const sentAt = performance.now()
        await one()
        const wait = GREEDY_EVERY_MS - (performance.now() - sentAt)
        if (wait > 0) await sleep(wait)
      }
      const check = checkGreedy(address, exchanges)
      greedy.push(check.summary)
      if (check.problem) recorder.violation({ kind: 'quota', category: 'quota-greedy', label: address, detail: check.problem })
    })

    // Slow clients: one of each kind at the start (senders always; readers and bodies when their cut-off
    // fits in the phase), then one every 1.5 s, of a kind whose cut-off still fits in the phase.
    const slowWorker = (async () => {
      const slow: Promise<Outcome>[] = []
      const fits = (kind: SlowCategory) => performance.now() + cutOffWindow(kind)[1] <= deadline
      for (const kind of SLOW_CATEGORIES)
        if (kind === 'slow-headers' || kind === 'idle-connection' || fits(kind)) slow.push(execute(slowCase(ctx, kind)))
      for (let turn = 0; running(); turn++) {
        await sleep(1_500)
        if (!running()) break
        const kinds = SLOW_CATEGORIES.filter(fits)
        if (kinds.length > 0) slow.push(execute(slowCase(ctx, kinds[turn % kinds.length] as SlowCategory)))
      }
      await Promise.all(slow)
    })()

    await Promise.all([...workers, ...greedyWorkers])
    trafficMs = performance.now() - trafficStart
    memory.peakMb = Math.max(peakMb, processRssMb(pid))
    cpu.serverSeconds = processCpuMs(pid) / 1000 - cpu.serverSeconds
    cpu.soakSeconds = (process.cpuUsage().user + process.cpuUsage().system) / 1e6 - cpu.soakSeconds
    log(
      `soak: traffic done after ${(trafficMs / 1000).toFixed(1)} s (${recorder.requests} requests); slow clients still to be cut off: ${inFlight.size}`,
    )

    // Idle until RSS is back near its starting level, for at most settleSeconds (V8 gives memory back
    // when its memory reducer runs, several seconds after allocation stops), while the last slow
    // clients wait to be cut off: they send a byte now and then, nothing that allocates.
    memory.allowedGrowthMb = allowedGrowthMb(memory.beforeMb)
    const settle = (async () => {
      const settleStart = performance.now()
      for (;;) {
        memory.afterMb = processRssMb(pid)
        memory.settleTimelineMb.push(Math.round(memory.afterMb))
        if (memory.afterMb <= memory.beforeMb + memory.allowedGrowthMb || performance.now() - settleStart >= options.settleSeconds * 1000) break
        await sleep(1000)
      }
      memory.settledAfterMs = performance.now() - settleStart
    })()
    await Promise.all([slowWorker, settle])
    // Every exchange carries its own bound; this only guards against a bug in the soak itself.
    let guard: NodeJS.Timeout | undefined
    const leftovers = await Promise.race([
      Promise.all([...inFlight]).then(() => 0),
      new Promise<number>((resolve) => (guard = setTimeout(() => resolve(inFlight.size), 40_000))),
    ])
    clearTimeout(guard)
    if (leftovers > 0)
      recorder.violation({ kind: 'unanswered', category: 'run', label: 'drain', detail: `${leftovers} exchanges still open 40 s after the phase` })
    if (memory.afterMb > memory.beforeMb + memory.allowedGrowthMb) {
      recorder.violation({
        kind: 'memory',
        category: 'run',
        label: 'RSS',
        detail: `RSS ${memory.afterMb.toFixed(0)} MB after settling, more than ${memory.beforeMb.toFixed(0)} + ${memory.allowedGrowthMb.toFixed(0)} MB`,
      })
    }

    quota = [
      await burstUntilRefused(port, baseUrl, { label: 'fresh IPv4 client, REST', addresses: ['198.19.255.254'], mixTransports: false }),
      await burstUntilRefused(port, baseUrl, {
        label: 'fresh IPv6 /64 (two addresses), REST + MCP',
        addresses: ['2001:db8:fffe:1::1', '2001:db8:fffe:1:ffff::2'],
        mixTransports: true,
      }),
      await burstUntilRefused(port, baseUrl, {
        label: 'IPv4 and its IPv4-mapped IPv6 form',
        addresses: ['198.19.255.253', '::ffff:198.19.255.253'],
        mixTransports: false,
      }),
    ]
    for (const burst of quota) for (const p of burst.problems) recorder.violation({ kind: 'quota', category: 'run', label: burst.label, detail: p })

    log(`soak: upload flood, ${options.uploaders} clients each sending a 2 MB POST /mcp at ${options.uploadBytesPerSecond} B/s`)
    uploadFlood = await runUploadFlood(port, pid, { uploaders: options.uploaders, bytesPerSecond: options.uploadBytesPerSecond })
    for (const problem of uploadFloodProblems(uploadFlood, UPLOAD_FLOOD_RSS_BOUND_MB, CUT_OFF_SLACK_MS)) {
      recorder.violation({ kind: problem.kind, category: 'run', label: 'upload flood', detail: problem.detail })
    }

    if (site.process.exitCode !== null || site.process.signalCode !== null) {
      recorder.violation({
        kind: 'crash',
        category: 'run',
        label: 'server',
        detail: `the server exited (${site.process.exitCode ?? site.process.signalCode}): ${site.output().slice(-600)}`,
      })
    }
    const failures = site
      .output()
      .split('\n')
      .filter((line) => /a direct route failed|Internal Server Error|uncaught|unhandled|heap out of memory/i.test(line))
    for (const line of failures.slice(0, 20))
      recorder.violation({ kind: 'server log', category: 'run', label: 'server output', detail: line.slice(0, 200) })
  } finally {
    clearInterval(sampler)
    agent.destroy()
    await site.stop()
  }
  return {
    options: {
      seconds: options.seconds,
      maxRequests: options.maxRequests,
      rate: options.rate,
      concurrency: options.concurrency,
      clients: options.clients,
      hostileShare: options.hostileShare,
      settleSeconds: options.settleSeconds,
      uploaders: options.uploaders,
      uploadBytesPerSecond: options.uploadBytesPerSecond,
      seed: options.seed,
    },
    durationMs: performance.now() - started,
    trafficMs,
    requests: recorder.requests,
    outcomes: recorder.outcomes,
    latency: recorder.latency,
    cutOffMs: recorder.cutOffMs,
    memory,
    cpu,
    quota,
    uploadFlood,
    greedy,
    clients: { total: pool.addresses.length, ipv6: pool.ipv6 },
    violations: recorder.violations,
    violationCount: recorder.violationCount,
  }
}
