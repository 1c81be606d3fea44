/**
 * `npm run rollout -- disable|enable|status`: flips or shows `public_agent_access` in the shared rollout
 * setting (Upstash Redis). Every instance picks a flip up within 5 s, without restart. Each transition
 * is printed and kept in a capped history list next to the setting.
 */
import { hostname, userInfo } from 'node:os'
import { PUBLIC_AGENT_ACCESS_FLAG_KEY } from '../lib/contract/constants.ts'
import { loadSettingsOrExit } from '../lib/env-files.ts'
import { createUpstashRedis } from '../lib/redis/upstash-client.ts'
import { ROLLOUT_REFRESH_MS } from '../lib/rollout/rollout-state.ts'
import { readHistory, readSharedSetting, rolloutSettingKey, writeSharedSetting } from '../lib/rollout/shared-setting.ts'

const USAGE = `Usage: npm run rollout -- <disable|enable|status>

  disable  switch the public agent surface (REST /api/agent/v1, POST /mcp) off: 503 public_agent_access_disabled
  enable   switch it on again
  status   show the shared setting, the PUBLIC_AGENT_ACCESS fallback and the last transitions

The setting lives in the Upstash Redis the deployment uses (UPSTASH_REDIS_REST_URL/_TOKEN or
KV_REST_API_URL/_TOKEN, and the same REDIS_KEY_PREFIX).`

const CLI_TIMEOUT_MS = 10_000

function stateName(value: boolean | null): string {
  return value === null ? 'not set' : value ? 'enabled' : 'disabled'
}

function actor(): string {
  let user = 'unknown'
  try {
    user = userInfo().username
  } catch {
    // no user database entry (some containers)
  }
  return `${user}@${hostname()}`
}

async function main(argv: string[]): Promise<number> {
  const command = argv[0]
  if (argv.length !== 1 || !['disable', 'enable', 'status'].includes(command ?? '')) {
    console.error(USAGE)
    return 2
  }
  // The same settings as the deployment's `npm start`: the environment, then the `.env` files as Next reads them.
  const config = loadSettingsOrExit()
  const fallback = config.publicAgentAccessDefault
  if (!config.upstash) {
    if (command === 'status') {
      console.log(
        `${PUBLIC_AGENT_ACCESS_FLAG_KEY}: ${stateName(fallback)} (PUBLIC_AGENT_ACCESS; no shared rollout setting: Upstash Redis is not configured)`,
      )
      return 0
    }
    console.error(
      `[rollout] no shared rollout setting: UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (or KV_REST_API_URL and KV_REST_API_TOKEN) are not set.\n` +
        `Set them to the Redis the deployment uses, or (embedded mode) set PUBLIC_AGENT_ACCESS=${command === 'enable'} and restart the site.`,
    )
    return 1
  }
  const redis = createUpstashRedis({ url: config.upstash.url, token: config.upstash.token, timeoutMs: CLI_TIMEOUT_MS })
  const key = rolloutSettingKey(config.redisKeyPrefix)

  if (command === 'status') {
    const shared = await readSharedSetting(redis, config.redisKeyPrefix)
    const effective = shared ?? fallback
    console.log(
      `${PUBLIC_AGENT_ACCESS_FLAG_KEY}: ${stateName(effective)} (${shared === null ? 'PUBLIC_AGENT_ACCESS of each instance' : 'shared setting'})`,
    )
    console.log(`  shared setting ${key}: ${stateName(shared)}`)
    console.log(`  PUBLIC_AGENT_ACCESS here: ${stateName(fallback)}`)
    const history = await readHistory(redis, config.redisKeyPrefix, 5)
    if (history.length > 0) console.log('  last transitions:')
    for (const entry of history) console.log(`    ${entry.at}  ${stateName(entry.from)} → ${stateName(entry.to)}  by ${entry.by}`)
    return 0
  }

  const enabled = command === 'enable'
  const transition = await writeSharedSetting(redis, config.redisKeyPrefix, enabled, actor())
  if (transition.from === enabled) {
    console.log(`[rollout] ${PUBLIC_AGENT_ACCESS_FLAG_KEY} already ${stateName(enabled)} (shared setting ${key}); nothing changed`)
  } else {
    console.log(
      `[rollout] ${transition.at} ${PUBLIC_AGENT_ACCESS_FLAG_KEY}: ${stateName(transition.from)} → ${stateName(enabled)} (shared setting ${key}) by ${transition.by}; ` +
        `every instance follows within ${(2 * ROLLOUT_REFRESH_MS) / 1000 + 1} s`,
    )
  }
  return 0
}

try {
  process.exitCode = await main(process.argv.slice(2))
} catch (error) {
  const cause =
    error instanceof Error && error.cause instanceof Error ? ` (${(error.cause as Error & { code?: string }).code ?? error.cause.message})` : ''
  const reason = error instanceof Error ? `${error.name}: ${error.message}${cause}` : String(error)
  console.error(`[rollout] failed: ${reason}. Check UPSTASH_REDIS_REST_URL/_TOKEN (or KV_REST_API_URL/_TOKEN).`)
  process.exitCode = 1
}
