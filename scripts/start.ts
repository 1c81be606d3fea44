/**
 * `npm start`: serves the built site on HOST:PORT (default 127.0.0.1:3000). A custom server rather
 * than `next start`, because only here is the TCP peer address known (the client identity used for
 * quotas, lib/client-address.ts), and because it can serve the build the way Vercel's CDN does:
 * prerendered pages, twins and documents from memory (lib/server/static-output.ts), the agent API
 * and MCP with their handlers (lib/server/direct-routes.ts), and only the rest through Next; the
 * router (lib/server/router.ts) decides which.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import next from 'next'
import type { NextConfig } from 'next'
import { describeBuildMismatch, buildRecordOf, readBuildRecord } from '../lib/build-record.ts'
import { createClientAddressResolver, markAddressesFromSocket } from '../lib/client-address.ts'
import { checkContentOrExit } from '../lib/content/check.ts'
import { loadSettingsOrExit } from '../lib/env-files.ts'
import { BodyBudget } from '../lib/http/body-budget.ts'
import { siteWideHeaders } from '../lib/http/security-headers.ts'
import { createRequestListener } from '../lib/server/request-listener.ts'
import { createRouter } from '../lib/server/router.ts'
import { BODY_BUDGET, createSiteServer } from '../lib/server/server-options.ts'
import { StaticOutput } from '../lib/server/static-output.ts'
import { startLeadDeliveryTimer } from '../lib/leads/delivery.ts'
import { leadDeliveryTelemetry } from '../lib/telemetry/observe.ts'
import { getSite } from '../lib/site.ts'
import { register as registerInstrumentation } from '../instrumentation.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
// `.env` files are read as Next reads them, before the settings are parsed; a wrong setting or a wrong
// content edit stops here with the variable, or the file, line and field, and no stack trace.
const config = loadSettingsOrExit()
checkContentOrExit('start')
// The registration Next runs from instrumentation.ts, before any request is served; client addresses
// come from the socket here, so it has nothing to warn of.
markAddressesFromSocket()
await registerInstrumentation()

const distDir = path.join(process.cwd(), '.next')
const built = readBuildRecord(distDir)
if (!built) fail('No build found in .next: run npm run build first.')
const mismatch = describeBuildMismatch(built, buildRecordOf(getSite()))
if (mismatch) fail(mismatch)

// The configuration the build resolved, handed to Next as its own standalone server.js hands it
// (.next/required-server-files.json, through the variable that server sets): next.config.ts is not
// compiled and run again (it reads content/) at every start. Nor does Next load every route at
// start: it answers only what the router leaves to it (lib/server/router.ts).
const { config: builtConfig } = JSON.parse(readFileSync(path.join(distDir, 'required-server-files.json'), 'utf8')) as { config: NextConfig }
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify({
  ...builtConfig,
  experimental: { ...builtConfig.experimental, preloadEntriesOnStart: false },
})
const app = next({ dev: false, hostname: config.host, port: config.port })
await app.prepare()

const siteWide = siteWideHeaders(config)
// Slow or stalled clients are cut off; Upgrade requests are answered as HTTP/1.1 (lib/server/server-options.ts).
const server = createSiteServer(
  createRequestListener({
    router: createRouter({
      // Pages, twins and documents with the headers and rewrites the build states (its routes manifest).
      staticOutput: StaticOutput.load(distDir),
      siteWideHeaders: siteWide,
      // The TCP peer, or what a TRUST_PROXY peer forwarded; never what the client itself sent.
      resolveClientAddress: createClientAddressResolver(config.trustProxy),
    }),
    next: app.getRequestHandler(),
    origin: config.baseUrl,
    siteWideHeaders: siteWide,
    bodyBudget: new BodyBudget(BODY_BUDGET.limitBytes, BODY_BUDGET.freeBytesPerBody),
    // Answers are written to the socket here as they are, not by Next: they go compressed.
    compressAnswers: true,
  }),
)

function fail(message: string): never {
  console.error(`npm start: ${message}`)
  process.exit(1)
}

server.listen(config.port, config.host, () => {
  console.log(`Cadence site ready on http://${config.host}:${config.port} (base URL ${config.baseUrl})`)
})
// Leads the contact form stored and no destination has accepted yet (lib/leads/delivery.ts).
const stopLeadDelivery = startLeadDeliveryTimer(config, leadDeliveryTelemetry)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopLeadDelivery()
    server.close()
    server.closeAllConnections()
    process.exit(0)
  })
}
