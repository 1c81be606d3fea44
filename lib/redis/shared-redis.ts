/**
 * The process's one Upstash Redis client, built from `UPSTASH_REDIS_REST_URL`/`_TOKEN` (or Vercel's
 * `KV_REST_API_URL`/`_TOKEN`); `null` when neither is configured (embedded mode).
 */
import type { Redis } from '@upstash/redis'
import { getConfig } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'
import { createUpstashRedis } from './upstash-client.ts'

export function getSharedRedis(): Redis | null {
  return processSingleton('upstash-redis', () => {
    const { upstash, redisTimeoutMs } = getConfig()
    return { client: upstash ? createUpstashRedis({ url: upstash.url, token: upstash.token, timeoutMs: redisTimeoutMs }) : null }
  }).client
}
