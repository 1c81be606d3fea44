/**
 * The server `npm start` runs (scripts/start.ts), put together from its parts: the router decides
 * what is answered from the build in memory, what by the agent API and MCP handlers, and what is left
 * to Next; the request listener applies the site-wide headers, the body budget and compression.
 */
import type { Server } from 'node:http'
import { createClientAddressResolver } from '../client-address.ts'
import type { SiteConfig } from '../env.ts'
import { BodyBudget } from '../http/body-budget.ts'
import { siteWideHeaders } from '../http/security-headers.ts'
import { createRequestListener, type RequestListenerOptions } from './request-listener.ts'
import { createRouter } from './router.ts'
import { BODY_BUDGET, createSiteServer } from './server-options.ts'
import { StaticOutput } from './static-output.ts'

/** The HTTP server for the build in `distDir`, handing Next (`nextHandler`) what only it answers. */
export function createNpmStartServer(config: SiteConfig, distDir: string, nextHandler: RequestListenerOptions['next']): Server {
  const siteWide = siteWideHeaders(config)
  // Slow or stalled clients are cut off; Upgrade requests are answered as HTTP/1.1 (server-options.ts).
  return createSiteServer(
    createRequestListener({
      router: createRouter({
        // Pages, twins and documents with the headers and rewrites the build states (its routes manifest).
        staticOutput: StaticOutput.load(distDir),
        siteWideHeaders: siteWide,
        // The TCP peer, or what a TRUST_PROXY peer forwarded; never what the client itself sent.
        resolveClientAddress: createClientAddressResolver(config.trustProxy),
      }),
      next: nextHandler,
      origin: config.baseUrl,
      siteWideHeaders: siteWide,
      bodyBudget: new BodyBudget(BODY_BUDGET.limitBytes, BODY_BUDGET.freeBytesPerBody),
      // Answers are written to the socket here as they are, not by Next: they go compressed.
      compressAnswers: true,
    }),
  )
}
