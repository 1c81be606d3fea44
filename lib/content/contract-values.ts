/**
 * The contract's numbers as the content states them. Pages and resources write `{{quota_capacity}}`
 * rather than `150`, so a changed constant changes every document; and a number written by hand in a
 * place where the contract has one (`RateLimit-Limit: 151`) is an error at its line, because a page
 * that contradicts the API it documents is worse than no page.
 */
import {
  API_BASE_PATH,
  CONTRACT_VERSION,
  MCP_LEGACY_PROTOCOL_VERSIONS,
  MCP_PROTOCOL_VERSION,
  MCP_SUPPORTED_PROTOCOL_VERSIONS,
  PUBLIC_RESOURCE_IDS,
  QUOTA,
  RESOURCE_ID_PARAMETER,
  VERSIONING_POLICY,
} from '../contract/constants.ts'
import { AGENT_OPERATIONS, OPERATION_PATH_TEMPLATES, operationPath, pathParameterNames, TOOL_OPERATIONS } from '../contract/operations.ts'
import { applicationErrorCode, HEADER_MISMATCH, MCP_CACHE_HINTS, MCP_MAX_BATCH_MESSAGES, MCP_MAX_BODY_BYTES } from '../contract/constants.ts'
import { RATE_LIMIT_POLICY_VALUE } from '../contract/constants.ts'

const MEBIBYTE = 1024 * 1024
const codeList = (values: readonly string[]): string => values.map((value) => `\`${value}\``).join(', ')

/** Placeholders whose value is fixed by the contract (the same in every deployment). */
export const CONTRACT_TEMPLATE_VALUES = {
  contract_version: CONTRACT_VERSION,
  mcp_protocol_version: MCP_PROTOCOL_VERSION,
  /** `2025-11-25`, `2025-06-18`, `2025-03-26` (code spans, newest first). */
  mcp_legacy_protocol_versions: codeList(MCP_LEGACY_PROTOCOL_VERSIONS),
  /** The version a legacy `initialize` asking for an unknown or modern version is answered with. */
  mcp_newest_legacy_protocol_version: MCP_LEGACY_PROTOCOL_VERSIONS[0],
  mcp_discover_ttl_ms: String(MCP_CACHE_HINTS.discover.ttlMs),
  mcp_list_ttl_ms: String(MCP_CACHE_HINTS.listsAndReads.ttlMs),
  mcp_max_body_mib: String(MCP_MAX_BODY_BYTES / MEBIBYTE),
  mcp_max_batch_messages: String(MCP_MAX_BATCH_MESSAGES),
  mcp_code_header_mismatch: String(HEADER_MISMATCH),
  /** Application codes are this minus the HTTP status. */
  mcp_code_base: String(applicationErrorCode(0)),
  mcp_code_method_not_allowed: String(applicationErrorCode(405)),
  mcp_code_body_too_large: String(applicationErrorCode(413)),
  mcp_code_unsupported_media_type: String(applicationErrorCode(415)),
  mcp_code_rate_limited: String(applicationErrorCode(429)),
  mcp_code_disabled: String(applicationErrorCode(503)),
  quota_capacity: String(QUOTA.capacity),
  quota_requests_per_window: String(QUOTA.requestsPerWindow),
  quota_window_seconds: String(QUOTA.windowSeconds),
  quota_burst: String(QUOTA.burst),
  quota_refill_per_second: String(QUOTA.refillPerSecond),
  /** The most a client can send in one window starting from a full bucket. */
  quota_max_per_window: String(QUOTA.capacity + QUOTA.requestsPerWindow),
  quota_policy: RATE_LIMIT_POLICY_VALUE,
  quota_policy_name: QUOTA.policyName,
  sunset_notice_days: String(VERSIONING_POLICY.minimumSunsetNoticeDays),
} as const

export type ContractPlaceholder = keyof typeof CONTRACT_TEMPLATE_VALUES

/**
 * Where a content body states a contract number by hand: the phrase, the number(s) it captures and
 * the placeholders holding the contract's values, in capture order. Phrases are narrow on purpose
 * (`150 requests at once`, not any `150`) so that marketing text keeps its own numbers.
 */
interface ContractPhrase {
  pattern: RegExp
  placeholders: readonly ContractPlaceholder[]
}

