/**
 * The per-request routes `npm start` answers itself, without Next's request pipeline: the agent API
 * and MCP, with the very handlers their app/ route files export (lib/agent-routes.ts), and the
 * contact form's posts (lib/lead-routes.ts). Everything prerendered, the 404 pages included, is served
 * from the build output (./static-output.ts); the rest (assets, the Flags Explorer, the delivery cron)
 * goes to Next. A new route handler served this way is one entry of DIRECT_ROUTES.
 */
import { answerAgentRest, answerMcp } from '../agent-routes.ts'
import { API_BASE_PATH, MCP_MAX_BODY_BYTES, MCP_PATH } from '../contract/constants.ts'
import type { AnswerHandler } from '../http/node-adapter.ts'
import { answerLeadFormDirect } from '../lead-routes.ts'
import { LEAD_FORM_MAX_BODY_BYTES, LEAD_FORM_PATH } from '../leads/form-fields.ts'

export interface DynamicRoute {
  /** The path the route answers. */
  path: string
  /** Whether it answers every path below `path` too (its handler answers those it does not know). */
  tree: boolean
  handler: AnswerHandler
  /** The most body bytes the route reads, or null when it takes no body (it is drained unread). */
  maxBodyBytes: number | null
}

/** Every route npm start hands to a handler, first match wins. */
export const DIRECT_ROUTES: readonly DynamicRoute[] = [
  // The REST API is read-only: no body is ever read there. It answers a malformed path itself.
  { path: API_BASE_PATH, tree: true, handler: answerAgentRest, maxBodyBytes: null },
  { path: MCP_PATH, tree: false, handler: answerMcp, maxBodyBytes: MCP_MAX_BODY_BYTES },
  { path: LEAD_FORM_PATH, tree: false, handler: answerLeadFormDirect, maxBodyBytes: LEAD_FORM_MAX_BODY_BYTES },
]

/** The route of a path in `routes`, or null. */
export function matchDynamicRoute(pathname: string, routes: readonly DynamicRoute[] = DIRECT_ROUTES): DynamicRoute | null {
  for (const route of routes) {
    if (pathname === route.path || (route.tree && pathname.startsWith(route.path) && pathname[route.path.length] === '/')) return route
  }
  return null
}
