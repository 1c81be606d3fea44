/**
 * The contract's error codes (section 7 and decisions.md) with their HTTP status and stable texts.
 * REST answers them as ProblemDetails; MCP carries the same code in `error.data.code`.
 * The problem `type` URI is `<base URL>/problems/<code>`, built where the base URL is known.
 */
import { API_BASE_PATH, DEFAULT_DISABLED_RETRY_AFTER_SECONDS, QUOTA } from './constants.ts'
import { operationPath, OPERATION_PATH_TEMPLATES } from './operations.ts'

/** `a, b, c or d` */
const oneOf = (items: readonly string[]) => `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`

export interface ProblemDefinition {
  status: number
  title: string
  detail: string
  resolution: string
}

export const PROBLEMS = {
  agent_endpoint_not_found: {
    status: 404,
    title: 'Agent endpoint not found',
    detail: `This path is not an operation of the public agent API under ${API_BASE_PATH}.`,
    resolution: `Use one of ${oneOf(OPERATION_PATH_TEMPLATES)}; /openapi.json describes them.`,
  },
  agent_resource_not_found: {
    status: 404,
    title: 'Public resource not found',
    detail: 'No public resource has this id.',
    resolution: `List ${operationPath('listPublicResources')} and retry with a returned id.`,
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    detail: 'The public agent API is read-only: its operations accept GET and HEAD only.',
    resolution: 'Send a GET (or HEAD) request without a body.',
  },
  rate_limit_exceeded: {
    status: 429,
    title: 'Too many requests',
    detail: `This client address used its ${QUOTA.capacity}-request burst; the quota refills at ${QUOTA.refillPerSecond} requests per second.`,
    resolution: `Wait Retry-After seconds, then stay under ${QUOTA.requestsPerWindow} requests per ${QUOTA.windowSeconds} seconds.`,
  },
  public_agent_access_disabled: {
    status: 503,
    title: 'Public agent access is disabled',
    detail: 'The public agent surface is switched off by a platform rollout setting.',
    resolution: `Retry after the Retry-After delay (${DEFAULT_DISABLED_RETRY_AFTER_SECONDS} s by default); static discovery documents such as /openapi.json and /llms.txt remain readable.`,
  },
  mcp_header_mismatch: {
    status: 400,
    title: 'MCP transport metadata missing or mismatched',
    detail: 'A required MCP header or _meta key is missing, or disagrees with the JSON-RPC body.',
    resolution:
      'Send MCP-Protocol-Version, Mcp-Method (and Mcp-Name for tools/call and resources/read) equal to the body, and put io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities in params._meta.',
  },
  mcp_method_not_allowed: {
    status: 405,
    title: 'MCP method not allowed',
    detail: 'The MCP endpoint accepts POST only: there is no standalone GET stream and no session to DELETE.',
    resolution: 'Send each JSON-RPC message as its own POST /mcp request.',
  },
} as const satisfies Record<string, ProblemDefinition>

export type ProblemCode = keyof typeof PROBLEMS
export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[]
