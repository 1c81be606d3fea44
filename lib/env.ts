/**
 * The only reader of `process.env`. Every setting of the site is parsed here once, with a clear
 * error naming the variable when a value is wrong; `.env.example` documents the same list.
 */
import { parseTrustedProxies } from './client-address.ts'
import { DEFAULT_CONTENT_SIGNAL, DEFAULT_DISABLED_RETRY_AFTER_SECONDS, DEFAULT_SERVICE_NAME, MCP_SERVER_NAME_PATTERN } from './contract/constants.ts'

/** What a setting's value was expected to be, when it is not. */
interface Expected {
  expected: string
}

/**
 * One setting: a non-empty string (an empty or blank value counts as unset, so `PORT=` in a `.env`
 * file means "use the default"), converted by `parse`, which returns the value or what was expected.
 */
type Setting<T> = (raw: string | undefined) => { value: T | undefined } | Expected

function setting<T>(parse: (value: string) => T | Expected): Setting<T> {
  return (raw) => {
    const value = raw?.trim()
    if (!value) return { value: undefined }
    const parsed = parse(value)
    if (parsed !== null && typeof parsed === 'object' && 'expected' in parsed) return parsed
    return { value: parsed as T }
  }
}

const text = setting((value) => value)

/** The entries of a comma-separated setting, each trimmed, empty ones dropped. */
function commaList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
}

function wholeNumber(min: number, max: number, what: string) {
  return setting((value) => {
    const number = /^\d+$/.test(value) ? Number(value) : Number.NaN
    return number >= min && number <= max ? number : { expected: `expected ${what} from ${min} to ${max}, got ${quote(value)}` }
  })
}

const TRUE_WORDS = ['true', '1', 'yes', 'on']
const FALSE_WORDS = ['false', '0', 'no', 'off']
const booleanText = setting((value) => {
  const word = value.toLowerCase()
  if (TRUE_WORDS.includes(word)) return true
  if (FALSE_WORDS.includes(word)) return false
  return { expected: `expected true or false (or 1/0, yes/no, on/off), got ${quote(value)}` }
})

function matching(pattern: RegExp, expected: string) {
  return setting((value) => (pattern.test(value) ? value : { expected: `expected ${expected}, got ${quote(value)}` }))
}

/**
 * Comma-separated web origins (`https://console.example.com`), normalised to their serialized form.
 * MCP_ALLOWED_ORIGINS: browser origins besides the site's own that may call POST /mcp (lib/http/origin-policy.ts).
 */
const originListText = setting((value) => {
  const origins: string[] = []
  for (const item of commaList(value)) {
    const origin = webOrigin(item)
    if (!origin) return { expected: `expected web origins such as https://console.example.com, got ${quote(item)}` }
    origins.push(origin)
  }
  return origins
})

function webOrigin(value: string): string | undefined {
  try {
    const url = new URL(value)
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' && !url.search && !url.hash && !url.username) {
      return url.origin
    }
  } catch {
    // not a URL
  }
  return undefined
}

/**
 * AGENT_SIGNATURE_DIRECTORIES: the key directories whose signed agents the site verifies (lib/agent-signature),
 * as origins; `none` trusts none. https only: a directory is fetched from the address a request names, so
 * plain http is allowed for a loopback host alone (local tests).
 */
const signatureDirectories = setting((value) => {
  if (value.toLowerCase() === 'none') return []
  const origins: string[] = []
  for (const item of commaList(value)) {
    const origin = webOrigin(item)
    if (!origin || !(origin.startsWith('https://') || isLoopbackOrigin(origin))) {
      return {
        expected: `expected https origins of key directories such as https://chatgpt.com (http only for a loopback host), or none, got ${quote(item)}`,
      }
    }
    if (!origins.includes(origin)) origins.push(origin)
  }
  return origins
})

function isLoopbackOrigin(origin: string): boolean {
  const host = new URL(origin).hostname.replace(/^\[|\]$/g, '')
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host)
}

/**
 * The signers trusted when AGENT_SIGNATURE_DIRECTORIES is unset: the public signers of Web Bot Auth known
 * when this was written, each with where it is stated (docs/observability.md#verified-agents).
 */
const DEFAULT_AGENT_SIGNATURE_DIRECTORIES: readonly string[] = [
  // OpenAI's ChatGPT agent sends `Signature-Agent: "https://chatgpt.com"`; its keys are at
  // https://chatgpt.com/.well-known/http-message-signatures-directory.
  'https://chatgpt.com',
]

