/**
 * Talking to the site on loopback, bounded: `sendHttp` (node:http, keep-alive) for well-formed requests,
 * `rawExchange` (exact bytes on a socket, optionally trickled) for the rest. Neither throws: an exchange
 * ends answered, closed by the server, or timed out at its bound.
 */
import { Agent, request as httpRequest } from 'node:http'
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'

export const LOOPBACK = '127.0.0.1'

export interface Answered {
  status: number
  headers: Record<string, string>
  body: Buffer
}

export interface Outcome {
  /** `answered`: a complete answer; `closed`: the server closed (or reset) the connection without one; `timeout`: no answer within the bound. */
  end: 'answered' | 'closed' | 'timeout'
  answer: Answered | null
  /** All answers of a raw exchange, in order (pipelined requests). */
  answers: Answered[]
  /** Milliseconds from the first byte sent to the end. */
  elapsedMs: number
  error?: string
}

export interface HttpSpec {
  method: string
  path: string
  headers: Record<string, string>
  body?: string | Buffer
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  return headers
}

/** One request over `agent`; `boundMs` is the longest it may take before it counts as a hang. */
export function sendHttp(port: number, agent: Agent, spec: HttpSpec, boundMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now()
    let settled = false
    const finish = (outcome: Omit<Outcome, 'elapsedMs' | 'answers'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...outcome, answers: outcome.answer ? [outcome.answer] : [], elapsedMs: performance.now() - started })
    }
    const headers: Record<string, string | number> = { host: `${LOOPBACK}:${port}`, ...spec.headers }
    if (spec.body !== undefined && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
      headers['content-length'] = Buffer.byteLength(spec.body)
    }
    const req = httpRequest({ host: LOOPBACK, port, method: spec.method, path: spec.path, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        finish({ end: 'answered', answer: { status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), body: Buffer.concat(chunks) } }),
      )
      res.on('error', (error) => finish({ end: 'closed', answer: null, error: error.message }))
    })
    const timer = setTimeout(() => {
      finish({ end: 'timeout', answer: null, error: `no answer within ${boundMs} ms` })
      req.destroy()
    }, boundMs)
    req.on('error', (error) => finish({ end: 'closed', answer: null, error: error.message }))
    req.end(spec.body)
  })
}

/** Incremental HTTP/1.1 response reader: answers in order, 1xx skipped, bodies by length, chunks or close. */
class ResponseReader {
  answers: Answered[] = []
  #buffer: Buffer = Buffer.alloc(0)
  #headMethods: boolean[]

  constructor(headMethods: boolean[]) {
    this.#headMethods = headMethods
  }

  push(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk])
    while (this.#parseOne(false));
  }

  /** At close: a response delimited by the close itself is complete now. */
  close(): void {
    this.#parseOne(true)
  }

  #parseOne(atClose: boolean): boolean {
    const buffer = this.#buffer
    const headEnd = buffer.indexOf('\r\n\r\n')
    if (headEnd < 0) return false
    const head = buffer.subarray(0, headEnd).toString('latin1')
    const [statusLine = '', ...lines] = head.split('\r\n')
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)
    if (!match) {
      this.#buffer = Buffer.alloc(0)
      return false
    }
    const status = Number(match[1])
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(':')
      if (colon <= 0) continue
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
    }
    let rest = buffer.subarray(headEnd + 4)
    if (status >= 100 && status < 200) {
      this.#buffer = rest
      return true
    }
    const isHead = this.#headMethods[this.answers.length] ?? false
    let body: Buffer
    if (isHead || status === 204 || status === 304) {
      body = Buffer.alloc(0)
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const parts: Buffer[] = []
      let offset = 0
      for (;;) {
        const lineEnd = rest.indexOf('\r\n', offset)
        if (lineEnd < 0) return false
        const size = Number.parseInt(rest.subarray(offset, lineEnd).toString('latin1'), 16)
        if (Number.isNaN(size)) return false
        if (size === 0) {
          const trailerEnd = rest.indexOf('\r\n\r\n', lineEnd)
          const end = rest.subarray(lineEnd, lineEnd + 4).toString('latin1') === '\r\n\r\n' ? lineEnd + 4 : trailerEnd < 0 ? -1 : trailerEnd + 4
          if (end < 0) return false
          rest = rest.subarray(end)
          break
        }
        if (rest.length < lineEnd + 2 + size + 2) return false
        parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size))
        offset = lineEnd + 2 + size + 2
      }
      body = Buffer.concat(parts)
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length'])
      if (rest.length < length) return false
      body = rest.subarray(0, length)
      rest = rest.subarray(length)
    } else {
      if (!atClose) return false
      body = rest
      rest = Buffer.alloc(0)
    }
    this.answers.push({ status, headers, body })
    this.#buffer = rest
    return true
  }
}

