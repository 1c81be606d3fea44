/**
 * The headers both representations of a page carry (HTML and its Markdown twin): `Vary: Accept`, the
 * same `Link` relations and the same cache policy. Security headers differ by representation
 * (lib/http/security-headers.ts): the HTML gets the page set, the Markdown the API set. next.config.ts sets them on the HTML pages (which
 * cannot set headers themselves), the twin route sets them on the Markdown, and npm start on both.
 */
import { CONTENT_TYPES, CACHE_CONTROL } from '../http/headers.ts'
import type { HeaderList } from '../http/header-list.ts'
import type { Site } from '../site.ts'
import type { SiteUrls } from '../routes/site-urls.ts'
import { NOT_FOUND_TWIN, type TwinKey } from '../routes/site-pages.ts'

/** The homepage's relations (standards.md §9) come first on `/`; every page has its twin and llms.txt. */
export function pageLinkHeader(urls: SiteUrls, key: TwinKey): string {
  const describedBy = `<${urls.llms}>; rel="describedby"; type="text/plain"`
  if (key === NOT_FOUND_TWIN) return describedBy
  // Lighthouse's ARD audit and ARD clients find the AI Catalog through this relation on any page.
  const aiCatalog = `<${urls.aiCatalog}>; rel="ai-catalog"; type="${CONTENT_TYPES.aiCatalog}"`
  const links =
    key === 'home'
      ? [
          `<${urls.sitemap}>; rel="sitemap"; type="application/xml"`,
          `<${urls.markdown('home')}>; rel="alternate"; type="text/markdown"`,
          `<${urls.developers}>; rel="service-doc"; type="text/markdown"`,
          `<${urls.openapi}>; rel="service-desc"; type="${CONTENT_TYPES.openapi}"`,
          `<${urls.mcpServerCardAtEndpoint}>; rel="service-desc"; type="${CONTENT_TYPES.serverCard}"; title="MCP server card"`,
          // The contract's own MCP description, which clients written from it look for on `/`.
          `<${urls.mcpManifest}>; rel="service-desc"; type="${CONTENT_TYPES.json}"; title="MCP manifest"`,
          describedBy,
          `<${urls.health}>; rel="status"; type="application/json"`,
          `<${urls.apiCatalog}>; rel="api-catalog"; type="application/linkset+json"`,
          aiCatalog,
        ]
      : [`<${urls.markdown(key)}>; rel="alternate"; type="text/markdown"`, describedBy, aiCatalog]
  return [...links, `<${urls.page(key)}>; rel="canonical"`].join(', ')
}

export function pageHeaders(site: Pick<Site, 'urls'>, key: TwinKey): HeaderList {
  return [
    ['Vary', 'Accept'],
    ['Link', pageLinkHeader(site.urls, key)],
    ['Cache-Control', key === NOT_FOUND_TWIN ? CACHE_CONTROL.notFound : CACHE_CONTROL.page],
  ]
}
