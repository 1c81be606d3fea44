/**
 * The two agent route handlers as they are served: each domain handler, which returns its answer with
 * what it decided, observed by telemetry with the request's Web Bot Auth signature (./signed-agents.ts). The answers are plain values (lib/http/http-answer.ts): the app/
 * route files export them as web handlers (`Response`s, for Next and Vercel), and `npm start`'s direct
 * routes write them to the socket as they are. Telemetry's view of the quota's shared store is
 * installed here too: the domain modules know no telemetry.
 *
 * The MCP handler is imported on the first request to /mcp: why, and what else loads on demand,
 * is listed in lib/on-demand.ts.
 */
import type { AgentRequest } from './http/agent-request.ts'
import { answerAgentRestRequest, UNMATCHED_REST_ROUTE } from './agent/rest.ts'
import { MCP_PATH } from './contract/constants.ts'
import { toResponse, type HttpAnswer } from './http/http-answer.ts'
import { observeQuota } from './quota/quota.ts'
import { inspectAgentSignature } from './signed-agents.ts'
import { observeAgentRoute, quotaTelemetry } from './telemetry/observe.ts'

observeQuota(quotaTelemetry)

/** Any request whose path is under /api/agent/v1. */
export const answerAgentRest = observeAgentRoute(UNMATCHED_REST_ROUTE, answerAgentRestRequest, inspectAgentSignature)

let mcpHandler: Promise<typeof import('./mcp/handler.ts')> | undefined

/** Any request to /mcp. */
export const answerMcp = observeAgentRoute(
  MCP_PATH,
  async (request: AgentRequest) => {
    mcpHandler ??= import('./mcp/handler.ts')
    return (await mcpHandler).answerMcpRequest(request)
  },
  inspectAgentSignature,
)

const asWebHandler = (answer: (request: AgentRequest) => Promise<HttpAnswer>) => async (request: Request) => toResponse(await answer(request))

/** The same, as Next route handlers. */
export const handleAgentRestRequest = asWebHandler(answerAgentRest)
export const handleMcpRequest = asWebHandler(answerMcp)
