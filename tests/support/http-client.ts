/**
 * A minimal HTTP client for tests that must choose their TCP source address: every address in
 * 127.0.0.0/8 is the loopback interface on Linux, so `from('127.0.0.7')` is a distinct client as the
 * server's socket sees it. Keep-alive connections, bodies read as text.
 */
import { Agent, request } from 'node:http'

export interface SimpleResponse {
  status: number
  headers: Record<string, string>
  body: string
  /** Milliseconds from sending to the complete body. */
  elapsedMs: number
}

export interface LoopbackClient {
  localAddress: string
  request: (
    url: string,
    options?: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number },
  ) => Promise<SimpleResponse>
  get: (url: string, headers?: Record<string, string>) => Promise<SimpleResponse>
  close: () => void
}

function loopbackClient(localAddress: string): LoopbackClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 32, localAddress } as ConstructorParameters<typeof Agent>[0] & { localAddress: string })
  const send: LoopbackClient['request'] = (url, options = {}) =>
    new Promise((resolve, reject) => {
      const started = performance.now()
      const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent, timeout: options.timeoutMs ?? 10_000 }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const headers: Record<string, string> = {}
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8'), elapsedMs: performance.now() - started })
        })
        res.on('error', reject)
      })
      req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${options.timeoutMs ?? 10_000} ms`)))
      req.on('error', reject)
      req.end(options.body)
    })
  return {
    localAddress,
    request: send,
    get: (url, headers) => send(url, { headers }),
    close: () => agent.destroy(),
  }
}

/** Distinct loopback source addresses: each is its own client (and bucket) to the server. */
let nextHost = 10
function freshLoopbackAddress(): string {
  nextHost++
  return `127.0.${Math.floor(nextHost / 250)}.${(nextHost % 250) + 2}`
}

/**
 * The loopback clients of one test file: `client()` opens one from a fresh address (or the one given),
 * `closeAll()` (in afterAll) closes every one it opened.
 */
export function loopbackClientPool() {
  const opened: LoopbackClient[] = []
  return {
    client(address = freshLoopbackAddress()): LoopbackClient {
      const created = loopbackClient(address)
      opened.push(created)
      return created
    },
    closeAll(): void {
      for (const created of opened) created.close()
    },
  }
}
