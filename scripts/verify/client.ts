/**
 * The only way `npm run verify` talks to a deployment: every request counted and capped, each under
 * its own timeout, all of them under one overall deadline, bodies read up to a size bound, redirects
 * reported rather than followed. A failure of any kind (refused, reset, TLS, timeout, too large)
 * becomes a `Fetched` with `error` set, never an exception, so every check can say what went wrong.
 */

export interface ClientOptions {
  /** The deployment's origin, e.g. `https://cadence-git-x.vercel.app`. */
  origin: string
  /** Each request's deadline, headers and body included. */
  timeoutMs: number
  /** The whole run's deadline: requests not started by then fail at once. */
  totalTimeoutMs: number
  /** Requests beyond this many are refused without being sent. */
  maxRequests: number
  /** Largest body read; a larger one fails its request. */
  maxBodyBytes: number
  /** Sent with every request (e.g. Vercel's deployment-protection bypass). */
  extraHeaders?: Record<string, string>
  /** At most this many requests in flight. */
  concurrency?: number
}

export interface Fetched {
  method: string
  path: string
  status: number
  headers: Headers
  text: string
  /** Why there is no (complete) answer, in a few words. */
  error?: string
  /** Whether the server answered at all (a status line and headers arrived). */
  answered: boolean
  /** Whether this request spent the deployment's agent quota (REST and POST /mcp). */
  spentQuota: boolean
}

export interface RequestSpec {
  method?: 'GET' | 'POST' | 'HEAD'
  path: string
  headers?: Record<string, string>
  body?: string
  spendsQuota?: boolean
}

/** The counters the report prints. */
export interface RequestCounts {
  sent: number
  spentQuota: number
}

const describeError = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out'
  const cause = error.cause as (Error & { code?: string }) | undefined
  if (cause?.code) return `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`
  return cause?.message ?? error.message
}

function describeBodyError(error: unknown, timeoutMs: number): string {
  const reason = describeError(error)
  if (reason === 'timed out') return `did not end within ${timeoutMs} ms`
  return reason.startsWith('body larger') ? `is ${reason.slice('body '.length)}` : `failed: ${reason}`
}

async function readBounded(response: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason)
    signal.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
  aborted.catch(() => {})
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted])
      if (done) break
      size += value.byteLength
      if (size > maxBytes) throw new Error(`body larger than ${maxBytes} bytes`)
      chunks.push(value)
    }
  } finally {
    reader.cancel().catch(() => {})
  }
  return Buffer.concat(chunks).toString('utf8')
}

export class BoundedClient {
  readonly counts: RequestCounts = { sent: 0, spentQuota: 0 }
  readonly #options: ClientOptions
  readonly #deadline: number
  #active = 0
  readonly #waiting: Array<() => void> = []
  readonly #cache = new Map<string, Promise<Fetched>>()
  readonly #answers: Fetched[] = []

  constructor(options: ClientOptions) {
    this.#options = options
    this.#deadline = Date.now() + options.totalTimeoutMs
  }

  get origin(): string {
    return this.#options.origin
  }

  /** Every request's outcome so far, in the order they ended. */
  answers(): readonly Fetched[] {
    return [...this.#answers]
  }

  /** The same request asked twice (by two checks) is sent once. */
  request(spec: RequestSpec): Promise<Fetched> {
    const key = JSON.stringify([spec.method ?? 'GET', spec.path, spec.headers ?? {}, spec.body ?? null])
    let pending = this.#cache.get(key)
    if (!pending) {
      pending = this.#send(spec).then((fetched) => {
        this.#answers.push(fetched)
        return fetched
      })
      this.#cache.set(key, pending)
    }
    return pending
  }

  async #slot(): Promise<void> {
    const limit = this.#options.concurrency ?? 4
    if (this.#active < limit) {
      this.#active++
      return
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve))
  }

  #release(): void {
    const next = this.#waiting.shift()
    if (next) next()
    else this.#active--
  }

  async #send(spec: RequestSpec): Promise<Fetched> {
    const method = spec.method ?? 'GET'
    const spentQuota = spec.spendsQuota ?? false
    const failed = (error: string): Fetched => ({
      method,
      path: spec.path,
      status: 0,
      headers: new Headers(),
      text: '',
      error,
      answered: false,
      spentQuota: false,
    })
    await this.#slot()
    try {
      const remaining = this.#deadline - Date.now()
      if (remaining <= 0) return failed(`not sent: the run's overall time bound (${this.#options.totalTimeoutMs} ms) was reached`)
      if (this.counts.sent >= this.#options.maxRequests) return failed(`not sent: the run's request budget (${this.#options.maxRequests}) is spent`)
      this.counts.sent++
      if (spentQuota) this.counts.spentQuota++
      const signal = AbortSignal.timeout(Math.min(this.#options.timeoutMs, remaining))
      try {
        const response = await fetch(new URL(spec.path, this.#options.origin), {
          method,
          headers: { 'user-agent': 'cadence-verify', ...this.#options.extraHeaders, ...spec.headers },
          body: spec.body,
          redirect: 'manual',
          signal,
        })
        const answer = { method, path: spec.path, status: response.status, headers: response.headers, text: '', answered: true, spentQuota }
        try {
          return { ...answer, text: method === 'HEAD' ? '' : await readBounded(response, this.#options.maxBodyBytes, signal) }
        } catch (error) {
          return {
            ...answer,
            error: `status ${response.status}, but the body ${describeBodyError(error, Math.min(this.#options.timeoutMs, remaining))}`,
          }
        }
      } catch (error) {
        const reason = describeError(error)
        return { ...failed(reason === 'timed out' ? `no answer within ${Math.min(this.#options.timeoutMs, remaining)} ms` : reason), spentQuota }
      }
    } finally {
      this.#release()
    }
  }
}
