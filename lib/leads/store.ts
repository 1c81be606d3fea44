/**
 * The lead store: what the contact form saves to, what delivery and `npm run leads` read. One decision,
 * made from the settings (lib/env.ts `config.leads.store`): Upstash Redis when configured, so every
 * `npm start` instance and every Vercel function share the leads; else an SQLite file beside the site;
 * on Vercel without Upstash no store at all (`null`), and the form is not offered.
 */
import type { SiteConfig } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'
import { createUpstashRedis } from '../redis/upstash-client.ts'
import type { LeadStore, NewLead, SavedLead } from './lead.ts'
import { DESTINATIONS, type Destination, type LeadArchive } from './lead-archive.ts'
import { openSqliteLeadArchive } from './store-sqlite.ts'
import { UpstashLeadArchive } from './store-upstash.ts'

/** Deadline of one Upstash call of the lead store: longer than the quota's, since a lead cannot fail open. */
export const LEAD_STORE_UPSTASH_TIMEOUT_MS = 5_000

/** Which store the settings name, decided without opening anything (the build decides whether to show the form). */
export function leadStoreKind(config: SiteConfig): 'sqlite' | 'upstash' | null {
  return config.leads.store?.kind ?? null
}

/**
 * The build's warning when there is no durable store (Vercel without Upstash): the contact form is not
 * offered rather than thanking visitors for messages that would be lost with the function instance.
 */
export function noLeadStoreWarning(config: SiteConfig): string | undefined {
  if (config.leads.store) return undefined
  return (
    '[leads] Warning: Vercel without Upstash Redis (UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN, or KV_REST_API_URL ' +
    "and KV_REST_API_TOKEN): leads have no durable store — a function's disk does not last — so /contact offers no " +
    'contact form. Add an Upstash Redis integration to receive leads.'
  )
}

/** The destinations configured in the settings. */
export function configuredDestinations(config: SiteConfig): Destination[] {
  return DESTINATIONS.filter((destination) => (destination === 'webhook' ? config.leads.webhook : config.leads.slackWebhookUrl) !== null)
}

/** The process's lead store for these settings, opened on first use; null without a durable store. */
export function leadStoreFor(config: SiteConfig): LeadArchive | null {
  const setting = config.leads.store
  if (!setting) return null
  const destinations = configuredDestinations(config)
  if (setting.kind === 'sqlite') {
    return processSingleton(`lead-store:sqlite:${setting.path}:${destinations.join(',')}`, () => openSqliteLeadArchive(setting.path, destinations))
  }
  const { upstash, redisKeyPrefix } = config
  if (!upstash) return null
  return processSingleton(
    `lead-store:upstash:${upstash.url}:${redisKeyPrefix}:${destinations.join(',')}`,
    () =>
      new UpstashLeadArchive(createUpstashRedis({ url: upstash.url, token: upstash.token, timeoutMs: LEAD_STORE_UPSTASH_TIMEOUT_MS }), {
        prefix: `${redisKeyPrefix}:leads`,
        destinations,
      }),
  )
}

/** Opens a store of its own (the CLI, tests): the caller closes it. */
export function openLeadStore(config: SiteConfig, options: { upstashTimeoutMs?: number } = {}): LeadArchive | null {
  const setting = config.leads.store
  if (!setting) return null
  const destinations = configuredDestinations(config)
  if (setting.kind === 'sqlite') return openSqliteLeadArchive(setting.path, destinations)
  if (!config.upstash) return null
  const redis = createUpstashRedis({
    url: config.upstash.url,
    token: config.upstash.token,
    timeoutMs: options.upstashTimeoutMs ?? LEAD_STORE_UPSTASH_TIMEOUT_MS,
  })
  return new UpstashLeadArchive(redis, { prefix: `${config.redisKeyPrefix}:leads`, destinations })
}

export type { LeadStore, NewLead, SavedLead }
export type { LeadArchive, StoredLead, DeliveryState, Destination } from './lead-archive.ts'