const CONTRACT_PHRASES: readonly ContractPhrase[] = [
  { pattern: /(\d+)\s+requests\s+at\s+once/g, placeholders: ['quota_capacity'] },
  { pattern: /RateLimit-Limit: (\d+)/g, placeholders: ['quota_capacity'] },
  { pattern: /(\d+)\s+plus\s+a\s+burst\s+of\s+(\d+)/g, placeholders: ['quota_requests_per_window', 'quota_burst'] },
  { pattern: /(\d+)(?:\s+requests)?\s+per\s+second/g, placeholders: ['quota_refill_per_second'] },
  { pattern: /(\d+)(?:\s+requests)?\s+per\s+(\d+)\s+seconds/g, placeholders: ['quota_requests_per_window', 'quota_window_seconds'] },
  { pattern: /at\s+most\s+(\d+)\s+in\s+any\s+(\d+)\s+seconds/g, placeholders: ['quota_max_per_window', 'quota_window_seconds'] },
  { pattern: /RateLimit-Policy: ([^\s`]+)/g, placeholders: ['quota_policy'] },
  { pattern: /RateLimit: "([^"\n]+)"/g, placeholders: ['quota_policy_name'] },
  { pattern: /`server\/discover`\s+carries\s+`ttlMs: (\d+)`/g, placeholders: ['mcp_discover_ttl_ms'] },
  { pattern: /reads\s+carry\s+`ttlMs: (\d+)`/g, placeholders: ['mcp_list_ttl_ms'] },
  { pattern: /larger\s+than\s+(\d+)\s+MiB/g, placeholders: ['mcp_max_body_mib'] },
  { pattern: /at\s+most\s+(\d+)\s+messages/g, placeholders: ['mcp_max_batch_messages'] },
  { pattern: /at\s+least\s+(\d+)\s+days\s+before/g, placeholders: ['sunset_notice_days'] },
]

/** Application codes (-31000 minus an HTTP status) the server answers with; any other -31xxx is wrong. */
const APPLICATION_CODES = new Set<string>(
  (
    [
      'mcp_code_base',
      'mcp_code_method_not_allowed',
      'mcp_code_body_too_large',
      'mcp_code_unsupported_media_type',
      'mcp_code_rate_limited',
      'mcp_code_disabled',
    ] as const
  ).map((name) => CONTRACT_TEMPLATE_VALUES[name]),
)
const VERSION_DATES = new Set<string>([CONTRACT_VERSION, ...MCP_SUPPORTED_PROTOCOL_VERSIONS])

/** The tools' names after `{{service}}.`, as the operations table writes them. */
const TOOL_NAMES: readonly string[] = TOOL_OPERATIONS.map((operation) => operation.mcpTool.name)

/** Every path under the API base a page may name: the base, each operation's template, and each with a real resource id. */
const API_PATHS = new Set<string>([
  API_BASE_PATH,
  ...AGENT_OPERATIONS.flatMap((operation) => [
    operationPath(operation.operationId),
    ...(pathParameterNames(operation.path).includes(RESOURCE_ID_PARAMETER)
      ? PUBLIC_RESOURCE_IDS.map((id) => operationPath(operation.operationId, { [RESOURCE_ID_PARAMETER]: id }))
      : []),
  ]),
])
const API_PATH_MENTION = new RegExp(`${RegExp.escape(API_BASE_PATH)}(?:/[\\w{}.-]+)*`, 'g')

export interface ContractContradiction {
  /** Offset of the literal in the body. */
  index: number
  message: string
}

/**
 * Numbers in `body` that contradict the contract: a phrase of CONTRACT_PHRASES with another value,
 * an application code `-31xxx` the server never sends, a date in a code span that is neither the
 * contract version nor a protocol version. Placeholders are left out (they are filled from constants).
 */
export function contractContradictions(body: string): ContractContradiction[] {
  const found: ContractContradiction[] = []
  for (const { pattern, placeholders } of CONTRACT_PHRASES) {
    for (const match of body.matchAll(pattern)) {
      placeholders.forEach((name, group) => {
        const written = match[group + 1]?.trim() ?? ''
        if (written.includes('{{')) return
        const expected = CONTRACT_TEMPLATE_VALUES[name]
        if (written !== expected)
          found.push({
            index: match.index,
            message: `"${match[0].replace(/\s+/g, ' ')}" says ${written} where the contract has ${expected}; write {{${name}}}`,
          })
      })
    }
  }
  for (const match of body.matchAll(/(?<![\w-])-31\d{3}\b/g)) {
    if (!APPLICATION_CODES.has(match[0])) {
      found.push({
        index: match.index,
        message: `${match[0]} is not an error code of this server; write one of ${[...APPLICATION_CODES].join(', ')} by its placeholder`,
      })
    }
  }
  for (const match of body.matchAll(/`(\d{4}-\d{2}-\d{2})`/g)) {
    const date = match[1] ?? ''
    if (!VERSION_DATES.has(date)) {
      found.push({
        index: match.index,
        message: `\`${date}\` is neither the contract version nor an MCP protocol version; write {{contract_version}} or {{mcp_protocol_version}}`,
      })
    }
  }
  found.push(...contractNameContradictions(body))
  return found.sort((a, b) => a.index - b.index)
}

/**
 * Names of the contract written by hand: a tool (`{{service}}.<name>`), a path under the API base,
 * and an operation id beside its request in a table row (`| \`getAgentHealth\` | \`GET /api/…\` |`)
 * must be the operations table's own.
 */
function contractNameContradictions(body: string): ContractContradiction[] {
  const found: ContractContradiction[] = []
  for (const match of body.matchAll(/\{\{service\}\}\.(\w+)/g)) {
    if (!TOOL_NAMES.includes(match[1] ?? '')) {
      found.push({ index: match.index, message: `{{service}}.${match[1]} is not a tool of this server; its tools are ${TOOL_NAMES.join(', ')}` })
    }
  }
  for (const match of body.matchAll(API_PATH_MENTION)) {
    if (!API_PATHS.has(match[0])) {
      found.push({
        index: match.index,
        message: `${match[0]} is not a path of the agent API; its operations are ${OPERATION_PATH_TEMPLATES.join(', ')}`,
      })
    }
  }
  for (const match of body.matchAll(/`(\w+)`\s*\|\s*`GET ([^`]+)`/g)) {
    const operation = AGENT_OPERATIONS.find((candidate) => operationPath(candidate.operationId) === match[2])
    if (operation && operation.operationId !== match[1]) {
      found.push({ index: match.index, message: `the operation at GET ${match[2]} is ${operation.operationId}, not ${match[1]}` })
    }
  }
  return found
}
