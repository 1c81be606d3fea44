/**
 * `public_agent_access` as a Flags SDK flag: its `decide` serves the rollout state held in memory
 * (shared setting, else `PUBLIC_AGENT_ACCESS`, else true), and the Flags Explorer may override it per
 * browser through the encrypted `vercel-flag-overrides` cookie. No cookie can make evaluation fail:
 * without a usable `FLAGS_SECRET` the cookie is never shown to the SDK, and any SDK error falls back.
 */
import { flag } from 'flags/next'
import { PUBLIC_AGENT_ACCESS_FLAG_KEY } from '../contract/constants.ts'
import { getConfig } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'
import { getSharedRedis } from '../redis/shared-redis.ts'
import { RolloutState } from './rollout-state.ts'
import { readSharedSetting } from './shared-setting.ts'

export const FLAG_OVERRIDE_COOKIE = 'vercel-flag-overrides'

export function getRolloutState(): RolloutState {
  return processSingleton('rollout-state', () => {
    const config = getConfig()
    const redis = getSharedRedis()
    return new RolloutState({
      fallback: config.publicAgentAccessDefault,
      read: redis ? () => readSharedSetting(redis, config.redisKeyPrefix) : undefined,
    })
  })
}

export const publicAgentAccessFlag = flag<boolean>({
  key: PUBLIC_AGENT_ACCESS_FLAG_KEY,
  description:
    'The public agent surface (REST under /api/agent/v1 and POST /mcp). Disabled: 503 public_agent_access_disabled with Retry-After; static documents stay readable.',
  options: [
    { value: true, label: 'Enabled' },
    { value: false, label: 'Disabled' },
  ],
  decide: () => getRolloutState().value,
})

let loggedFailure = false

/**
 * Whether the public agent surface is on for this request. Costs no network call unless the cached
 * rollout value is older than its maximum age.
 */
export async function isPublicAgentAccessEnabled(request: Request): Promise<boolean> {
  const rollout = getRolloutState()
  const current = rollout.current()
  if (typeof current !== 'boolean') await current
  try {
    const value = await publicAgentAccessFlag.run({ identify: undefined, request: requestForFlags(request) })
    return typeof value === 'boolean' ? value : rollout.value
  } catch (error) {
    if (!loggedFailure) {
      loggedFailure = true
      console.warn(`[rollout] the Flags SDK failed to evaluate ${PUBLIC_AGENT_ACCESS_FLAG_KEY}; using the rollout value`, error)
    }
    return rollout.value
  }
}

/**
 * The request as the Flags SDK may see it. Overrides are only readable with a valid `FLAGS_SECRET`
 * (the SDK throws on any override cookie without one), so without it the cookie header is dropped.
 */
function requestForFlags(request: Request): Request {
  if (getConfig().flagsSecret) return request
  const cookie = request.headers.get('cookie')
  if (cookie === null || !cookie.includes(FLAG_OVERRIDE_COOKIE)) return request
  const headers = new Headers(request.headers)
  headers.delete('cookie')
  // The SDK reads nothing but `headers` from the request it is given.
  return { headers } as unknown as Request
}
