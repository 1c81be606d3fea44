/**
 * A local stand-in for Upstash's REST API in front of a real Redis, so `@upstash/redis` and
 * `@upstash/ratelimit` run unmodified in tests: `POST /` (one command), `POST /pipeline`,
 * `POST /multi-exec`, `Authorization: Bearer <token>`, and `Upstash-Encoding: base64` (every string
 * result base64 except `OK`). Redis 7.0 rejects script flags it does not know (the ratelimit scripts
 * declare `allow-key-locking`), so EVAL scripts are rewritten without them and EVALSHA of an original
 * script is mapped to the rewritten one (`keepScriptFlags: true` forwards scripts unchanged, as Upstash's
 * serverless-redis-http does). It also counts the commands it forwarded.
 */
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { Redis as IORedis } from 'ioredis'

export interface UpstashBridge {
  url: string
  token: string
  /** Commands forwarded so far, by upper-case name. */
  commandCounts: () => Record<string, number>
  /** REST calls received so far, by path (`/`, `/pipeline`, `/multi-exec`). */
  requestCounts: () => Record<string, number>
  resetCounts: () => void
  stop: () => Promise<void>
}

/** Script flags Redis 7.0 understands; any other flag is dropped from the shebang. */
const KNOWN_SCRIPT_FLAGS = new Set(['no-writes', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys'])

function stripUnknownScriptFlags(script: string): string {
  const match = /^#!lua(?:[ \t]+flags=([^\n]*))?/.exec(script)
  if (!match || match[1] === undefined) return script
  const kept = match[1]
    .split(',')
    .map((flag) => flag.trim())
    .filter((flag) => KNOWN_SCRIPT_FLAGS.has(flag))
  const shebang = kept.length > 0 ? `#!lua flags=${kept.join(',')}` : '#!lua'
  return shebang + script.slice(match[0].length)
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex')

type Command = Array<string | number | boolean | null>

export async function startUpstashBridge(options: { redisPort: number; token?: string; keepScriptFlags?: boolean }): Promise<UpstashBridge> {
  const token = options.token ?? `test-token-${Math.random().toString(36).slice(2)}`
  const redis = new IORedis({
    host: '127.0.0.1',
    port: options.redisPort,
    // Fail fast while Redis is down (no queueing), reconnect by itself when it is back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => 100,
    lazyConnect: false,
  })
  redis.on('error', () => {})
  await new Promise<void>((resolve, reject) => {
    redis.once('ready', () => resolve())
    setTimeout(() => reject(new Error(`Redis on port ${options.redisPort} not ready within 5 s`)), 5_000).unref()
  })
  const scriptAliases = new Map<string, string>()
  const counts: Record<string, number> = {}
  const requests: Record<string, number> = {}

  const toArgs = (command: Command): Array<string | Buffer | number> =>
    command.map((part) => (typeof part === 'string' || typeof part === 'number' ? part : JSON.stringify(part)))

  /** Rewrites a command for Redis 7.0 (script flags) and records what it did. */
  const prepare = (command: Command): [string, Array<string | Buffer | number>] => {
    const name = String(command[0]).toUpperCase()
    counts[name] = (counts[name] ?? 0) + 1
    const args = toArgs(command.slice(1))
    if (options.keepScriptFlags) return [name, args]
    if ((name === 'EVAL' || name === 'EVAL_RO') && typeof args[0] === 'string') {
      const original = args[0]
      const rewritten = stripUnknownScriptFlags(original)
      if (rewritten !== original) scriptAliases.set(sha1(original), sha1(rewritten))
      args[0] = rewritten
    } else if ((name === 'EVALSHA' || name === 'EVALSHA_RO') && typeof args[0] === 'string') {
      args[0] = scriptAliases.get(args[0].toLowerCase()) ?? args[0]
    }
    return [name, args]
  }

  const encode = (value: unknown, base64: boolean): unknown => {
    if (value === null || value === undefined) return null
    if (typeof value === 'number') return value
    if (Buffer.isBuffer(value)) {
      const text = value.toString('utf8')
      if (!base64 || text === 'OK') return text
      return value.toString('base64')
    }
    if (typeof value === 'string') return !base64 || value === 'OK' ? value : Buffer.from(value).toString('base64')
    if (Array.isArray(value)) return value.map((item) => encode(item, base64))
    return value
  }

  const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error))

  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }

  const send = (response: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body)
    response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) })
    response.end(text)
  }

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'POST') return send(response, 405, { error: 'ERR only POST is supported by this bridge' })
    if (request.headers.authorization !== `Bearer ${token}`) return send(response, 401, { error: 'Unauthorized' })
    const base64 = String(request.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64'
    let body: unknown
    try {
      body = JSON.parse(await readBody(request))
    } catch {
      return send(response, 400, { error: 'ERR failed to parse command' })
    }
    const path = (request.url ?? '/').split('?')[0] ?? '/'
    requests[path] = (requests[path] ?? 0) + 1
    if (path === '/' || path === '') {
      if (!Array.isArray(body) || body.length === 0) return send(response, 400, { error: 'ERR failed to parse command' })
      const [name, args] = prepare(body as Command)
      try {
        return send(response, 200, { result: encode(await redis.callBuffer(name, ...args), base64) })
      } catch (error) {
        return send(response, 400, { error: errorText(error) })
      }
    }
    if (path === '/pipeline' || path === '/multi-exec') {
      if (!Array.isArray(body) || !body.every((command) => Array.isArray(command) && command.length > 0)) {
        return send(response, 400, { error: 'ERR failed to parse pipeline request' })
      }
      const batch = path === '/multi-exec' ? redis.multi() : redis.pipeline()
      for (const command of body as Command[]) {
        const [name, args] = prepare(command)
        batch.callBuffer(name, ...args)
      }
      try {
        const results = (await batch.exec()) ?? []
        return send(
          response,
          200,
          results.map(([error, result]) => (error ? { error: errorText(error) } : { result: encode(result, base64) })),
        )
      } catch (error) {
        return send(response, 500, { error: errorText(error) })
      }
    }
    return send(response, 404, { error: `ERR unknown endpoint ${path}` })
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (!response.headersSent) send(response, 500, { error: errorText(error) })
      else response.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    commandCounts: () => ({ ...counts }),
    requestCounts: () => ({ ...requests }),
    resetCounts: () => {
      for (const key of Object.keys(counts)) delete counts[key]
      for (const key of Object.keys(requests)) delete requests[key]
    },
    stop: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      redis.disconnect()
    },
  }
}
