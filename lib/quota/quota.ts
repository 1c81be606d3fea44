/**
 * The quota of this process: one token bucket per client (lib/net/ip-address.ts `quotaBucketKey`),
 * kept in Upstash Redis when configured (with the in-process store as its stand-in during outages),
 * else in process. `consume` returns synchronously in embedded mode.
 */
import { getConfig } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'
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

export function getQuota(): Quota {
  return processSingleton('quota', createQuota)
}

function createQuota(): Quota {
  const config = getConfig()
  const redis = getSharedRedis()
  const local = new MemoryQuotaStore()
  if (!redis) return { store: 'memory', consume: (key) => local.consume(key, Date.now()) }
  const shared = new UpstashQuotaStore(redis, { prefix: quotaKeyPrefix(config.redisKeyPrefix), timeoutMs: config.redisTimeoutMs })
  const failover = new FailoverQuotaStore(shared, local)
  return { store: 'upstash', consume: (key) => failover.consume(key) }
}
