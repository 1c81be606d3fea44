/**
 * The lead store: what the contact form saves to, what delivery and `npm run leads` read. One decision,
 * made from the settings (lib/env.ts `config.leads.store`): Upstash Redis when configured, so every
 * `npm start` instance and every Vercel function share the leads; else an SQLite file beside the site;
 * on Vercel without Upstash no store at all (`null`), and the form is not offered. The Upstash client
 * library is loaded only when Upstash is configured (lib/on-demand.ts).
 */
import type { SiteConfig } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'
import { DESTINATIONS, type Destination, type LeadArchive } from './lead-archive.ts'
import { openSqliteLeadArchive } from './store-sqlite.ts'
import { UpstashLeadArchive } from './store-upstash.ts'

/** Deadline of one Upstash call of the lead store: longer than the quota's, since a lead cannot fail open. */
const LEAD_STORE_UPSTASH_TIMEOUT_MS = 5_000

/**
 * The build's warnings about leads on Vercel: without Upstash there is no durable store (a function's
 * disk does not last), so the contact form is not offered rather than thanking visitors for messages
 * that would be lost; without CRON_SECRET the daily cron run that retries deliveries and purges old
 * leads is refused.
 */
export function leadDeploymentWarnings(config: SiteConfig): string[] {
  if (!config.onVercel) return []
  if (!config.leads.store) {
    return [
      '[leads] Warning: Vercel without Upstash Redis (UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN, or KV_REST_API_URL ' +
        "and KV_REST_API_TOKEN): leads have no durable store — a function's disk does not last — so /contact offers no " +
        'contact form. Add an Upstash Redis integration to receive leads.',
    ]
  }
  if (!config.cronSecret) {
    return [
      '[leads] Warning: CRON_SECRET is unset, so Vercel Cron cannot run /api/cron/deliver-leads (it answers 401): deliveries ' +
        'that failed are retried only when another lead arrives, and leads older than LEADS_RETENTION_DAYS are not purged. ' +
        'Set CRON_SECRET to a random string of 16+ characters.',
    ]
  }
  return []
}

/** The destinations configured in the settings. */
export function configuredDestinations(config: SiteConfig): Destination[] {
  return DESTINATIONS.filter((destination) => (destination === 'webhook' ? config.leads.webhook : config.leads.slackWebhookUrl) !== null)
}

/** The process's lead store for these settings, opened on first use; null without a durable store. */
export function leadStoreFor(config: SiteConfig): LeadArchive | null {
  const setting = config.leads.store
  if (!setting) return null
  const where = setting.kind === 'sqlite' ? setting.path : `${config.upstash?.url}:${config.redisKeyPrefix}`
  return processSingleton(`lead-store:${setting.kind}:${where}:${configuredDestinations(config).join(',')}`, () => openLeadStore(config))
}

/** Opens a store of its own (the CLI, tests): the caller closes it. */
export function openLeadStore(config: SiteConfig, options: { upstashTimeoutMs?: number } = {}): LeadArchive | null {
  const setting = config.leads.store
  if (!setting) return null
  const destinations = configuredDestinations(config)
  if (setting.kind === 'sqlite') return openSqliteLeadArchive(setting.path, destinations)
  const { upstash } = config
  if (!upstash) return null
  const client = import('../redis/upstash-client.ts').then(({ createUpstashRedis }) =>
    createUpstashRedis({ url: upstash.url, token: upstash.token, timeoutMs: options.upstashTimeoutMs ?? LEAD_STORE_UPSTASH_TIMEOUT_MS }),
  )
  return new UpstashLeadArchive(client, { prefix: `${config.redisKeyPrefix}:leads`, destinations })
}
