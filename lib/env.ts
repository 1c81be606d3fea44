/**
 * The only reader of `process.env`. Every setting of the site is parsed here once, with a clear
 * error naming the variable when a value is wrong; `.env.example` documents the same list.
 */
import { z } from 'zod'
import { parseTrustedProxies } from './client-address.ts'
import { DEFAULT_DISABLED_RETRY_AFTER_SECONDS, DEFAULT_SERVICE_NAME, MCP_SERVER_NAME_PATTERN } from './contract/constants.ts'

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((value) => ['true', '1', 'yes', 'on'].includes(value))

const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional()

const listText = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  )

/**
 * Comma-separated web origins (`https://console.example.com`), normalised to their serialized form.
 * MCP_ALLOWED_ORIGINS: browser origins besides the site's own that may call POST /mcp (lib/mcp/origin.ts).
 */
const originListText = listText.pipe(
  z.array(
    z.string().transform((value, context) => {
      try {
        const url = new URL(value)
        if ((url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' && !url.search && !url.hash && !url.username) {
          return url.origin
        }
      } catch {
        // reported below
      }
      context.addIssue({ code: 'custom', message: `expected web origins such as https://console.example.com, got "${value}"` })
      return z.NEVER
    }),
  ),
)

const EnvSchema = z.object({
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  BASE_URL: optionalText,
  VERCEL: optionalText,
  VERCEL_ENV: optionalText,
  VERCEL_URL: optionalText,
  VERCEL_BRANCH_URL: optionalText,
  VERCEL_PROJECT_PRODUCTION_URL: optionalText,
  APP_URL: z.url({ protocol: /^https?$/ }).default('https://app.cadence.example'),
  SERVICE_NAME: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/, 'lower-case letters, digits and hyphens, starting with a letter')
    .default(DEFAULT_SERVICE_NAME),
  PUBLIC_AGENT_ACCESS: booleanText.default(true),
  DISABLED_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(86400).default(DEFAULT_DISABLED_RETRY_AFTER_SECONDS),
  UPSTASH_REDIS_REST_URL: optionalText,
  UPSTASH_REDIS_REST_TOKEN: optionalText,
  KV_REST_API_URL: optionalText,
  KV_REST_API_TOKEN: optionalText,
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9:_.-]*$/, 'letters, digits and : _ . -, starting with a letter or digit')
    .default('cadence'),
  REDIS_TIMEOUT_MS: z.coerce.number().int().min(50).max(5000).default(500),
  TRUST_PROXY: listText.superRefine((entries, context) => {
    const { invalid } = parseTrustedProxies(entries)
    if (invalid.length > 0) context.addIssue({ code: 'custom', message: `not an IP address or CIDR range: ${invalid.join(', ')}` })
  }),
  MCP_ALLOWED_ORIGINS: originListText,
  MCP_SERVER_NAME: optionalText.refine(
    (value) => value === undefined || MCP_SERVER_NAME_PATTERN.test(value),
    'expected an MCP registry name such as com.example.agents/cadence (letters, digits, dots and hyphens, a slash, then letters, digits, dots, underscores and hyphens)',
  ),
  FLAGS_SECRET: optionalText.refine(
    (value) => value === undefined || (/^[A-Za-z0-9_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64url').length === 32),
    'must be 32 random bytes in base64url, e.g. node -e "console.log(crypto.randomBytes(32).toString(\'base64url\'))"',
  ),
})

export type DeploymentKind = 'local' | 'preview' | 'production'

