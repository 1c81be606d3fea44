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
import type { SiteConfig } from '../env.ts'

export interface OriginPolicy {
  allowedOrigins: ReadonlySet<string>
  /** Host names a `Host` header may carry, or null when the Host header is not checked (public binds). */
  allowedHostnames: ReadonlySet<string> | null
}

export type OriginVerdict = { ok: true } | { ok: false; detail: string }

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  return bare === 'localhost' || bare === '::1' || /^127(?:\.\d{1,3}){3}$/.test(bare)
}

/** The serialized origin of a URL string, or null when it is not an http(s) URL. */
export function originOf(value: string): string | null {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null
  } catch {
    return null
  }
}

export function buildOriginPolicy(config: Pick<SiteConfig, 'baseUrl' | 'host' | 'port' | 'onVercel' | 'mcpAllowedOrigins'>): OriginPolicy {
  const allowedOrigins = new Set<string>()
  const siteOrigin = originOf(config.baseUrl)
  if (siteOrigin) allowedOrigins.add(siteOrigin)
  for (const entry of config.mcpAllowedOrigins) {
    const origin = originOf(entry)
    if (origin) allowedOrigins.add(origin)
  }
  // Behind a platform the Host header is the public name; only a loopback bind pins it.
  const loopback = !config.onVercel && isLoopbackHost(config.host)
  if (!loopback) return { allowedOrigins, allowedHostnames: null }
  for (const name of LOOPBACK_NAMES) allowedOrigins.add(`http://${name}:${config.port}`)
  const allowedHostnames = new Set(LOOPBACK_NAMES)
  for (const origin of allowedOrigins) allowedHostnames.add(new URL(origin).hostname)
  return { allowedOrigins, allowedHostnames }
}

function hostnameOf(host: string): string | null {
  if (!/^[\x21-\x7e]+$/.test(host)) return null
  try {
    const url = new URL(`http://${host}`)
    return url.username || url.password || url.pathname !== '/' || url.search || url.hash ? null : url.hostname
  } catch {
    return null
  }
}

/** The origin an `Origin` header names, or null for `null`, non-http(s) values and values with a path or credentials. */
function parseOriginHeader(value: string): string | null {
  if (value === 'null') return null
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null
    return url.origin
  } catch {
    return null
  }
}

export function checkOrigin(origin: string | null, host: string | null, policy: OriginPolicy): OriginVerdict {
  if (policy.allowedHostnames) {
    const hostname = host === null ? null : hostnameOf(host)
    if (hostname === null || !policy.allowedHostnames.has(hostname)) {
      return { ok: false, detail: `The Host header ${host === null ? '(missing)' : JSON.stringify(host)} does not name this server.` }
    }
  }
  if (origin === null) return { ok: true }
  const parsed = parseOriginHeader(origin)
  if (parsed === null) return { ok: false, detail: `The Origin ${JSON.stringify(origin)} is not a web origin this server accepts.` }
  if (!policy.allowedOrigins.has(parsed)) return { ok: false, detail: `The Origin ${JSON.stringify(origin)} is not allowed to call this MCP endpoint.` }
  return { ok: true }
}
