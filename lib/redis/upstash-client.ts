/**
 * The Upstash Redis REST client the site uses for quotas and the rollout setting: one attempt per
 * command (no retry loop) and a hard per-request deadline that aborts the HTTP call, so a slow or
 * unreachable Redis costs at most `timeoutMs` and then throws.
 */
import { Redis } from '@upstash/redis'

export interface UpstashClientOptions {
  url: string
  token: string
  /** Abort each REST call after this many milliseconds. */
  timeoutMs: number
}

export function createUpstashRedis(options: UpstashClientOptions): Redis {
  return new Redis({
    url: options.url,
    token: options.token,
    // `retry: false` still makes two attempts in @upstash/redis 1.39; zero retries is one.
    retry: { retries: 0 },
    // A function: a fresh deadline per request, and an aborted request throws instead of resolving.
    signal: () => AbortSignal.timeout(options.timeoutMs),
    enableTelemetry: false,
    automaticDeserialization: false,
  })
}