const trustedProxies = setting((value) => {
  const entries = commaList(value)
  const { invalid } = parseTrustedProxies(entries)
  return invalid.length > 0 ? { expected: `not an IP address or CIDR range: ${invalid.join(', ')}` } : entries
})

const appUrl = setting((value) => {
  try {
    const url = new URL(value)
    if (url.protocol === 'http:' || url.protocol === 'https:') return value
  } catch {
    // reported below
  }
  return { expected: `expected an http(s) URL such as https://app.cadence.example, got ${quote(value)}` }
})

// A secret is never repeated in an error message.
const flagsSecret = setting((value) =>
  /^[A-Za-z0-9_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64url').length === 32
    ? value
    : { expected: 'expected 32 random bytes in base64url, e.g. from node -e "console.log(crypto.randomBytes(32).toString(\'base64url\'))"' },
)

/**
 * Cloudflare's Content Signals (`search`, `ai-input`, `ai-train`, each yes or no), written the way
 * robots.txt and the `Content-Signal` header carry them.
 */
const contentSignal = setting((value) =>
  /^(?:search|ai-input|ai-train)=(?:yes|no)(?:\s*,\s*(?:search|ai-input|ai-train)=(?:yes|no))*$/.test(value)
    ? commaList(value).join(', ')
    : {
        expected: `expected comma-separated search=, ai-input= and ai-train= signals, each yes or no, e.g. "${DEFAULT_CONTENT_SIGNAL}", got ${quote(value)}`,
      },
)

/** An http(s) URL a delivery is POSTed to (LEADS_WEBHOOK_URL, LEADS_SLACK_WEBHOOK_URL). */
function postUrl(example: string) {
  return setting((value) => {
    try {
      const url = new URL(value)
      if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password) return url.href
    } catch {
      // reported below
    }
    return { expected: `expected an http(s) URL such as ${example}` }
  })
}

// Secrets are never repeated in an error message.
const webhookSecret = setting((value) =>
  /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value.slice('whsec_'.length), 'base64').length >= 24
    ? value
    : {
        expected:
          "expected a Standard Webhooks secret: whsec_ followed by at least 24 random bytes in base64, e.g. from node -e \"console.log('whsec_' + crypto.randomBytes(32).toString('base64'))\"",
      },
)

function longSecret(minLength: number) {
  return setting((value) => (value.length >= minLength ? value : { expected: `expected a random string of at least ${minLength} characters` }))
}

const databasePath = setting((value) => (value.includes('\0') ? { expected: 'expected a file path' } : value))

function quote(value: string): string {
  return JSON.stringify(value.length > 120 ? `${value.slice(0, 117)}...` : value)
}

const SETTINGS = {
  HOST: text,
  PORT: wholeNumber(1, 65535, 'a port number'),
  BASE_URL: text,
  VERCEL: text,
  VERCEL_ENV: text,
  VERCEL_URL: text,
  VERCEL_BRANCH_URL: text,
  VERCEL_PROJECT_PRODUCTION_URL: text,
  APP_URL: appUrl,
  SERVICE_NAME: matching(/^[a-z][a-z0-9-]*$/, 'lower-case letters, digits and hyphens, starting with a letter'),
  PUBLIC_AGENT_ACCESS: booleanText,
  DISABLED_RETRY_AFTER_SECONDS: wholeNumber(1, 86400, 'a whole number of seconds'),
  UPSTASH_REDIS_REST_URL: text,
  UPSTASH_REDIS_REST_TOKEN: text,
  KV_REST_API_URL: text,
  KV_REST_API_TOKEN: text,
  REDIS_KEY_PREFIX: matching(/^[A-Za-z0-9][A-Za-z0-9:_.-]*$/, 'letters, digits and : _ . -, starting with a letter or digit'),
  REDIS_TIMEOUT_MS: wholeNumber(50, 5000, 'a whole number of milliseconds'),
  TRUST_PROXY: trustedProxies,
  MCP_ALLOWED_ORIGINS: originListText,
  MCP_SERVER_NAME: matching(
    MCP_SERVER_NAME_PATTERN,
    'an MCP registry name such as com.example.agents/cadence (letters, digits, dots and hyphens, a slash, then letters, digits, dots, underscores and hyphens)',
  ),
  FLAGS_SECRET: flagsSecret,
  CONTENT_SIGNAL: contentSignal,
  AGENT_ACCESS_LOG: booleanText,
  AGENT_SIGNATURE_DIRECTORIES: signatureDirectories,
  KEYSTATIC_GITHUB_CLIENT_ID: text,
  KEYSTATIC_GITHUB_CLIENT_SECRET: text,
  KEYSTATIC_SECRET: text,
  NEXT_PUBLIC_KEYSTATIC_GITHUB_APP_SLUG: text,
  KEYSTATIC_GITHUB_REPO: matching(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'the repository as owner/name, e.g. cadence/site'),
  LEADS_DATABASE_PATH: databasePath,
  LEADS_RETENTION_DAYS: wholeNumber(1, 3650, 'a whole number of days'),
  LEADS_ADDRESS_SALT: longSecret(16),
  LEADS_WEBHOOK_URL: postUrl('https://crm.example.com/hooks/leads'),
  LEADS_WEBHOOK_SECRET: webhookSecret,
  LEADS_SLACK_WEBHOOK_URL: postUrl('https://hooks.slack.com/services/T000/B000/XXXX'),
  LEADS_DELIVERIES_PER_MINUTE: wholeNumber(1, 100_000, 'a whole number of deliveries per minute'),
  CRON_SECRET: longSecret(16),
}

