/**
 * `public_agent_access` as a Flags SDK flag: its `decide` serves the rollout state held in memory
 * (shared setting, else `PUBLIC_AGENT_ACCESS`, else true), and the Flags Explorer may override it per
 * browser through the encrypted `vercel-flag-overrides` cookie. No cookie can make evaluation fail:
 * without a usable `FLAGS_SECRET` the cookie is never shown to the SDK, and any SDK error falls back.
 */
import type { AgentRequest } from '../http/agent-request.ts'
import { PUBLIC_AGENT_ACCESS_FLAG_KEY } from '../contract/constants.ts'
import { getConfig } from '../env.ts'
import { loadFlagsNext, loadFlagsSdk } from '../on-demand.ts'
import { processSingleton } from '../process-singleton.ts'
import { getSharedRedis } from '../redis/shared-redis.ts'
import { RolloutState } from './rollout-state.ts'
import { readSharedSetting } from './shared-setting.ts'

const FLAG_OVERRIDE_COOKIE = 'vercel-flag-overrides'

function getRolloutState(): RolloutState {
  return processSingleton('rollout-state', () => {
    const config = getConfig()
    const redis = getSharedRedis()
    return new RolloutState({
      fallback: config.publicAgentAccessDefault,
      read: redis ? async () => readSharedSetting(await redis, config.redisKeyPrefix) : undefined,
    })
  })
}

/** The flag as the Flags SDK declares it (its Next adapter is loaded on demand: lib/on-demand.ts). */
export function getPublicAgentAccessFlag() {
  flagDefinition ??= loadFlagsNext().then(({ flag }) =>
    flag<boolean>({
      key: PUBLIC_AGENT_ACCESS_FLAG_KEY,
      description:
        'The public agent surface (REST under /api/agent/v1 and POST /mcp). Disabled: 503 public_agent_access_disabled with Retry-After; static documents stay readable.',
      options: [
        { value: true, label: 'Enabled' },
        { value: false, label: 'Disabled' },
      ],
      decide: () => getRolloutState().value,
    }),
  )
  return flagDefinition
}

let flagDefinition: Promise<ReturnType<typeof import('flags/next').flag<boolean>>> | undefined

type VercelRequestContext = { get?: () => { flags?: { reportValue?: unknown } } | undefined }

/**
 * Reports the value as the SDK's `reportValue` does: to Vercel's request context, which takes flag
 * values only on Vercel. Elsewhere the SDK's call does nothing, and the SDK is not loaded for it.
 */
async function reportRolloutValue(value: boolean): Promise<void> {
  const context = (Reflect.get(globalThis, Symbol.for('@vercel/request-context')) as VercelRequestContext | undefined)?.get?.()
  if (typeof context?.flags?.reportValue !== 'function') return
  const { reportValue } = await loadFlagsSdk()
  reportValue(PUBLIC_AGENT_ACCESS_FLAG_KEY, value)
}

let loggedFailure = false

/**
 * Whether the public agent surface is on for this request. Costs no network call unless the cached
 * rollout value is older than its maximum age. Only a Flags Explorer override can make the answer
 * differ from the rollout value, so the Flags SDK evaluates the flag when the request carries the
 * override cookie and a `FLAGS_SECRET` can read it (the SDK throws on any override cookie without
 * one); otherwise the value is `decide`'s, reported as the SDK reports an evaluation, without the
 * SDK's per-request header sealing and cache.
 */
export async function isPublicAgentAccessEnabled(request: AgentRequest): Promise<boolean> {
  const rollout = getRolloutState()
  const current = rollout.current()
  if (typeof current !== 'boolean') await current
  const cookie = request.headers.get('cookie')
  if (cookie === null || !cookie.includes(FLAG_OVERRIDE_COOKIE) || !getConfig().flagsSecret) {
    await reportRolloutValue(rollout.value)
    return rollout.value
  }
  try {
    // The SDK reads overrides from the cookie; this flag's `decide` reads no header.
    const value = await (await getPublicAgentAccessFlag()).run({ identify: undefined, request: { headers: new Headers({ cookie }) } as Request })
    return typeof value === 'boolean' ? value : rollout.value
  } catch (error) {
    if (!loggedFailure) {
      loggedFailure = true
      console.warn(`[rollout] the Flags SDK failed to evaluate ${PUBLIC_AGENT_ACCESS_FLAG_KEY}; using the rollout value`, error)
    }
    return rollout.value
  }
}
