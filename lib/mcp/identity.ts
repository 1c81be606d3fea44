/**
 * How the MCP server names itself, at run time (`io.modelcontextprotocol/serverInfo`, legacy
 * `initialize` `serverInfo`) and in the static server card and manifest: one value for both.
 */
import { isIP } from 'node:net'
import { CONTRACT_VERSION, PRODUCT_NAME } from '../contract/constants.ts'
import type { SiteConfig } from '../env.ts'

export interface McpServerIdentity {
  /** MCP registry name `<reverse-DNS namespace>/cadence`, e.g. `com.example.agents/cadence`. */
  name: string
  title: string
  version: string
}

const SERVER_NAME = PRODUCT_NAME.toLowerCase()

/**
 * MCP_SERVER_NAME when set; else the base URL's host labels reversed (`agents.cadence.example` →
 * `example.cadence.agents`), or, for an IP literal or a single-label host, which name no domain the
 * deployment owns, `localhost.cadence`: `cadence.localhost` is a loopback name under RFC 6761.
 */
export function buildMcpServerIdentity(config: Pick<SiteConfig, 'baseUrl' | 'mcpServerName'>): McpServerIdentity {
  const host = new URL(config.baseUrl).hostname
  const labels = host.split('.').filter(Boolean)
  const namespace =
    isIP(host.replace(/^\[|\]$/g, '')) !== 0 || labels.length < 2
      ? `localhost.${SERVER_NAME}`
      : labels
          .reverse()
          .join('.')
          .replace(/[^a-zA-Z0-9.-]/g, '-')
  return { name: config.mcpServerName ?? `${namespace}/${SERVER_NAME}`, title: PRODUCT_NAME, version: CONTRACT_VERSION }
}
