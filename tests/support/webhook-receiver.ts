/**
 * A loopback receiver for lead deliveries (a CRM's webhook endpoint and a Slack incoming webhook in
 * one server), whose behaviour a test switches: `down` (nothing listens: connection refused), `hang`
 * (reads the request, never answers), `error` (503), `slow` (answers 200 after `slowMs`), `up` (200).
 * It keeps every request it answered with 200 — what it accepted — and counts the others; it also keeps
 * every request it received whole, whatever became of it (to tell a repeat from a first send).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

type ReceiverMode = 'down' | 'hang' | 'error' | 'slow' | 'up'

interface ReceivedRequest {
  path: string
  headers: Record<string, string>
  body: string
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  origin: string
  setMode: (mode: ReceiverMode) => Promise<void>
  accepted: () => ReceivedRequest[]
  /** Every request received whole, accepted or not, in order of arrival. */
  received: () => ReceivedRequest[]
  /** Requests that got no 200 (503, or hung up on), by mode. */
  refused: () => Record<string, number>
  stop: () => Promise<void>
}

export async function startWebhookReceiver(options: { slowMs?: number; port?: number } = {}): Promise<WebhookReceiver> {
  let mode: ReceiverMode = 'up'
  const accepted: ReceivedRequest[] = []
  const received: ReceivedRequest[] = []
  const refused: Record<string, number> = {}
  const sockets = new Set<Socket>()
  /** Connections of requests left unanswered: dropped when the mode changes. */
  const hung = new Set<Socket>()
  let port = options.port ?? 0
  let server: Server | null = null

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const current = mode
      const arrived: ReceivedRequest = {
        path: request.url ?? '/',
        headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
        body: Buffer.concat(chunks).toString('utf8'),
      }
      received.push(arrived)
      if (current === 'hang') {
        refused.hang = (refused.hang ?? 0) + 1
        hung.add(request.socket)
        return
      }
      if (current === 'error') {
        refused.error = (refused.error ?? 0) + 1
        response.writeHead(503, { 'Content-Type': 'text/plain' }).end('unavailable')
        return
      }
      const accept = () => {
        // A client that gave up before the answer did not get it delivered.
        if (response.destroyed || request.socket.destroyed) {
          refused.abandoned = (refused.abandoned ?? 0) + 1
          return
        }
        accepted.push(arrived)
        response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok')
      }
      if (current === 'slow') setTimeout(accept, options.slowMs ?? 200)
      else accept()
    })
  }

  const listen = async () => {
    const next = createServer(handle)
    next.on('connection', (socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })
    await new Promise<void>((resolve) => next.listen(port, '127.0.0.1', resolve))
    const address = next.address()
    port = typeof address === 'object' && address ? address.port : port
    server = next
  }

  const close = async () => {
    const current = server
    server = null
    if (!current) return
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => current.close(() => resolve()))
  }

  await listen()
  return {
    origin: `http://127.0.0.1:${port}`,
    setMode: async (next) => {
      if (next === 'down') await close()
      else if (!server) await listen()
      for (const socket of hung) socket.destroy()
      hung.clear()
      mode = next
    },
    accepted: () => [...accepted],
    received: () => [...received],
    refused: () => ({ ...refused }),
    stop: close,
  }
}
