/**
 * The process's one Upstash Redis client, built from `UPSTASH_REDIS_REST_URL`/`_TOKEN` (or Vercel's
 * `KV_REST_API_URL`/`_TOKEN`); `null` when neither is configured (embedded mode). The client library
 * is loaded only when Upstash is configured (lib/on-demand.ts), so the client comes as a promise.
 */
import type { Redis } from '@upstash/redis'
import { getConfig } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'

export function getSharedRedis(): Promise<Redis> | null {
  return processSingleton('upstash-redis', () => {
    const { upstash, redisTimeoutMs } = getConfig()
    if (!upstash) return { client: null }
    const client = import('./upstash-client.ts').then(({ createUpstashRedis }) =>
      createUpstashRedis({ url: upstash.url, token: upstash.token, timeoutMs: redisTimeoutMs }),
    )
    return { client }
  }).client
}
