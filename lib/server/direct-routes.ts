/**
 * The per-request routes `npm start` answers itself, without Next's request pipeline: the agent API
 * and MCP, with the very handlers their app/ route files export (lib/agent-routes.ts), and the
 * contact form's posts (lib/lead-routes.ts). Everything
 * prerendered, the 404 pages included, is served from the build output (./static-output.ts); the rest
 * (assets, the Flags Explorer) goes to Next.
 */
import { answerAgentRest, answerMcp } from '../agent-routes.ts'
import { API_BASE_PATH, MCP_PATH } from '../contract/constants.ts'
import type { AnswerHandler } from '../http/node-adapter.ts'
import { MCP_MAX_BODY_BYTES } from '../contract/constants.ts'
import { answerLeadFormDirect } from '../lead-routes.ts'
import { LEAD_FORM_MAX_BODY_BYTES, LEAD_FORM_PATH } from '../leads/form-fields.ts'

export interface DynamicRoute {
  handler: AnswerHandler
  /** The most body bytes the route reads, or null when it takes no body (it is drained unread). */
  maxBodyBytes: number | null
}

const REST_ROUTE: DynamicRoute = { handler: answerAgentRest, maxBodyBytes: null }
const MCP_ROUTE: DynamicRoute = { handler: answerMcp, maxBodyBytes: MCP_MAX_BODY_BYTES }
const LEAD_FORM_ROUTE: DynamicRoute = { handler: answerLeadFormDirect, maxBodyBytes: LEAD_FORM_MAX_BODY_BYTES }

/** The base path of the agent API or anything below it. */
export function isAgentApiPath(pathname: string): boolean {
  return pathname === API_BASE_PATH || pathname.startsWith(`${API_BASE_PATH}/`)
}

/** The dynamic route of a path, or null. The REST API is read-only: no body is ever read there. */
export function matchDynamicRoute(pathname: string): DynamicRoute | null {
  if (isAgentApiPath(pathname)) return REST_ROUTE
  if (pathname === MCP_PATH) return MCP_ROUTE
  if (pathname === LEAD_FORM_PATH) return LEAD_FORM_ROUTE
  return null
}