export interface RawPlan {
  /** What to write at once. */
  payload: Buffer | string
  /** Trickle: after the payload, write `trickle` (a byte at a time, cycling) every `everyMs` until the server closes. */
  trickle?: { bytes: string; everyMs: number }
  /** How many answers complete the exchange (pipelined requests); default 1. */
  expectAnswers?: number
  /** Per expected answer: whether it answers a HEAD (no body). */
  headMethods?: boolean[]
  /** When set, read nothing for this long after writing (a slow reader), then read. */
  pauseReadingMs?: number
  /**
   * Never read (a stalled reader): the exchange ends `closed` when the server's side of the connection
   * leaves ESTABLISHED (seen in /proc/net/tcp, since a socket that reads nothing learns nothing).
   */
  neverRead?: boolean
}

const ESTABLISHED = '01'

/** Whether the server's end of a loopback connection (server port → client port) is still ESTABLISHED (Linux). */
export function serverSideEstablished(serverPort: number, clientPort: number): boolean {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0')
  const local = `0100007F:${hex(serverPort)}`
  const remote = `0100007F:${hex(clientPort)}`
  try {
    for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n')) {
      const fields = line.trim().split(/\s+/)
      if (fields[1] === local && fields[2] === remote) return fields[3] === ESTABLISHED
    }
  } catch {
    return false
  }
  return false
}

/** Writes exact bytes on a fresh loopback connection and reads what comes back, within `boundMs`. */
export function rawExchange(port: number, plan: RawPlan, boundMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const expectAnswers = plan.expectAnswers ?? 1
    const reader = new ResponseReader(plan.headMethods ?? [])
    const socket = connect({ host: LOOPBACK, port })
    const started = performance.now()
    let settled = false
    let ticker: NodeJS.Timeout | undefined
    let error: string | undefined
    const finish = (end: Outcome['end']) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      clearInterval(ticker)
      socket.destroy()
      const answers = reader.answers
      resolve({ end, answer: answers[0] ?? null, answers, elapsedMs: performance.now() - started, ...(error ? { error } : {}) })
    }
    const timer = setTimeout(() => finish('timeout'), boundMs)
    socket.on('connect', () => {
      socket.write(plan.payload)
      if (plan.trickle) {
        const { bytes, everyMs } = plan.trickle
        let index = 0
        ticker = setInterval(() => {
          if (!socket.destroyed && socket.writable) socket.write(bytes[index++ % bytes.length] as string)
        }, everyMs)
      }
      if (plan.pauseReadingMs) {
        socket.pause()
        setTimeout(() => socket.resume(), plan.pauseReadingMs)
      }
      if (plan.neverRead) {
        socket.pause()
        const clientPort = socket.localPort as number
        ticker = setInterval(() => {
          if (!serverSideEstablished(port, clientPort)) finish('closed')
        }, 100)
      }
    })
    socket.on('data', (chunk: Buffer) => {
      reader.push(chunk)
      if (reader.answers.length >= expectAnswers) finish('answered')
    })
    socket.on('error', (cause: Error) => {
      error = cause.message
    })
    socket.on('close', () => {
      reader.close()
      finish(reader.answers.length >= expectAnswers ? 'answered' : 'closed')
    })
  })
}

/** A keep-alive agent for the well-formed traffic. */
export function createAgent(maxSockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' })
}
