/**
 * The one place where a request to the agent surface (REST under /api/agent/v1 and POST /mcp) is
 * admitted before any handler runs: the rollout state of `public_agent_access`, then the per-client
 * quota. The answer carries the headers every admitted or refused response must show.
 */
import { getConfig } from './env.ts'
import type { HeaderList } from './http/headers.ts'

export type Admission =
  | { admitted: true; headers: HeaderList }
  | { admitted: false; reason: 'public_agent_access_disabled'; retryAfterSeconds: number; headers: HeaderList }
  | { admitted: false; reason: 'rate_limit_exceeded'; retryAfterSeconds: number; headers: HeaderList }

const NO_HEADERS: HeaderList = []

export async function admitAgentRequest(_request: Request): Promise<Admission> {
  const config = getConfig()
  if (!config.publicAgentAccessDefault) {
    const retryAfterSeconds = config.disabledRetryAfterSeconds
    return {
      admitted: false,
      reason: 'public_agent_access_disabled',
      retryAfterSeconds,
      headers: [['Retry-After', String(retryAfterSeconds)]],
    }
  }
  return { admitted: true, headers: NO_HEADERS }
}
