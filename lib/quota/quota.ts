/**
 * The quota of this process: one token bucket per client (lib/net/ip-address.ts `quotaBucketKey`),
 * kept in Upstash Redis when configured (with the in-process store as its stand-in during outages),
 * else in process. `consume` returns synchronously in embedded mode.
 */
import { getConfig } from '../env.ts'
import { getSharedRedis } from '../redis/shared-redis.ts'
import { FailoverQuotaStore } from './failover-store.ts'
import { MemoryQuotaStore } from './memory-store.ts'
import type { QuotaDecision } from './token-bucket.ts'
import { UpstashQuotaStore } from './upstash-store.ts'

export interface Quota {
  readonly store: 'memory' | 'upstash'
  consume(key: string): QuotaDecision | Promise<QuotaDecision>
}

export function quotaKeyPrefix(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}:quota`
}

let quota: Quota | undefined

export function getQuota(): Quota {
  if (quota) return quota
  const config = getConfig()
  const redis = getSharedRedis()
  const local = new MemoryQuotaStore()
  if (!redis) {
    quota = { store: 'memory', consume: (key) => local.consume(key, Date.now()) }
  } else {
    const shared = new UpstashQuotaStore(redis, { prefix: quotaKeyPrefix(config.redisKeyPrefix), timeoutMs: config.redisTimeoutMs })
    const failover = new FailoverQuotaStore(shared, local)
    quota = { store: 'upstash', consume: (key) => failover.consume(key) }
  }
  return quota
}
