/**
 * The quota of this process: one token bucket per client (lib/net/ip-address.ts `quotaBucketKey`),
 * kept in Upstash Redis when configured (with the in-process store as its stand-in during outages),
 * else in process. `consume` returns synchronously in embedded mode.
 */
import { getConfig, type SiteConfig } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'
import { getSharedRedis } from '../redis/shared-redis.ts'
import { FailoverQuotaStore } from './failover-store.ts'
import { MemoryQuotaStore } from './memory-store.ts'
import { BUCKET, type QuotaDecision } from './token-bucket.ts'

export type QuotaStoreUsed = 'in-process' | 'upstash' | 'failed-over'

export interface Quota {
  readonly store: 'memory' | 'upstash'
  consume(key: string): QuotaDecision | Promise<QuotaDecision>
  /** The store that answers now: right after a consume, the one that answered it. */
  storeInUse(): QuotaStoreUsed
}

/**
 * What the quota lets an observer see of the shared store: each Upstash call (to trace it) and each
 * switch to the in-process stand-in (to count it). The quota knows no telemetry: the composition root
 * (lib/agent-routes.ts) installs telemetry's observer before any request is admitted.
 */
export interface QuotaObserver {
  upstashCall<T>(operation: string, call: () => Promise<T>): Promise<T>
  failover(): void
}

let observer: QuotaObserver = { upstashCall: (_operation, call) => call(), failover: () => {} }

export function observeQuota(next: QuotaObserver): void {
  observer = next
}

function quotaKeyPrefix(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}:quota`
}

export function getQuota(): Quota {
  return processSingleton('quota', createQuota)
}

/**
 * Vercel production runs many function instances at once; without Upstash each keeps its own buckets,
 * so the published quota holds per instance only. Logged by the build (prebuild) and on first use.
 */
export function perInstanceQuotaWarning(config: SiteConfig): string | undefined {
  if (!config.onVercel || config.deployment !== 'production' || config.upstash) return undefined
  return (
    `[quota] Warning: Vercel production without Upstash Redis (UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN, ` +
    `or KV_REST_API_URL and KV_REST_API_TOKEN): the quota is per instance — every function instance keeps its own ` +
    `buckets, so a client may get ${BUCKET.capacity} requests at once from each instance. Add an Upstash Redis ` +
    `integration for one shared quota.`
  )
}

function createQuota(): Quota {
  const config = getConfig()
  const warning = perInstanceQuotaWarning(config)
  if (warning) console.warn(warning)
  const redis = getSharedRedis()
  const local = new MemoryQuotaStore()
  if (!redis) return { store: 'memory', consume: (key) => local.consume(key, Date.now()), storeInUse: () => 'in-process' }
  // The rate-limit library is loaded with the client, only when Upstash is configured (lib/on-demand.ts).
  const upstash = Promise.all([redis, import('./upstash-store.ts')]).then(
    ([client, { UpstashQuotaStore }]) =>
      new UpstashQuotaStore(client, { prefix: quotaKeyPrefix(config.redisKeyPrefix), timeoutMs: config.redisTimeoutMs }),
  )
  const shared = { consume: (key: string) => observer.upstashCall('ratelimit', async () => (await upstash).consume(key)) }
  const failover = new FailoverQuotaStore(shared, local, { onFailover: () => observer.failover() })
  return { store: 'upstash', consume: (key) => failover.consume(key), storeInUse: () => (failover.mode === 'shared' ? 'upstash' : 'failed-over') }
}
