/**
 * Exact bytes to the site on a loopback socket (a fresh one, or a kept-alive one from a pool),
 * optionally trickled, the answers read back in order: the soak's one sender, and the tests' for
 * requests no HTTP client sends. It never throws: an exchange ends answered, closed by the server,
 * or timed out at its bound.
 */
import { readFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'

export const LOOPBACK = '127.0.0.1'

export interface Answered {
  status: number
  headers: Record<string, string>
  body: Buffer
}

export interface Outcome {
  /** `answered`: every expected answer; `closed`: the server closed (or reset) the connection first; `timeout`: not within the bound. */
  end: 'answered' | 'closed' | 'timeout'
  answer: Answered | null
  /** All answers, in order (pipelined requests). */
  answers: Answered[]
  /** Milliseconds from the first byte sent to the end. */
  elapsedMs: number
  error?: string
}

/** A chunked body at the start of `rest`: the body and the bytes it took, or null while incomplete. */
function chunkedBody(rest: Buffer): [Buffer, number] | null {
  const parts: Buffer[] = []
  for (let offset = 0; ; ) {
    const lineEnd = rest.indexOf('\r\n', offset)
    const size = lineEnd < 0 ? Number.NaN : Number.parseInt(rest.subarray(offset, lineEnd).toString('latin1'), 16)
    if (Number.isNaN(size)) return null
    if (size === 0) {
      const end = rest.indexOf('\r\n\r\n', lineEnd)
      return end < 0 ? null : [Buffer.concat(parts), end + 4]
    }
    if (rest.length < lineEnd + 2 + size + 2) return null
    parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size))
    offset = lineEnd + 2 + size + 2
  }
}

/** Incremental HTTP/1.1 response reader: answers in order, 1xx skipped, bodies by length, chunks or close. */
function responseReader(answers: Answered[], headMethods: readonly boolean[]): (chunk: Buffer, atClose?: boolean) => void {
  let buffer: Buffer = Buffer.alloc(0)
  const parseOne = (atClose: boolean): boolean => {
    const headEnd = buffer.indexOf('\r\n\r\n')
    if (headEnd < 0) return false
    const [statusLine = '', ...lines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n')
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1])
    if (!status) {
      buffer = Buffer.alloc(0)
      return false
    }
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(':')
      const [name, value] = [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]
      if (colon > 0) headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
    }
    const rest = buffer.subarray(headEnd + 4)
    const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length'])
    let framed: [Buffer, number] | null
    if (status < 200 || headMethods[answers.length] || status === 204 || status === 304) framed = [Buffer.alloc(0), 0]
    else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) framed = chunkedBody(rest)
    else if (length !== undefined) framed = rest.length < length ? null : [rest.subarray(0, length), length]
    else framed = atClose ? [rest, rest.length] : null
    if (!framed) return false
    if (status >= 200) answers.push({ status, headers, body: framed[0] })
    buffer = rest.subarray(framed[1])
    return true
  }
  return (chunk, atClose = false) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
    while (parseOne(atClose));
  }
}

/**
 * What a raw exchange writes and how it reads. `trickle`: after the payload, `size` bytes of `bytes`
 * (one at a time: cycling through them) every `everyMs`, up to `upTo`, while the server keeps the
 * connection. `expectAnswers` complete it (default 1; `headMethods`: which answer a HEAD, bodiless).
 * `pauseReadingMs`: read nothing that long (a slow reader). `neverRead` (a stalled reader): it ends
 * `closed` when the server's side leaves ESTABLISHED (seen in /proc/net/tcp: a socket that reads
 * nothing learns nothing). `keepAlive`: idle connections to take one from and give it back to once
 * answered, unless the server said it closes it.
 */
export interface RawPlan {
  payload: Buffer | string
  trickle?: { bytes: string; everyMs: number; size?: number; upTo?: number }
  expectAnswers?: number
  headMethods?: boolean[]
  pauseReadingMs?: number
  neverRead?: boolean
  keepAlive?: Socket[]
}

/** Whether the server's end of a loopback connection (server port → client port) is still ESTABLISHED (Linux). */
function serverSideEstablished(serverPort: number, clientPort: number): boolean {
  const hex = (port: number) => `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`
  try {
    const fields = readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .find((f) => f[1] === hex(serverPort) && f[2] === hex(clientPort))
    return fields?.[3] === '01'
  } catch {
    return false
  }
}

/** An idle kept-alive connection waits in its pool until it is taken again, or leaves it when the server closes it. */
function keepIdle(pool: Socket[], socket: Socket): void {
  socket.on('error', () => {})
  socket.once('close', () => pool.includes(socket) && pool.splice(pool.indexOf(socket), 1))
  pool.push(socket)
}

/** Writes exact bytes on a loopback connection and reads what comes back, within `boundMs`. */
export function rawExchange(port: number, plan: RawPlan, boundMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now()
    const answers: Answered[] = []
    const expectAnswers = plan.expectAnswers ?? 1
    const read = responseReader(answers, plan.headMethods ?? [])
    const reused = plan.keepAlive?.pop()
    reused?.removeAllListeners()
    const socket = reused ?? connect({ host: LOOPBACK, port })
    let ticker: NodeJS.Timeout | undefined
    let error: string | undefined
    let settled = false
    const end = (how: Outcome['end']) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      clearInterval(ticker)
      socket.removeAllListeners()
      const closing = /close/i.test(answers.at(-1)?.headers.connection ?? '')
      if (how === 'answered' && plan.keepAlive && socket.writable && !closing) keepIdle(plan.keepAlive, socket)
      else socket.destroy()
      resolve({ end: how, answer: answers[0] ?? null, answers, elapsedMs: performance.now() - started, ...(error ? { error } : {}) })
    }
    const timer = setTimeout(() => {
      error = `no answer within ${boundMs} ms`
      end('timeout')
    }, boundMs)
    const start = () => {
      socket.write(plan.payload)
      if (plan.trickle) {
        const { bytes, everyMs, size = 1, upTo = Number.POSITIVE_INFINITY } = plan.trickle
        const piece = Buffer.alloc(size, bytes)
        let sent = 0
        ticker = setInterval(() => {
          if (socket.destroyed || !socket.writable || sent >= upTo) return
          socket.write(size === 1 ? (bytes[sent % bytes.length] as string) : piece.subarray(0, upTo - sent))
          sent += size
        }, everyMs)
      }
      if (plan.pauseReadingMs) {
        socket.pause()
        setTimeout(() => socket.resume(), plan.pauseReadingMs)
      }
      if (plan.neverRead) {
        socket.pause()
        const clientPort = socket.localPort as number
        ticker = setInterval(() => serverSideEstablished(port, clientPort) || end('closed'), 100)
      }
    }
    if (reused) start()
    else socket.on('connect', start)
    socket.on('data', (chunk: Buffer) => {
      read(chunk)
      if (answers.length >= expectAnswers) end('answered')
    })
    socket.on('error', (cause: Error) => (error = cause.message))
    socket.on('close', () => {
      read(Buffer.alloc(0), true)
      end(answers.length >= expectAnswers ? 'answered' : 'closed')
    })
  })
}
