/**
 * `npm start`: serves the built site on HOST:PORT (default 127.0.0.1:3000) with Next's request handler.
 * A custom server rather than `next start`, because only here is the TCP peer address known: the
 * client identity used for quotas is derived from the socket (lib/client-address.ts), and the
 * deployment-wide `X-Robots-Tag` of preview deployments is set at run time.
 */
import { createServer } from 'node:http'
import next from 'next'
import {
  CLIENT_ADDRESS_HEADER,
  createClientAddressResolver,
  FORWARDED_FOR_HEADER,
  markClientAddressResolvedByServer,
} from '../lib/client-address.ts'
import { getConfig } from '../lib/env.ts'
import { loadContent } from '../lib/content/load.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
const config = getConfig()
// Fail fast, with the file and field, when a content edit is wrong.
loadContent()

// Client identity (lib/client-address.ts): the TCP peer, or what a TRUST_PROXY peer forwarded. Whatever
// the client sent in X-Forwarded-For / X-Real-IP is overwritten, so handlers can trust X-Real-IP.
const resolveClientAddress = createClientAddressResolver(config.trustProxy)
markClientAddressResolvedByServer()

const app = next({ dev: false, hostname: config.host, port: config.port })
const handle = app.getRequestHandler()
await app.prepare()

const server = createServer((request, response) => {
  const clientAddress = resolveClientAddress(request.socket.remoteAddress, request.headers[FORWARDED_FOR_HEADER])
  request.headers[FORWARDED_FOR_HEADER] = clientAddress
  request.headers[CLIENT_ADDRESS_HEADER] = clientAddress
  if (config.noindex) response.setHeader('X-Robots-Tag', 'noindex')
  void handle(request, response)
})
server.keepAliveTimeout = 65_000
server.listen(config.port, config.host, () => {
  console.log(`Cadence site ready on http://${config.host}:${config.port} (base URL ${config.baseUrl})`)
})

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close()
    server.closeAllConnections()
    process.exit(0)
  })
}
