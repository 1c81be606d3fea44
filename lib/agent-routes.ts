/**
 * The two agent route handlers as they are served (by the app/ route files and by `npm start`'s direct
 * routes): each domain handler, which returns its answer with what it decided, observed by telemetry.
 * Telemetry's view of the quota's shared store is installed here too: the domain modules know no
 * telemetry.
 */
import { answerAgentRestRequest, UNMATCHED_REST_ROUTE } from './agent/rest.ts'
import { MCP_PATH } from './contract/constants.ts'
import { answerMcpRequest } from './mcp/handler.ts'
import { observeQuota } from './quota/quota.ts'
import { observeAgentRoute, quotaTelemetry } from './telemetry/observe.ts'

observeQuota(quotaTelemetry)

/** Any request whose path is under /api/agent/v1. */
export const handleAgentRestRequest = observeAgentRoute(UNMATCHED_REST_ROUTE, answerAgentRestRequest)

/** Any request to /mcp. */
export const handleMcpRequest = observeAgentRoute(MCP_PATH, answerMcpRequest)
