/**
 * `npm start`: serves the built site on HOST:PORT (default 127.0.0.1:3000). A custom server rather
 * than `next start`, because only here is the TCP peer address known (the client identity used for
 * quotas, lib/client-address.ts), and because it can serve the build the way Vercel's CDN does:
 * prerendered pages, twins and documents from memory, the agent API and MCP with their handlers, and
 * only the rest through Next (lib/server/npm-start.ts).
 */
import path from 'node:path'
import next from 'next'
import { describeBuildMismatch, buildRecordOf, readBuildRecord } from '../lib/build-record.ts'
import { markAddressesFromSocket } from '../lib/client-address.ts'
import { checkContentOrExit } from '../lib/content/check.ts'
import { loadSettingsOrExit } from '../lib/env-files.ts'
import { startLeadDeliveryTimer } from '../lib/leads/delivery.ts'
import { createNpmStartServer } from '../lib/server/npm-start.ts'
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
const mismatch = built ? describeBuildMismatch(built, buildRecordOf(getSite())) : 'No build found in .next: run npm run build first.'
if (mismatch) {
  console.error(`npm start: ${mismatch}`)
  process.exit(1)
}

// Next answers only what the router leaves to it, and loads a route when it first answers one
// (next.config.ts: preloadEntriesOnStart off).
const app = next({ dev: false, hostname: config.host, port: config.port })
await app.prepare()
const server = createNpmStartServer(config, distDir, app.getRequestHandler())

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
