/**
 * Every fixed value of the public agent contract, defined once. Schemas, handlers, documents,
 * MCP tools and tests import these instead of repeating literals.
 */

export const PRODUCT_NAME = 'Cadence'
export const SERVICE_DISPLAY_NAME = 'Cadence Public Agent API'

/** Date-based contract version: `API-Version`, `version` fields, OpenAPI `info.version`. */
export const CONTRACT_VERSION = '2026-08-25'
export const API_MAJOR = 'v1'
export const API_BASE_PATH = '/api/agent/v1'
export const API_VERSION_HEADER = 'API-Version'

export const MCP_PATH = '/mcp'
export const MCP_PROTOCOL_VERSION = '2026-07-28'
export const MCP_LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const
/** Newest first; the one list used by `server/discover`, -32022 errors and the server card. */
export const MCP_SUPPORTED_PROTOCOL_VERSIONS = [MCP_PROTOCOL_VERSION, ...MCP_LEGACY_PROTOCOL_VERSIONS] as const
export const MCP_TRANSPORT = 'streamable_http'
/** The MCP registry's server name pattern (`<reverse-DNS namespace>/<name>`): MCP_SERVER_NAME and the derived name. */
export const MCP_SERVER_NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/

export const PUBLIC_RESOURCE_IDS = ['product-overview', 'developer-resources', 'agent-boundaries'] as const
export type PublicResourceId = (typeof PUBLIC_RESOURCE_IDS)[number]
export const RESOURCE_MIME_TYPE = 'text/markdown'
/** The contract's one path parameter: the REST segment of getPublicResource and the argument of its MCP tool. */
export const RESOURCE_ID_PARAMETER = 'resourceId'

/** Token bucket per client IP: 150 at once, refilled at 120 per 60 s (2 per second). */
export const QUOTA = {
  policyName: 'public-agent-rest',
  requestsPerWindow: 120,
  windowSeconds: 60,
  burst: 30,
  capacity: 150,
  refillPerSecond: 2,
  scope: 'client_ip',
} as const

export const RATE_LIMIT_HEADER_NAMES = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'RateLimit'] as const

export const VERSIONING_POLICY = {
  scheme: 'url_path',
  breakingChangePolicy: 'new_major_path_segment',
  minimumSunsetNoticeDays: 180,
} as const

/** Candidate scopes of a future authenticated API. None is grantable today. */
export const FUTURE_SCOPES = [
  { name: 'goals:read', description: "Read the authenticated user's goal plans and milestones.", grantable: false },
  { name: 'progress:read', description: 'Read execution progress, check-ins and evidence summaries.', grantable: false },
  { name: 'mentoring:read', description: 'Read mentor-room threads the user is a member of.', grantable: false },
  {
    name: 'execution:propose',
    description: 'Propose execution changes that the product authority must accept before they apply.',
    grantable: false,
  },
] as const

/** Private product state the public surface never exposes (capabilities `boundaries`). */
export const PRIVATE_STATE_BOUNDARIES = [
  'goalPlans',
  'tasks',
  'blockers',
  'evidence',
  'mentorRooms',
  'tenantData',
  'userRecords',
  'roleChanges',
  'billingState',
  'executionMutations',
] as const

export const PUBLIC_AGENT_ACCESS_FLAG_KEY = 'public_agent_access'
export const DEFAULT_DISABLED_RETRY_AFTER_SECONDS = 300
export const DEFAULT_SERVICE_NAME = 'service'
/** Search and grounding yes, training no: the site's default Content Signals. */
export const DEFAULT_CONTENT_SIGNAL = 'search=yes, ai-input=yes, ai-train=no'

/** The `RateLimit-Policy` value, `"public-agent-rest";q=120;w=60;burst=30`: an sf-string name, lower-case Integer parameters. */
export const RATE_LIMIT_POLICY_VALUE = `"${QUOTA.policyName}";q=${QUOTA.requestsPerWindow};w=${QUOTA.windowSeconds};burst=${QUOTA.burst}`

// POST /mcp's contract numbers (decisions.md).
/** MCP `HeaderMismatch`: the SDK answers it but exports no constant for it. */
export const HEADER_MISMATCH = -32020
/** Application error codes live outside -32768…-32000: -31000 minus the HTTP status (decisions.md). */
export const applicationErrorCode = (httpStatus: number): number => -31000 - httpStatus
/** The one method POST /mcp serves: a 405 names it in `Allow`. */
export const MCP_ALLOWED_METHODS = 'POST'
/** The request headers that mirror a JSON-RPC body (MCP 2026-07-28 transport), lower-case. */
export const MCP_HEADERS = { protocolVersion: 'mcp-protocol-version', method: 'mcp-method', name: 'mcp-name' } as const
/** Largest accepted request body; a larger one is answered 413 before it is parsed. */
export const MCP_MAX_BODY_BYTES = 2 * 1024 * 1024
/** Largest accepted JSON-RPC batch (legacy 2025-03-26 clients only). */
export const MCP_MAX_BATCH_MESSAGES = 20
/** Caching hints of the cacheable results (standards.md open choice 17). */
export const MCP_CACHE_HINTS = {
  discover: { ttlMs: 3_600_000, cacheScope: 'public' },
  listsAndReads: { ttlMs: 300_000, cacheScope: 'public' },
} as const
