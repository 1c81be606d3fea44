/**
 * The per-request routes `npm start` answers itself, without Next's request pipeline: the agent API
 * and MCP, with the very handlers their app/ route files export. Everything prerendered is served
 * from the build output (./static-output.ts); the rest (assets, the 404 page, the Flags Explorer)
 * goes to Next.
 */
import { handleAgentRestRequest } from '../agent/rest.ts'
import { API_BASE_PATH, MCP_PATH } from '../contract/constants.ts'
import type { WebHandler } from '../http/node-adapter.ts'
import { handleMcpRequest } from '../mcp/handler.ts'

/** The base path of the agent API or anything below it. */
export function isAgentApiPath(pathname: string): boolean {
  return pathname === API_BASE_PATH || pathname.startsWith(`${API_BASE_PATH}/`)
}

/** The handler of a dynamic route, or null. */
export function matchDynamicRoute(pathname: string): WebHandler | null {
  if (isAgentApiPath(pathname)) return handleAgentRestRequest
  if (pathname === MCP_PATH) return handleMcpRequest
  return null
}
