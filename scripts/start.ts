/**
 * `npm start`: serves the built site on HOST:PORT (default 127.0.0.1:3000). A custom server rather
 * than `next start`, because only here is the TCP peer address known (the client identity used for
 * quotas, lib/client-address.ts), and because it can serve the build the way Vercel's CDN does:
 * prerendered pages, twins and documents from memory (lib/server/static-output.ts), the agent API
 * and MCP with their handlers (lib/server/direct-routes.ts), and only the rest through Next.
 */
import type { ServerResponse } from 'node:http'
import path from 'node:path'
import next from 'next'
import { describeBuildMismatch, buildRecordOf, readBuildRecord } from '../lib/build-record.ts'
import {
  createClientAddressResolver,
  FORWARDED_FOR_HEADER,
  markClientAddressResolvedByServer,
  overwriteClientAddressHeaders,
} from '../lib/client-address.ts'
import { checkContentOrExit } from '../lib/content/check.ts'
import { loadSettingsOrExit } from '../lib/env-files.ts'
import { isCorsPreflight, STATIC_PREFLIGHT_ANSWER } from '../lib/http/cors.ts'
import { startLeadDeliveryTimer } from '../lib/leads/delivery.ts'
import { siteWideHeaders } from '../lib/http/security-headers.ts'
import { isFetchForbiddenMethod, serveWithHandler, writeAnswer } from '../lib/http/node-adapter.ts'
import { isAgentApiPath, matchDynamicRoute } from '../lib/server/direct-routes.ts'
import { BodyBudget } from '../lib/http/body-budget.ts'
import { compressAnswersHere } from '../lib/http/compression.ts'
import { BODY_BUDGET, createSiteServer } from '../lib/server/server-options.ts'
import { answerStatic, METHOD_NOT_ALLOWED, StaticOutput } from '../lib/server/static-output.ts'
import { getSite } from '../lib/site.ts'
import { register as registerInstrumentation } from '../instrumentation.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
// `.env` files are read as Next reads them, before the settings are parsed; a wrong setting or a wrong
// content edit stops here with the variable, or the file, line and field, and no stack trace.
const config = loadSettingsOrExit()
checkContentOrExit('start')
// The registration Next runs from instrumentation.ts, before any request is served.
await registerInstrumentation()
const site = getSite()

const distDir = path.join(process.cwd(), '.next')
const built = readBuildRecord(distDir)
if (!built) fail('No build found in .next: run npm run build first.')
const mismatch = describeBuildMismatch(built, buildRecordOf(site))
if (mismatch) fail(mismatch)
// Pages, twins and documents with the headers the build states for them (the routes manifest's rules).
const staticOutput = StaticOutput.load(distDir)

// Client identity (lib/client-address.ts): the TCP peer, or what a TRUST_PROXY peer forwarded. Whatever
// the client sent in X-Forwarded-For / X-Real-IP is overwritten, so handlers can trust X-Real-IP.
const resolveClientAddress = createClientAddressResolver(config.trustProxy)
markClientAddressResolvedByServer()

// The build's rules give prerendered answers these too; everything else gets them here, as Next's
// site-wide header rule gives them to every answer.
const siteWide = siteWideHeaders(config)
const addSiteWideHeaders = (response: ServerResponse) => {
  for (const [name, value] of siteWide) response.setHeader(name, value)
}
const bodyBudget = new BodyBudget(BODY_BUDGET.limitBytes, BODY_BUDGET.freeBytesPerBody)
// The agent API's answers are written here, not by Next: they go compressed (lib/http/compression.ts).
compressAnswersHere()

const app = next({ dev: false, hostname: config.host, port: config.port })
const handle = app.getRequestHandler()
await app.prepare()

// Slow or stalled clients are cut off; Upgrade requests are answered as HTTP/1.1 (lib/server/server-options.ts).
const server = createSiteServer((request, response) => {
  overwriteClientAddressHeaders(request, resolveClientAddress(request.socket.remoteAddress, request.headers[FORWARDED_FOR_HEADER]))
  request.url = toOriginForm(request.url)
  const query = request.url.indexOf('?')
  const pathname = query < 0 ? request.url : request.url.slice(0, query)
  if (!isDecodable(pathname) && !isAgentApiPath(pathname)) {
    // Next answers a malformed percent-encoding in a dynamic segment with a 500.
    request.resume()
    addSiteWideHeaders(response)
    response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request: malformed percent-encoding in the path.\n')
    return
  }
  const dynamic = matchDynamicRoute(pathname)
  if (dynamic) {
    const body = dynamic.maxBodyBytes === null ? null : { limitBytes: dynamic.maxBodyBytes, budget: bodyBudget }
    addSiteWideHeaders(response)
    void serveWithHandler(dynamic.handler, request, response, config.baseUrl, body)
    return
  }
  const method = request.method ?? 'GET'
  if (isCorsPreflight(method, { has: (name) => name in request.headers })) {
    request.resume()
    addSiteWideHeaders(response)
    writeAnswer(STATIC_PREFLIGHT_ANSWER, response)
    return
  }
  const entry = staticOutput.match(pathname, { headers: request.headers, search: query < 0 ? '' : request.url.slice(query) })
  // TRACE anywhere: Next's route handlers build a Fetch Request for it and fail with a 500.
  if (entry || isFetchForbiddenMethod(method)) {
    request.resume()
    const readable = method === 'GET' || method === 'HEAD'
    const answer =
      entry && !isFetchForbiddenMethod(method) && (readable || entry.status === 404)
        ? answerStatic(entry, method === 'HEAD' ? 'HEAD' : 'GET', headerValue(request.headers['if-none-match']), request.headers['accept-encoding'])
        : METHOD_NOT_ALLOWED
    // A prerendered answer carries the build's headers, the site-wide ones included.
    if (answer === METHOD_NOT_ALLOWED) addSiteWideHeaders(response)
    response.writeHead(answer.status, answer.headers.flat())
    response.end(answer.body)
    return
  }
  addSiteWideHeaders(response)
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

function isDecodable(value: string): boolean {
  try {
    decodeURIComponent(value)
    return true
  } catch {
    return false
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? value.join(', ') : (value ?? null)
}

function fail(message: string): never {
  console.error(`npm start: ${message}`)
  process.exit(1)
}

server.listen(config.port, config.host, () => {
  console.log(`Cadence site ready on http://${config.host}:${config.port} (base URL ${config.baseUrl})`)
})
// Leads still pending in the store (a killed process, a receiver that was down) are delivered in the background.
const stopLeadDelivery = startLeadDeliveryTimer(config)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopLeadDelivery()
    server.close()
    server.closeAllConnections()
    process.exit(0)
  })
}