/** The GitHub settings of the visual editor: all of them, or none (then only `npm run dev` has an editor). */
const EDITOR_GITHUB_VARIABLES = [
  'KEYSTATIC_GITHUB_CLIENT_ID',
  'KEYSTATIC_GITHUB_CLIENT_SECRET',
  'KEYSTATIC_SECRET',
  'NEXT_PUBLIC_KEYSTATIC_GITHUB_APP_SLUG',
  'KEYSTATIC_GITHUB_REPO',
] as const

/** Every variable lib/env.ts reads (tests blank them all but HOST and PORT to isolate the site they start). */
export const SETTING_VARIABLES = Object.keys(SETTINGS) as ReadonlyArray<keyof typeof SETTINGS>

/** Each setting's value, undefined when unset. */
type Settings = { [Name in keyof typeof SETTINGS]: (typeof SETTINGS)[Name] extends Setting<infer T> ? T | undefined : never }

type DeploymentKind = 'local' | 'preview' | 'production'

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
  /** The MCP server name when set by MCP_SERVER_NAME; else it is derived from the base URL (lib/site.ts). */
  mcpServerName: string | undefined
  flagsSecret: string | undefined
  /** Content Signals of robots.txt and of every Markdown answer (`Content-Signal`). */
  contentSignal: string
  /** One JSON line on stdout per agent request (lib/telemetry/access-log.ts); on unless AGENT_ACCESS_LOG=false. */
  agentAccessLog: boolean
  /** Origins of the key directories whose Web Bot Auth signatures are verified (lib/agent-signature); only these are ever fetched. */
  agentSignatureDirectories: readonly string[]
  /**
   * The visual editor's GitHub mode (every save a commit on a branch of `repo`), when all its settings
   * are set; null otherwise. Secrets stay on the server: only `repo` and `appSlug` reach the browser.
   */
  editorGitHub: EditorGitHubSettings | null
  /** The contact form's leads: where they are kept and where they are delivered (lib/leads). */
  leads: LeadSettings
  /** CRON_SECRET: what Vercel Cron sends as `Authorization: Bearer …`; without it the cron route answers 401 to everyone. */
  cronSecret: string | undefined
}

interface EditorGitHubSettings {
  clientId: string
  clientSecret: string
  secret: string
  appSlug: string
  repo: { owner: string; name: string }
}

/**
 * Where leads are kept: Upstash Redis when it is configured (every instance and function shares it);
 * else an SQLite file on the server's disk; on Vercel without Upstash nowhere (a function's disk does
 * not last), and the contact form is not offered.
 */
type LeadStoreSetting = { kind: 'upstash' } | { kind: 'sqlite'; path: string } | null

export interface LeadSettings {
  store: LeadStoreSetting
  /** Salt of the address hash kept with each lead; null: the one kept in the lead store, created on first use. */
  addressSalt: string | null
  /** Leads older than this many days are purged (delivery timer, cron run, npm run leads -- purge). */
  retentionDays: number
  /** Where each lead is POSTed as a signed Standard Webhooks event, with its `whsec_` secret. */
  webhook: { url: string; secret: string } | null
  /** A Slack incoming webhook that gets a message per lead. */
  slackWebhookUrl: string | null
  /** At most this many delivery attempts start per destination per minute, across every instance: a flood waits its turn. */
  deliveriesPerMinute: number
}

