/**
 * `npm start`: serves the built site on HOST:PORT (default 127.0.0.1:3000). A custom server rather
 * than `next start`, because only here is the TCP peer address known (the client identity used for
 * quotas, lib/client-address.ts), the `X-Robots-Tag` of preview deployments is set at run time, and
 * the agent surface is answered without Next's request pipeline (lib/server/direct-routes.ts).
 */
import next from 'next'
import {
  createClientAddressResolver,
  FORWARDED_FOR_HEADER,
  markClientAddressResolvedByServer,
  overwriteClientAddressHeaders,
} from '../lib/client-address.ts'
import { checkContentOrExit } from '../lib/content/check.ts'
import { loadSettingsOrExit } from '../lib/env-files.ts'
import { serveWithWebHandler } from '../lib/http/node-adapter.ts'
import { MCP_MAX_BODY_BYTES } from '../lib/mcp/protocol.ts'
import { isAgentApiPath, matchDirectRoute } from '../lib/server/direct-routes.ts'
import { createSiteServer } from '../lib/server/server-options.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
// `.env` files are read as Next reads them, before the settings are parsed; a wrong setting or a wrong
// content edit stops here with the variable, or the file, line and field, and no stack trace.
const config = loadSettingsOrExit()
checkContentOrExit('start')

// Client identity (lib/client-address.ts): the TCP peer, or what a TRUST_PROXY peer forwarded. Whatever
// the client sent in X-Forwarded-For / X-Real-IP is overwritten, so handlers can trust X-Real-IP.
const resolveClientAddress = createClientAddressResolver(config.trustProxy)
markClientAddressResolvedByServer()

const app = next({ dev: false, hostname: config.host, port: config.port })
const handle = app.getRequestHandler()
await app.prepare()

// Slow or stalled clients are cut off; Upgrade requests are answered as HTTP/1.1 (lib/server/server-options.ts).
const server = createSiteServer((request, response) => {
  overwriteClientAddressHeaders(request, resolveClientAddress(request.socket.remoteAddress, request.headers[FORWARDED_FOR_HEADER]))
  if (config.noindex) response.setHeader('X-Robots-Tag', 'noindex')
  request.url = toOriginForm(request.url)
  const path = request.url.split('?')[0] ?? '/'
  if (!isDecodable(path) && !isAgentApiPath(path)) {
    // Next answers a malformed percent-encoding in a dynamic segment with a 500.
    request.resume()
    response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request: malformed percent-encoding in the path.\n')
    return
  }
  // The agent API, MCP, discovery documents and the homepage are answered by the same handlers as
  // their app/ routes, without Next's request pipeline (issue 5: most of the time went there).
  const direct = matchDirectRoute(path, request.method ?? 'GET')
  if (direct) {
    void serveWithWebHandler(direct, request, response, config.baseUrl, MCP_MAX_BODY_BYTES)
    return
  }
  void handle(request, response)
})

/** RFC 9112 §3.2.2: a server must accept an absolute-form target; Next expects origin-form. */
function toOriginForm(target: string | undefined): string {
  if (!target) return '/'
  if (target.startsWith('/')) return target
  try {
    const url = new URL(target)
    return `${url.pathname}${url.search}`
  } catch {
    return '/'
  }
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}

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
