/**
 * Which browser origins may call POST /mcp (cors.ts: which may read the GET answers), the MCP
 * transport's DNS-rebinding protection (Security): a request with a present `Origin` is served only
 * when that origin is allowed, and on a loopback bind only when its `Host` names this machine or the
 * site. Clients that send no `Origin` (server-side agents) are served.
 *
 * Allowed origins: the site's own origin (BASE_URL), every origin listed in MCP_ALLOWED_ORIGINS
 * (comma-separated, e.g. `https://console.example.com,https://agents.example.org`), and, when the
 * server listens on a loopback address, `http://localhost|127.0.0.1|[::1]:<PORT>`. Browsers send the
 * origin serialized (RFC 6454), as these are: any other value (`null`, a path, not a URL) is refused.
 */
import { localhostAllowedHostnames, validateHostHeader } from '@modelcontextprotocol/server'
import type { SiteConfig } from '../env.ts'

export interface OriginPolicy {
  allowedOrigins: ReadonlySet<string>
  /** Host names a `Host` header may carry, or null when the Host header is not checked (public binds). */
  allowedHostnames: string[] | null
}

export type OriginVerdict = { ok: true } | { ok: false; detail: string }

const LOOPBACK_NAMES = localhostAllowedHostnames()

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  return bare === 'localhost' || bare === '::1' || /^127(?:\.\d{1,3}){3}$/.test(bare)
}

/** `config.baseUrl` and `config.mcpAllowedOrigins` are serialized origins already (lib/env.ts). */
export function buildOriginPolicy(config: Pick<SiteConfig, 'baseUrl' | 'host' | 'port' | 'onVercel' | 'mcpAllowedOrigins'>): OriginPolicy {
  const allowedOrigins = new Set([config.baseUrl, ...config.mcpAllowedOrigins])
  // Behind a platform the Host header is the public name; only a loopback bind pins it.
  if (config.onVercel || !isLoopbackHost(config.host)) return { allowedOrigins, allowedHostnames: null }
  for (const name of LOOPBACK_NAMES) allowedOrigins.add(new URL(`http://${name}:${config.port}`).origin)
  return { allowedOrigins, allowedHostnames: [...LOOPBACK_NAMES, ...[...allowedOrigins].map((origin) => new URL(origin).hostname)] }
}

export function checkOrigin(origin: string | null, host: string | null, policy: OriginPolicy): OriginVerdict {
  if (policy.allowedHostnames && !validateHostHeader(host, policy.allowedHostnames).ok)
    return { ok: false, detail: `The Host header ${host === null ? '(missing)' : JSON.stringify(host)} does not name this server.` }
  if (origin === null || policy.allowedOrigins.has(origin)) return { ok: true }
  return { ok: false, detail: `The Origin ${JSON.stringify(origin)} is not allowed to call this MCP endpoint.` }
}