/** The SQLite file when LEADS_DATABASE_PATH is unset: in the project directory, outside the build output. */
const DEFAULT_LEADS_DATABASE_PATH = '.data/leads.sqlite'
const DEFAULT_LEADS_RETENTION_DAYS = 180
/** A sales channel reads every lead: twenty a minute is already a flood; Slack's incoming webhooks take one a second. */
const DEFAULT_LEADS_DELIVERIES_PER_MINUTE = 20

/** One wrong setting: the variable and what was expected of it (never the value of a secret). */
export interface ConfigIssue {
  variable: string
  expected: string
}

/** Wrong settings; `message` has one line per variable: `Invalid setting PORT: expected …`. */
export class ConfigError extends Error {
  override name = 'ConfigError'
  readonly issues: readonly ConfigIssue[]

  constructor(issues: ConfigIssue[]) {
    super(issues.map((issue) => `Invalid setting ${issue.variable}: ${issue.expected}`).join('\n'))
    this.issues = issues
  }
}

/** Parses an environment (by default `process.env`) into the site's settings. */
export function parseConfig(env: Record<string, string | undefined>): SiteConfig {
  const values: Record<string, unknown> = {}
  const issues: Array<{ variable: string; expected: string }> = []
  for (const variable of SETTING_VARIABLES) {
    const read = SETTINGS[variable](env[variable])
    if ('expected' in read) issues.push({ variable, expected: read.expected })
    else values[variable] = read.value
  }
  if (issues.length > 0) throw new ConfigError(issues)
  const e = values as Settings
  const port = e.PORT ?? 3000
  const deployment: DeploymentKind = !e.VERCEL_ENV ? 'local' : e.VERCEL_ENV === 'production' ? 'production' : 'preview'
  const upstashUrl = e.UPSTASH_REDIS_REST_URL ?? e.KV_REST_API_URL
  const upstashToken = e.UPSTASH_REDIS_REST_TOKEN ?? e.KV_REST_API_TOKEN
  // The Upstash client throws on a URL it cannot use; at run time that would be a 500 on every agent request.
  if (upstashUrl && !/^https?:\/\/[^\s#$./?].\S*$/.test(upstashUrl)) {
    const variable = e.UPSTASH_REDIS_REST_URL ? 'UPSTASH_REDIS_REST_URL' : 'KV_REST_API_URL'
    throw new ConfigError([{ variable, expected: `expected the https:// REST URL of the database, got ${quote(upstashUrl)}` }])
  }
  if (Boolean(upstashUrl) !== Boolean(upstashToken)) {
    const [url, token] =
      e.UPSTASH_REDIS_REST_URL || e.UPSTASH_REDIS_REST_TOKEN
        ? ['UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN']
        : ['KV_REST_API_URL', 'KV_REST_API_TOKEN']
    throw new ConfigError([{ variable: upstashUrl ? token : url, expected: `set both ${url} and ${token}, or neither` }])
  }
  const editorSet = EDITOR_GITHUB_VARIABLES.filter((name) => e[name] !== undefined)
  if (editorSet.length > 0 && editorSet.length < EDITOR_GITHUB_VARIABLES.length) {
    const missing = EDITOR_GITHUB_VARIABLES.filter((name) => e[name] === undefined)
    throw new ConfigError([
      { variable: missing.join(', '), expected: `set every visual editor GitHub setting (${EDITOR_GITHUB_VARIABLES.join(', ')}), or none` },
    ])
  }
  const [repoOwner = '', repoName = ''] = e.KEYSTATIC_GITHUB_REPO?.split('/') ?? []
  // An unsigned event could not be told from a forged one: the URL needs its secret.
  if (Boolean(e.LEADS_WEBHOOK_URL) !== Boolean(e.LEADS_WEBHOOK_SECRET)) {
    throw new ConfigError([
      {
        variable: e.LEADS_WEBHOOK_URL ? 'LEADS_WEBHOOK_SECRET' : 'LEADS_WEBHOOK_URL',
        expected: 'set both LEADS_WEBHOOK_URL and LEADS_WEBHOOK_SECRET, or neither',
      },
    ])
  }
  const onVercel = e.VERCEL === '1' || e.VERCEL_ENV !== undefined
  return Object.freeze({
    host: e.HOST ?? '127.0.0.1',
    port,
    baseUrl: resolveBaseUrl(e, port),
    deployment,
    onVercel,
    noindex: deployment === 'preview',
    appUrl: (e.APP_URL ?? 'https://app.cadence.example').replace(/\/+$/, ''),
    serviceName: e.SERVICE_NAME ?? DEFAULT_SERVICE_NAME,
    publicAgentAccessDefault: e.PUBLIC_AGENT_ACCESS ?? true,
    disabledRetryAfterSeconds: e.DISABLED_RETRY_AFTER_SECONDS ?? DEFAULT_DISABLED_RETRY_AFTER_SECONDS,
    upstash: upstashUrl && upstashToken ? { url: upstashUrl, token: upstashToken } : null,
    redisKeyPrefix: e.REDIS_KEY_PREFIX ?? 'cadence',
    redisTimeoutMs: e.REDIS_TIMEOUT_MS ?? 500,
    trustProxy: e.TRUST_PROXY ?? [],
    mcpAllowedOrigins: e.MCP_ALLOWED_ORIGINS ?? [],
    mcpServerName: e.MCP_SERVER_NAME,
    flagsSecret: e.FLAGS_SECRET,
    contentSignal: e.CONTENT_SIGNAL ?? DEFAULT_CONTENT_SIGNAL,
    agentAccessLog: e.AGENT_ACCESS_LOG ?? true,
    agentSignatureDirectories: Object.freeze([...(e.AGENT_SIGNATURE_DIRECTORIES ?? DEFAULT_AGENT_SIGNATURE_DIRECTORIES)]),
    editorGitHub:
      e.KEYSTATIC_GITHUB_CLIENT_ID && e.KEYSTATIC_GITHUB_CLIENT_SECRET && e.KEYSTATIC_SECRET && e.NEXT_PUBLIC_KEYSTATIC_GITHUB_APP_SLUG
        ? {
            clientId: e.KEYSTATIC_GITHUB_CLIENT_ID,
            clientSecret: e.KEYSTATIC_GITHUB_CLIENT_SECRET,
            secret: e.KEYSTATIC_SECRET,
            appSlug: e.NEXT_PUBLIC_KEYSTATIC_GITHUB_APP_SLUG,
            repo: { owner: repoOwner, name: repoName },
          }
        : null,
    leads: Object.freeze({
      store: upstashUrl
        ? { kind: 'upstash' as const }
        : onVercel
          ? null
          : { kind: 'sqlite' as const, path: e.LEADS_DATABASE_PATH ?? DEFAULT_LEADS_DATABASE_PATH },
      addressSalt: e.LEADS_ADDRESS_SALT ?? null,
      retentionDays: e.LEADS_RETENTION_DAYS ?? DEFAULT_LEADS_RETENTION_DAYS,
      webhook: e.LEADS_WEBHOOK_URL && e.LEADS_WEBHOOK_SECRET ? { url: e.LEADS_WEBHOOK_URL, secret: e.LEADS_WEBHOOK_SECRET } : null,
      slackWebhookUrl: e.LEADS_SLACK_WEBHOOK_URL ?? null,
      deliveriesPerMinute: e.LEADS_DELIVERIES_PER_MINUTE ?? DEFAULT_LEADS_DELIVERIES_PER_MINUTE,
    }),
    cronSecret: e.CRON_SECRET,
  })
}

/**
 * decisions.md: `BASE_URL` when set; else on Vercel the deployment's own URL (branch or deployment URL on
 * previews, the production URL in production), https; else `http://localhost:${PORT}`.
 */
function resolveBaseUrl(e: Settings, port: number): string {
  if (e.BASE_URL) return toOrigin(e.BASE_URL, 'BASE_URL')
  if (e.VERCEL_ENV === 'production' && e.VERCEL_PROJECT_PRODUCTION_URL) {
    return toOrigin(`https://${e.VERCEL_PROJECT_PRODUCTION_URL}`, 'VERCEL_PROJECT_PRODUCTION_URL')
  }
  const deploymentHost = e.VERCEL_BRANCH_URL ?? e.VERCEL_URL
  if (e.VERCEL_ENV && deploymentHost) return toOrigin(`https://${deploymentHost}`, e.VERCEL_BRANCH_URL ? 'VERCEL_BRANCH_URL' : 'VERCEL_URL')
  return `http://localhost:${port}`
}

/** The base URL must be a bare origin: well-known documents and robots.txt live at the origin root. */
function toOrigin(value: string, variable: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError([{ variable, expected: `expected an absolute http(s) URL such as https://agents.example.com, got ${quote(value)}` }])
  }
  if (!/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    throw new ConfigError([
      {
        variable,
        expected: `expected a bare origin (scheme and host, no path, query or credentials) such as https://agents.example.com, got ${quote(value)}`,
      },
    ])
  }
  return url.origin
}

