/**
 * The running deployment in one object: its settings, validated content, published URLs and the
 * values content placeholders are filled with. Built once per process in production; under `next dev`
 * rebuilt whenever the content was re-read after an edit (lib/content/load.ts), and so is everything
 * derived from it with `perSite`.
 */
import { CONTRACT_TEMPLATE_VALUES } from './content/contract-values.ts'
import { getContent, loadContent, type SiteContent, type TemplateValues } from './content/load.ts'
import { getConfig, type SiteConfig } from './env.ts'
import { buildSiteUrls, type SiteUrls } from './routes/site-urls.ts'

export interface Site {
  config: SiteConfig
  content: SiteContent
  urls: SiteUrls
  templateValues: TemplateValues
}

export function buildSite(config: SiteConfig, content: SiteContent = loadContent()): Site {
  return {
    config,
    content,
    urls: buildSiteUrls(config.baseUrl),
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
