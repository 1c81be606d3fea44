/**
 * Flags Explorer discovery endpoint (Vercel toolbar): lists `public_agent_access` to team members whose
 * toolbar proves it knows `FLAGS_SECRET`. Anyone else, or any deployment without the secret, gets 401.
 */
import { createFlagsDiscoveryEndpoint, getProviderData } from 'flags/next'
import type { NextRequest } from 'next/server'
import { getConfig } from '@/lib/env.ts'
import { getPublicAgentAccessFlag } from '@/lib/rollout/public-agent-access.ts'

export const dynamic = 'force-dynamic'

let endpoint: ((request: NextRequest) => Promise<Response>) | undefined

function unauthorized(): Response {
  return Response.json(null, { status: 401, headers: { 'Cache-Control': 'no-store' } })
}

export async function GET(request: NextRequest): Promise<Response> {
  const secret = getConfig().flagsSecret
  // Without a secret the SDK would throw on any Authorization header: nobody can be verified, so 401.
  if (!secret) return unauthorized()
  const publicAgentAccess = await getPublicAgentAccessFlag()
  endpoint ??= createFlagsDiscoveryEndpoint(() => getProviderData({ publicAgentAccess }), { secret })
  try {
    return await endpoint(request)
  } catch {
    return unauthorized()
  }
}