let cached: SiteConfig | undefined

/**
 * Whether OpenTelemetry has somewhere to send data. The OTEL_* variables belong to the OpenTelemetry SDK,
 * which reads them itself; only their presence is read here, so that without an endpoint nothing is
 * registered and the agent handlers skip every span and metric. VERCEL_OTEL_ENDPOINTS is what Vercel sets
 * when a trace drain or tracing integration is configured for the project.
 */
export interface TelemetryExport {
  traces: boolean
  metrics: boolean
  /** OTEL_METRIC_EXPORT_INTERVAL (ms), the standard variable the metrics SDK leaves to its caller. */
  metricIntervalMs: number
}

/** The OpenTelemetry variables this module reads (their presence and the export interval; the SDK reads the rest). */
const TELEMETRY_VARIABLES = [
  'OTEL_SDK_DISABLED',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  'VERCEL_OTEL_ENDPOINTS',
  'OTEL_METRIC_EXPORT_INTERVAL',
] as const

export function telemetryExportOf(env: Record<string, string | undefined> = process.env): TelemetryExport | null {
  const read = (name: (typeof TELEMETRY_VARIABLES)[number]) => env[name]?.trim() ?? ''
  const set = (name: (typeof TELEMETRY_VARIABLES)[number]) => Boolean(read(name))
  if (/^true$/i.test(read('OTEL_SDK_DISABLED'))) return null
  const shared = set('OTEL_EXPORTER_OTLP_ENDPOINT')
  const traces = shared || set('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') || set('VERCEL_OTEL_ENDPOINTS')
  const metrics = shared || set('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT')
  if (!traces && !metrics) return null
  const interval = Number(read('OTEL_METRIC_EXPORT_INTERVAL'))
  return { traces, metrics, metricIntervalMs: Number.isSafeInteger(interval) && interval > 0 ? interval : 60_000 }
}

