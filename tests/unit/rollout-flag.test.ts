/**
 * `public_agent_access` as a request sees it (lib/rollout/public-agent-access.ts) with no shared
 * setting and no FLAGS_SECRET: the rollout value, reported to Vercel's request context as the Flags
 * SDK reports an evaluation, whatever cookie the request carries.
 */
import { reportValue } from 'flags'
import { afterEach, describe, expect, it } from 'vitest'
import { PUBLIC_AGENT_ACCESS_FLAG_KEY } from '../../lib/contract/constants.ts'
import { isPublicAgentAccessEnabled } from '../../lib/rollout/public-agent-access.ts'

const REQUEST_CONTEXT = Symbol.for('@vercel/request-context')
process.env.BASE_URL = 'https://agents.example.com'
delete process.env.FLAGS_SECRET
delete process.env.PUBLIC_AGENT_ACCESS

/** Vercel's request context as the Flags SDK finds it, recording each reported value. */
function installRequestContext(): unknown[][] {
  const reported: unknown[][] = []
  const flags = { reportValue: (...args: unknown[]) => reported.push(args) }
  Reflect.set(globalThis, REQUEST_CONTEXT, { get: () => ({ flags }) })
  return reported
}

afterEach(() => {
  Reflect.deleteProperty(globalThis, REQUEST_CONTEXT)
})

describe('public_agent_access without FLAGS_SECRET', () => {
  it.each([
    ['no cookie', {}],
    ['other cookies', { cookie: 'theme=dark; session=x' }],
    ['a forged override cookie', { cookie: 'vercel-flag-overrides=%7B%22public_agent_access%22%3Afalse%7D' }],
  ])('is the rollout value (on) for a request with %s, reported once to the request context as the Flags SDK reports it', async (_, headers) => {
    const reported = installRequestContext()
    expect(await isPublicAgentAccessEnabled(new Request('https://agents.example.com/api/agent/v1/health', { headers }))).toBe(true)
    const bySdk = installRequestContext()
    reportValue(PUBLIC_AGENT_ACCESS_FLAG_KEY, true)
    expect(reported).toEqual(bySdk)
    expect(reported).toHaveLength(1)
  })
})
