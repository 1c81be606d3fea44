/**
 * DNS-rebinding protection for POST /mcp (MCP transport, Security): a request with a present
 * `Origin` is served only when that origin is allowed, and on a loopback bind only when its `Host`
 * names this machine or the site. Clients that send no `Origin` (server-side agents) are served.
 *
 * Allowed origins: the site's own origin (BASE_URL), every origin listed in MCP_ALLOWED_ORIGINS
 * (comma-separated, e.g. `https://console.example.com,https://agents.example.org`), and, when the
 * server listens on a loopback address, `http://localhost|127.0.0.1|[::1]:<PORT>`. An `Origin` of
 * `null` or one that is not a URL is refused.
 */
import { validateHostHeader } from '@modelcontextprotocol/server'
import type { SiteConfig } from '../env.ts'

export interface OriginPolicy {
  allowedOrigins: ReadonlySet<string>
  /** Host names a `Host` header may carry, or null when the Host header is not checked (public binds). */
  allowedHostnames: string[] | null
}

export type OriginVerdict = { ok: true } | { ok: false; detail: string }

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  return bare === 'localhost' || bare === '::1' || /^127(?:\.\d{1,3}){3}$/.test(bare)
}

/** `config.baseUrl` and `config.mcpAllowedOrigins` are serialized origins already (lib/env.ts). */
export function buildOriginPolicy(config: Pick<SiteConfig, 'baseUrl' | 'host' | 'port' | 'onVercel' | 'mcpAllowedOrigins'>): OriginPolicy {
  const allowedOrigins = new Set([config.baseUrl, ...config.mcpAllowedOrigins])
  // Behind a platform the Host header is the public name; only a loopback bind pins it.
  if (config.onVercel || !isLoopbackHost(config.host)) return { allowedOrigins, allowedHostnames: null }
  for (const name of LOOPBACK_NAMES) allowedOrigins.add(`http://${name}:${config.port}`)
  return { allowedOrigins, allowedHostnames: [...LOOPBACK_NAMES, ...[...allowedOrigins].map((origin) => new URL(origin).hostname)] }
}

/** A URL made of exactly an http(s) origin, or null (a path, query, fragment or credentials, or no URL at all). */
function parseBare(value: string): URL | null {
  try {
    const url = new URL(value)
    return /^https?:$/.test(url.protocol) && !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash ? url : null
  } catch {
    return null
  }
}

export function checkOrigin(origin: string | null, host: string | null, policy: OriginPolicy): OriginVerdict {
  if (policy.allowedHostnames && !validateHostHeader(host, policy.allowedHostnames).ok)
    return { ok: false, detail: `The Host header ${host === null ? '(missing)' : JSON.stringify(host)} does not name this server.` }
  if (origin === null) return { ok: true }
  const parsed = parseBare(origin)?.origin
  if (parsed === undefined) return { ok: false, detail: `The Origin ${JSON.stringify(origin)} is not a web origin this server accepts.` }
  if (!policy.allowedOrigins.has(parsed))
    return { ok: false, detail: `The Origin ${JSON.stringify(origin)} is not allowed to call this MCP endpoint.` }
  return { ok: true }
}
