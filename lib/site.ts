/**
 * The running deployment in one object: its settings, validated content, published URLs, the name its
 * MCP server goes by and the values content placeholders are filled with. Built once per process in
 * production; under `next dev` rebuilt whenever the content was re-read after an edit
 * (lib/content/load.ts), and so is everything derived from it with `perSite`.
 */
import { isIP } from 'node:net'
import { CONTRACT_TEMPLATE_VALUES } from './content/contract-values.ts'
import { CONTRACT_VERSION, PRODUCT_NAME } from './contract/constants.ts'
import { getContent, loadContent, type SiteContent, type TemplateValues } from './content/load.ts'
import { getConfig, type SiteConfig } from './env.ts'
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

export function buildSite(config: SiteConfig, content: SiteContent = loadContent()): Site {
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

let cached: Site | undefined

export function getSite(): Site {
  const content = getContent()
  if (cached?.content !== content) cached = buildSite(getConfig(), content)
  return cached
}

/** Derives a value from the site once per site (bodies, documents, catalogs): once per process in production. */
export function perSite<T>(build: (site: Site) => T): () => T {
  let builtFor: Site | undefined
  let value: T | undefined
  return () => {
    const site = getSite()
    if (site !== builtFor) {
      value = build(site)
      builtFor = site
    }
    return value as T
  }
}
