/**
 * What a new instance loads only when a request needs it, and why. On Vercel every instance starts
 * cold, and its first request pays for every module it loads; these are loaded by the request that
 * uses them, once per process:
 *
 * - the MCP handler (the MCP SDK, zod and its schemas, the Ajv the SDK's Node entry imports): on the
 *   first request to /mcp. REST requests and the contact form never need it, so nothing they import
 *   imports the SDK (a request body is read by lib/http/agent-request.ts, not by the SDK's reader).
 *   It is this app's own module, above this layer: lib/agent-routes.ts imports it. It compiles no
 *   validator: tool results are taken as built (lib/mcp/server.ts).
 * - the Flags SDK (`flags`, with its JWE library): only where Vercel's request context takes flag
 *   values (on Vercel), to report the rollout flag's value as the SDK does.
 * - its Next.js adapter (`flags/next`): only for a Flags Explorer override cookie, with FLAGS_SECRET
 *   set, and for the Flags Explorer's discovery route.
 *
 * - the Upstash client and rate-limit library (`@upstash/redis`, `@upstash/ratelimit`): only when
 *   Upstash is configured, by the first request that reads the quota, the rollout setting, the lead
 *   store or the contact form's limit (lib/redis/shared-redis.ts, lib/quota/quota.ts,
 *   lib/leads/store.ts, lib/leads/form-limit.ts). Without Upstash no instance needs them.
 * - the Web Bot Auth verifier (lib/agent-signature/web-bot-auth.ts, with `structured-headers`): on the
 *   first request that carries a signature header (lib/signed-agents.ts); an unsigned request only
 *   looks the three headers up.
 * - OpenTelemetry's core (`@opentelemetry/core`, for `suppressTracing`): on the first lead delivery
 *   attempt (lib/telemetry/observe.ts), which runs untraced so no HTTP instrumentation sees its URL.
 * - the content parser (`yaml`, the frontmatter's zod schemas): only in a process that reads content/
 *   itself (tests, scripts, `next dev`); a production server loads the build's snapshot
 *   (lib/content/load.ts).
 *
 * zod is not loaded by the REST path at all: the settings are parsed without it (lib/env.ts), the
 * router reads the operation table, whose schemas sit apart (lib/contract/operation-schemas.ts), and
 * the catalog's bodies are built in their schemas' form and checked by the build, not at run time
 * (lib/agent/catalog.ts). Elsewhere: OpenTelemetry's SDK is imported only when an OTLP endpoint is set
 * (lib/telemetry/register.ts); a body is compressed on the first request that takes it compressed,
 * never at start-up (lib/http/compression.ts: the agent API's answers and npm start's prerendered output).
 */

const once = <T>(load: () => Promise<T>) => {
  let loaded: Promise<T> | undefined
  return () => {
    loaded ??= load()
    return loaded
  }
}

export const loadFlagsSdk = once(() => import('flags'))
export const loadFlagsNext = once(() => import('flags/next'))
export const loadOpenTelemetryCore = once(() => import('@opentelemetry/core'))