/** The settings of this process, parsed from `process.env` on first use. */
export function getConfig(): SiteConfig {
  cached ??= parseConfig(process.env)
  return cached
}

/**
 * Under `next dev` the marketing team previews edits of content/: the content is re-read when a file
 * changed (lib/content/load.ts). Production builds and `npm start` read it once.
 */
export function contentReloadsOnEdit(): boolean {
  reloadsOnEdit ??= process.env.NODE_ENV === 'development'
  return reloadsOnEdit
}

let reloadsOnEdit: boolean | undefined

/**
 * Where the visual editor at /keystatic saves: `github` (a commit per save, through the GitHub App,
 * signed-in editors only) when its GitHub settings are set; `local` (writes content/ on this machine)
 * only under `next dev`; else there is no editor at all, so a production build without the GitHub
 * settings never lets a visitor write a file.
 */
export type EditorMode = { kind: 'github'; github: EditorGitHubSettings } | { kind: 'local' } | null

export function editorMode(config: SiteConfig = getConfig()): EditorMode {
  if (config.editorGitHub) return { kind: 'github', github: config.editorGitHub }
  return contentReloadsOnEdit() ? { kind: 'local' } : null
}

/**
 * A production server (NODE_ENV=production: next build's prerendering, next start, the Vercel
 * functions) loads the content the build checked rather than content/ (lib/content/load.ts).
 */
export function servesBuiltContent(): boolean {
  return process.env.NODE_ENV === 'production'
}

/**
 * Every variable this module reads: the site's settings, OpenTelemetry's switches, and NODE_ENV (set by
 * Next: `development` under `npm run dev`). README's settings table lists each of them.
 */
export const VARIABLES_READ: readonly string[] = [...SETTING_VARIABLES, ...TELEMETRY_VARIABLES, 'NODE_ENV']
