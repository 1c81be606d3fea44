/**
 * `npm start`: serves the built site on HOST:PORT (default 127.0.0.1:3000) with Next's request handler.
 * A custom server rather than `next start`, because only here is the TCP peer address known: the
 * client identity used for quotas is derived from the socket (lib/client-address.ts), and the
 * deployment-wide `X-Robots-Tag` of preview deployments is set at run time.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import next from 'next'
import { getConfig } from '../lib/env.ts'
import { loadContent } from '../lib/content/load.ts'
import { handleAgentRestRequest } from '../lib/agent/rest.ts'
import { API_BASE_PATH } from '../lib/contract/constants.ts'
import { toWebRequest, writeWebResponse } from '../lib/http/node-adapter.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
const config = getConfig()
// Fail fast, with the file and field, when a content edit is wrong.
loadContent()

const app = next({ dev: false, hostname: config.host, port: config.port })
const handle = app.getRequestHandler()
await app.prepare()

const server = createServer((request, response) => {
  if (config.noindex) response.setHeader('X-Robots-Tag', 'noindex')
  request.url = toOriginForm(request.url)
  const path = request.url.split('?')[0] ?? '/'
  if (!isDecodable(path) || (path.includes('//') && isAgentApiPath(path))) {
    // Next answers a malformed percent-encoding in a dynamic segment with a 500, and redirects
    // repeated slashes: under the agent API both are just paths that are not operations.
    void answerMalformedPath(request, response, path)
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

function isAgentApiPath(path: string): boolean {
  return path === API_BASE_PATH || path.startsWith(`${API_BASE_PATH}/`)
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}

async function answerMalformedPath(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
  if (isAgentApiPath(path)) {
    request.resume()
    await writeWebResponse(await handleAgentRestRequest(toWebRequest(request, config.baseUrl, null)), response)
    return
  }
  response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request: malformed percent-encoding in the path.\n')
}
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
