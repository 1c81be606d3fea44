/**
 * The deployment in one object: its settings, validated content, published URLs, the name its MCP
 * server goes by and the values content placeholders are filled with. The running process's own is
 * getSite() (lib/site.ts); the build and the tests build one from given settings and content.
 */
import { isIP } from 'node:net'
import { CONTRACT_TEMPLATE_VALUES } from './content/contract-values.ts'
import type { SiteContent, TemplateValues } from './content/site-content.ts'
import { CONTRACT_VERSION, PRODUCT_NAME } from './contract/constants.ts'
import type { SiteConfig } from './env.ts'
import { buildSiteUrls, type SiteUrls } from './routes/site-urls.ts'

export interface Site {
  config: SiteConfig
  content: SiteContent
  urls: SiteUrls
  /** How the MCP server names itself at run time and in the server card, manifest and agent documents alike. */
  mcpServer: McpServerIdentity
  templateValues: TemplateValues
}

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

export function buildSite(config: SiteConfig, content: SiteContent): Site {
  return {
    config,
    content,
    urls: buildSiteUrls(config.baseUrl),
    mcpServer: buildMcpServerIdentity(config),
    templateValues: {
      base_url: config.baseUrl,
      app_url: config.appUrl,
      service: config.serviceName,
      ...CONTRACT_TEMPLATE_VALUES,
    },
  }
}
