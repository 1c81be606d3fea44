/**
 * How the MCP server names itself, at run time (`io.modelcontextprotocol/serverInfo`, legacy
 * `initialize` `serverInfo`) and in the static server card and manifest: one value for both.
 */
import { CONTRACT_VERSION, SERVICE_DISPLAY_NAME } from '../contract/constants.ts'

export interface McpServerIdentity {
  /** Reverse-DNS `namespace/name` of the deployment's host, e.g. `com.example.agents/public`. */
  name: string
  title: string
  version: string
}

export function buildMcpServerIdentity(baseUrl: string): McpServerIdentity {
  const host = new URL(baseUrl).hostname
  const namespace = host.startsWith('[')
    ? `ipv6-${host.slice(1, -1).replace(/:/g, '-')}`
    : /^[\d.]+$/.test(host)
      ? host
      : host.split('.').reverse().join('.')
  return { name: `${namespace}/public`, title: SERVICE_DISPLAY_NAME, version: CONTRACT_VERSION }
}
