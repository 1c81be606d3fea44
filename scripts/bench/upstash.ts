/**
 * The Upstash mode of the benchmark: Debian's redis-server on a free loopback port with the local
 * Upstash REST bridge in front of it, exactly as the quota tests run it.
 */
import { startRedis } from '../../harness/redis.ts'
import { processCpuMs } from '../../harness/proc-stats.ts'
import { startUpstashBridge } from '../../harness/upstash-bridge.ts'

export interface UpstashStack {
  env: Record<string, string>
  /** CPU milliseconds used so far by the stand-in for Upstash: the bridge (this process) and redis-server. */
  cpuMs: () => number
  stop: () => Promise<void>
}

export async function startUpstashStack(): Promise<UpstashStack> {
  const redis = await startRedis()
  const bridge = await startUpstashBridge({ redisPort: redis.port })
  return {
    env: { UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: bridge.token },
    cpuMs: () => {
      const own = process.cpuUsage()
      return (own.user + own.system) / 1000 + (redis.pid() ? processCpuMs(redis.pid() as number) : 0)
    },
    stop: async () => {
      await bridge.stop()
      await redis.dispose()
    },
  }
}
