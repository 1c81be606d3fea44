/**
 * The Upstash mode of the benchmark: Debian's redis-server on a free loopback port with the local
 * Upstash REST bridge in front of it, exactly as the quota tests run it.
 */
import { startRedis } from '../../tests/support/redis.ts'
import { startUpstashBridge } from '../../tests/support/upstash-bridge.ts'

export async function startUpstashStack(): Promise<{ env: Record<string, string>; stop: () => Promise<void> }> {
  const redis = await startRedis()
  const bridge = await startUpstashBridge({ redisPort: redis.port })
  return {
    env: { UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: bridge.token },
    stop: async () => {
      await bridge.stop()
      await redis.dispose()
    },
  }
}
