/**
 * Who an agent request comes from: the known AI crawlers and assistants by their User-Agent product
 * token (each operator's published token, matched case-insensitively as a whole token), else the
 * verified Web Bot Auth signer, else the MCP client's `clientInfo.name`, else "other". The class goes on spans, metrics and the access log, so it
 * must stay a small set: unknown MCP client names are normalised and capped (see `mcpClientClass`).
 *
 * Maintained list: add a token when an operator publishes a new one (the operator's crawler docs).
 */

/** Product tokens as operators publish them; the class is the token itself. */
export const KNOWN_AGENT_TOKENS: readonly string[] = [
  // OpenAI
  'GPTBot',
  'ChatGPT-User',
  'OAI-SearchBot',
  // Anthropic
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'anthropic-ai',
  // Perplexity
  'PerplexityBot',
  'Perplexity-User',
  // Google, Apple: the AI-use tokens (their crawlers announce Googlebot/Applebot; these name the AI use)
  'Google-Extended',
  'Google-CloudVertexBot',
  'Applebot-Extended',
  // Common Crawl, ByteDance, Amazon, Meta
  'CCBot',
  'Bytespider',
  'Amazonbot',
  'meta-externalagent',
  'meta-externalfetcher',
  'FacebookBot',
  // Others seen on agent surfaces
  'MistralAI-User',
  'DuckAssistBot',
  'cohere-ai',
  'YouBot',
  'Diffbot',
  'AI2Bot',
  'Timpibot',
  'PetalBot',
]

const OTHER_AGENT_CLASS = 'other'

// Longest first, so `ChatGPT-User` is not read as a shorter token it contains; a token ends at a
// non-token character, so `ClaudeBot` does not match `ClaudeBotany`.
const byLength = [...KNOWN_AGENT_TOKENS].sort((a, b) => b.length - a.length)
const TOKEN_PATTERN = new RegExp(`(?:^|[^A-Za-z0-9_-])(${byLength.map((token) => RegExp.escape(token)).join('|')})(?![A-Za-z0-9_-])`, 'i')
const CANONICAL = new Map(KNOWN_AGENT_TOKENS.map((token) => [token.toLowerCase(), token]))

/** Recent User-Agents and their agent (null: none): a crawler sends the same string all day. */
const recent = new Map<string, string | null>()
const RECENT_LIMIT = 256

/** The known agent a User-Agent names, or undefined. */
export function agentFromUserAgent(userAgent: string | null | undefined): string | undefined {
  if (!userAgent) return undefined
  const known = recent.get(userAgent)
  if (known !== undefined) return known ?? undefined
  const match = TOKEN_PATTERN.exec(userAgent)
  const agent = match ? (CANONICAL.get((match[1] as string).toLowerCase()) ?? null) : null
  if (recent.size >= RECENT_LIMIT) recent.clear()
  recent.set(userAgent, agent)
  return agent ?? undefined
}

/** Distinct MCP client classes kept; past it, new names count as "other" so metrics stay bounded. */
export const MAX_MCP_CLIENT_CLASSES = 64
const mcpClasses = new Set<string>()

/**
 * `mcp:<name>` for an MCP clientInfo name: lower-case letters, digits, `.`, `_` and `-`, at most 40
 * characters. Clients choose their names freely, so only the first `MAX_MCP_CLIENT_CLASSES` distinct
 * ones of this process get their own class.
 */
export function mcpClientClass(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
  if (!cleaned) return undefined
  const value = `mcp:${cleaned}`
  if (mcpClasses.has(value)) return value
  if (mcpClasses.size >= MAX_MCP_CLIENT_CLASSES) return OTHER_AGENT_CLASS
  mcpClasses.add(value)
  return value
}

/**
 * `signed:<host>` for a verified signer (its key directory's origin): agents that run real browsers
 * send a browser's User-Agent, and the signature is what names them. Signers are the trusted list
 * (AGENT_SIGNATURE_DIRECTORIES), so these classes stay few.
 */
function signerClass(signer: string | null | undefined): string | undefined {
  if (!signer) return undefined
  return `signed:${signer.slice(signer.indexOf('//') + 2)}`
}

/**
 * The class of a request: its User-Agent's known agent, else its verified signer, else its MCP client
 * (a name the client chose), else "other".
 */
export function classifyAgent(userAgent: string | null | undefined, mcpClientName?: unknown, signer?: string | null): string {
  return agentFromUserAgent(userAgent) ?? signerClass(signer) ?? mcpClientClass(mcpClientName) ?? OTHER_AGENT_CLASS
}