export interface SiteConfig {
  host: string
  port: number
  /** Bare origin without a trailing slash, e.g. `https://agents.example.com`. */
  baseUrl: string
  deployment: DeploymentKind
  onVercel: boolean
  /** Non-production deployments ask crawlers not to index them. */
  noindex: boolean
  appUrl: string
  serviceName: string
  publicAgentAccessDefault: boolean
  disabledRetryAfterSeconds: number
  upstash: { url: string; token: string } | null
  /** Prefix of every Redis key the site writes (quota buckets, rollout setting): one per deployment sharing a database. */
  redisKeyPrefix: string
  /** Deadline of one Upstash REST call; past it the quota falls back to the in-process store. */
  redisTimeoutMs: number
  /** Addresses or CIDR ranges of proxies whose `X-Forwarded-For` `npm start` believes (validated). */
  trustProxy: string[]
  mcpAllowedOrigins: string[]
  /** The MCP server name when set by MCP_SERVER_NAME; else it is derived from the base URL (lib/mcp/identity.ts). */
  mcpServerName: string | undefined
  flagsSecret: string | undefined
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Parses an environment (by default `process.env`) into the site's settings. */
export function parseConfig(env: Record<string, string | undefined>): SiteConfig {
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  const onVercel = e.VERCEL === '1' || e.VERCEL_ENV !== undefined
  const deployment: DeploymentKind = !e.VERCEL_ENV ? 'local' : e.VERCEL_ENV === 'production' ? 'production' : 'preview'
  const upstashUrl = e.UPSTASH_REDIS_REST_URL ?? e.KV_REST_API_URL
  const upstashToken = e.UPSTASH_REDIS_REST_TOKEN ?? e.KV_REST_API_TOKEN
  // The Upstash client throws on a URL it cannot use; at run time that would be a 500 on every agent request.
  if (upstashUrl && !/^https?:\/\/[^\s#$./?].\S*$/.test(upstashUrl)) {
    throw new ConfigError(
      `Invalid environment:\n  ${e.UPSTASH_REDIS_REST_URL ? 'UPSTASH_REDIS_REST_URL' : 'KV_REST_API_URL'}: expected the https:// REST URL of the database, got "${upstashUrl}"`,
    )
  }
  if (Boolean(upstashUrl) !== Boolean(upstashToken)) {
    throw new ConfigError(
      'Invalid environment:\n  UPSTASH_REDIS_REST_URL / UPSTASH_REDIS_REST_TOKEN (or KV_REST_API_URL / KV_REST_API_TOKEN): set both or neither',
    )
  }
  return Object.freeze({
    host: e.HOST,
    port: e.PORT,
    baseUrl: resolveBaseUrl(e),
    deployment,
    onVercel,
    noindex: deployment === 'preview',
    appUrl: e.APP_URL.replace(/\/+$/, ''),
    serviceName: e.SERVICE_NAME,
    publicAgentAccessDefault: e.PUBLIC_AGENT_ACCESS,
    disabledRetryAfterSeconds: e.DISABLED_RETRY_AFTER_SECONDS,
    upstash: upstashUrl && upstashToken ? { url: upstashUrl, token: upstashToken } : null,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    redisTimeoutMs: e.REDIS_TIMEOUT_MS,
    trustProxy: e.TRUST_PROXY,
    mcpAllowedOrigins: e.MCP_ALLOWED_ORIGINS,
    mcpServerName: e.MCP_SERVER_NAME,
    flagsSecret: e.FLAGS_SECRET,
  })
}

/**
 * decisions.md: `BASE_URL` when set; else on Vercel the deployment's own URL (branch or deployment URL on
 * previews, the production URL in production), https; else `http://localhost:${PORT}`.
 */
function resolveBaseUrl(e: z.infer<typeof EnvSchema>): string {
  if (e.BASE_URL) return toOrigin(e.BASE_URL, 'BASE_URL')
  if (e.VERCEL_ENV === 'production' && e.VERCEL_PROJECT_PRODUCTION_URL) {
    return toOrigin(`https://${e.VERCEL_PROJECT_PRODUCTION_URL}`, 'VERCEL_PROJECT_PRODUCTION_URL')
  }
  const deploymentHost = e.VERCEL_BRANCH_URL ?? e.VERCEL_URL
  if (e.VERCEL_ENV && deploymentHost) return toOrigin(`https://${deploymentHost}`, e.VERCEL_BRANCH_URL ? 'VERCEL_BRANCH_URL' : 'VERCEL_URL')
  return `http://localhost:${e.PORT}`
}

/** The base URL must be a bare origin: well-known documents and robots.txt live at the origin root. */
function toOrigin(value: string, variable: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`Invalid environment:\n  ${variable}: expected an absolute http(s) URL such as https://agents.example.com, got "${value}"`)
  }
  if (!/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    throw new ConfigError(
      `Invalid environment:\n  ${variable}: expected a bare origin (scheme and host, no path, query or credentials) such as https://agents.example.com, got "${value}"`,
    )
  }
  return url.origin
}

let cached: SiteConfig | undefined

/** The settings of this process, parsed from `process.env` on first use. */
export function getConfig(): SiteConfig {
  cached ??= parseConfig(process.env)
  return cached
}
