/**
 * How often one client may send the contact form: a handful per ten minutes, in a token bucket of
 * its own beside the agent API's quota (lib/quota: the same stores, another shape and key prefix),
 * keyed by the salted hash of the client's quota bucket (an IPv6 client's /64, lib/leads/submission.ts).
 * Shared through Upstash Redis when configured, falling back to the in-process store while it is
 * away; else in process, in a map of bounded size.
 */
import { getConfig } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'
import { FailoverQuotaStore } from '../quota/failover-store.ts'
import { MemoryQuotaStore } from '../quota/memory-store.ts'
import type { BucketShape, QuotaDecision } from '../quota/token-bucket.ts'
import { getSharedRedis } from '../redis/shared-redis.ts'

/** Five at once, then one more every two minutes: five per ten minutes for a person who keeps trying. */
const LEAD_FORM_BUCKET: BucketShape = Object.freeze({ capacity: 5, refillIntervalMs: 120_000, tokensPerRefill: 1 })

/** Ten thousand addresses at about 120 bytes each: a flood from many addresses stays near a megabyte. */
const MAX_LOCAL_BUCKETS = 10_000

export interface LeadFormLimit {
  consume(key: string): QuotaDecision | Promise<QuotaDecision>
}

export function getLeadFormLimit(): LeadFormLimit {
  return processSingleton('lead-form-limit', createLeadFormLimit)
}

function createLeadFormLimit(): LeadFormLimit {
  const config = getConfig()
  const local = new MemoryQuotaStore(MAX_LOCAL_BUCKETS, LEAD_FORM_BUCKET)
  const redis = getSharedRedis()
  if (!redis) return { consume: (key) => local.consume(key, Date.now()) }
  // The rate-limit library is loaded with the client, only when Upstash is configured (lib/on-demand.ts).
  const upstash = Promise.all([redis, import('../quota/upstash-store.ts')]).then(
    ([client, { UpstashQuotaStore }]) =>
      new UpstashQuotaStore(client, { prefix: `${config.redisKeyPrefix}:lead-form`, timeoutMs: config.redisTimeoutMs, bucket: LEAD_FORM_BUCKET }),
  )
  const failover = new FailoverQuotaStore({ consume: async (key) => (await upstash).consume(key) }, local)
  return { consume: (key) => failover.consume(key) }
}

/** Whole seconds until the bucket has a token again (at least one). */
export function retryAfterSeconds(decision: QuotaDecision, now: number): number {
  return Math.max(1, Math.ceil((decision.resetAt - now) / 1000))
}
