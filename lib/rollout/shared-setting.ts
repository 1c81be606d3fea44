/**
 * The platform rollout setting of `public_agent_access`, shared by every instance: one Upstash Redis key
 * holding `true` or `false` (absent: the instances use `PUBLIC_AGENT_ACCESS`), plus a capped list of the
 * transitions made with `npm run rollout`.
 */
import type { Redis } from '@upstash/redis'
import { PUBLIC_AGENT_ACCESS_FLAG_KEY } from '../contract/constants.ts'

export function rolloutSettingKey(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}:rollout:${PUBLIC_AGENT_ACCESS_FLAG_KEY}`
}

function rolloutHistoryKey(redisKeyPrefix: string): string {
  return `${rolloutSettingKey(redisKeyPrefix)}:history`
}

const ROLLOUT_HISTORY_LENGTH = 100

/** `true`/`false` (as stored) → the value; anything else (absent, unreadable) → `null`. */
function parseSettingValue(raw: unknown): boolean | null {
  if (raw === true || raw === 'true') return true
  if (raw === false || raw === 'false') return false
  return null
}

export async function readSharedSetting(redis: Redis, redisKeyPrefix: string): Promise<boolean | null> {
  return parseSettingValue(await redis.get(rolloutSettingKey(redisKeyPrefix)))
}

export interface RolloutTransition {
  flag: string
  from: boolean | null
  to: boolean
  at: string
  by: string
}

/** Sets the shared value and, when it changed, records the transition; returns it (with the previous value). */
export async function writeSharedSetting(redis: Redis, redisKeyPrefix: string, enabled: boolean, by: string): Promise<RolloutTransition> {
  const key = rolloutSettingKey(redisKeyPrefix)
  const previous = await redis.set(key, String(enabled), { get: true })
  const transition: RolloutTransition = {
    flag: PUBLIC_AGENT_ACCESS_FLAG_KEY,
    from: parseSettingValue(previous),
    to: enabled,
    at: new Date().toISOString(),
    by,
  }
  if (transition.from === enabled) return transition
  const historyKey = rolloutHistoryKey(redisKeyPrefix)
  await redis.lpush(historyKey, JSON.stringify(transition))
  await redis.ltrim(historyKey, 0, ROLLOUT_HISTORY_LENGTH - 1)
  return transition
}

export async function readHistory(redis: Redis, redisKeyPrefix: string, count: number): Promise<RolloutTransition[]> {
  const entries = await redis.lrange(rolloutHistoryKey(redisKeyPrefix), 0, count - 1)
  const transitions: RolloutTransition[] = []
  for (const entry of entries) {
    try {
      transitions.push(typeof entry === 'string' ? JSON.parse(entry) : (entry as RolloutTransition))
    } catch {
      // A foreign entry is skipped, not fatal.
    }
  }
  return transitions
}
