/**
 * `GET /`: the homepage in two representations chosen by `Accept` (standards.md §8) — the filled
 * content/home.md as `text/markdown; charset=utf-8`, or the same Markdown rendered into the HTML site
 * chrome. Both bodies and header lists are built once per process; both carry `Vary: Accept`, the
 * same `Link` header (standards.md §9) and the same cache policy. Conditional GET with `ETag`.
 */
import { createHash } from 'node:crypto'
import { fillTemplate } from '../content/load.ts'
import { CONTENT_TYPES, CORS_HEADERS, type HeaderList } from '../http/headers.ts'
import { ifNoneMatchMatches } from '../http/conditional.ts'
import { prefersMarkdown } from '../http/negotiate.ts'
import { prepareBody, respond, type PreparedBody } from '../http/respond.ts'
import { perSite, type Site } from '../site.ts'
import type { SiteUrls } from '../site-urls.ts'
import { escapeHtml, renderHtmlPage } from './html.ts'
import { renderMarkdown, splitSections } from './markdown.ts'

/**
 * Cache policy of both representations. `private`: no shared cache (CDN, proxy) may store either
 * variant, so none can hand the HTML to an agent or the Markdown to a browser — even one that ignores
 * `Vary` (several CDNs key HTML on the URL alone). `no-cache`: a browser's or agent's own cache
 * revalidates every use with the variant's own `ETag`, so a stale or wrong variant is replaced by
 * a 200 and an unchanged one costs a bodiless 304. Bodies are precomputed, so origin cost is small.
 */
export const HOMEPAGE_CACHE_CONTROL = 'private, no-cache'

export const HOMEPAGE_ALLOWED_METHODS = 'GET, HEAD'

/** The `Link` header of both variants: standards.md §9's recommended value, built from the base URL. */
export function buildHomepageLinkHeader(urls: SiteUrls): string {
  return [
    `<${urls.sitemap}>; rel="sitemap"; type="application/xml"`,
    `<${urls.home}>; rel="alternate"; type="text/markdown"`,
    `<${urls.developers}>; rel="service-doc"; type="text/markdown"`,
    `<${urls.openapi}>; rel="service-desc"; type="${CONTENT_TYPES.openapi}"`,
    `<${urls.mcpServerCard}>; rel="service-desc"; type="${CONTENT_TYPES.serverCard}"; title="MCP server card"`,
    `<${urls.llms}>; rel="describedby"; type="text/plain"`,
    `<${urls.health}>; rel="status"; type="application/json"`,
  ].join(', ')
}

export interface HomepageVariant {
  name: 'markdown' | 'html'
  contentType: string
  body: PreparedBody
  etag: string
  /** Every header but Content-Type and Content-Length (set from the body). */
  headers: HeaderList
}

export interface Homepage {
  markdown: HomepageVariant
  html: HomepageVariant
}

/**
 * Weak, because the server may compress the body (content-coding changes the bytes, not the
 * representation); distinct per variant, so a cache revalidating one variant never gets a 304 for the other.
 */
function variantEtag(name: string, body: PreparedBody): string {
  return `W/"${name}-${createHash('sha256').update(body.bytes).digest('base64url').slice(0, 22)}"`
}

function variant(name: HomepageVariant['name'], contentType: string, text: string, link: string): HomepageVariant {
  const body = prepareBody(text)
  const etag = variantEtag(name, body)
  return {
    name,
    contentType,
    body,
    etag,
    headers: [
      ['Vary', 'Accept'],
      ['Link', link],
      ['Cache-Control', HOMEPAGE_CACHE_CONTROL],
      ['ETag', etag],
      ['X-Content-Type-Options', 'nosniff'],
      ...CORS_HEADERS,
    ],
  }
}

/** `<main>` of the HTML homepage: the intro as a hero (with the tagline), each `## ` section as a band. */
export function renderHomepageMain(markdown: string, tagline: string): string {
  const { intro, sections } = splitSections(markdown)
  const taglineHtml = `<p class="hero-tagline">${escapeHtml(tagline)}</p>`
  const introHtml = renderMarkdown(intro)
  const hero = /<\/h1>/.test(introHtml) ? introHtml.replace('</h1>', `</h1>${taglineHtml}`) : taglineHtml + introHtml
  const bands = sections.map((section) => `<section class="band"><div class="container prose">${renderMarkdown(section)}</div></section>`)
  return `<div class="hero"><div class="container prose">${hero}</div></div>${bands.join('')}`
}

export function buildHomepage(site: Site): Homepage {
  const { content, urls, config } = site
  const markdown = fillTemplate(content.home.body, site.templateValues)
  const link = buildHomepageLinkHeader(urls)
  const html = renderHtmlPage({
    urls,
    title: content.home.data.title,
    description: content.home.data.description,
    canonical: urls.home,
    noindex: config.noindex,
    path: '/',
    mainHtml: renderHomepageMain(markdown, content.home.data.tagline),
    footerTagline: content.home.data.tagline,
  })
  return {
    markdown: variant('markdown', CONTENT_TYPES.markdown, markdown, link),
    html: variant('html', CONTENT_TYPES.html, html, link),
  }
}

export const getHomepage = perSite(buildHomepage)

/** The representation an `Accept` value selects. */
export function selectHomepageVariant(homepage: Homepage, accept: string | null): HomepageVariant {
  return prefersMarkdown(accept) ? homepage.markdown : homepage.html
}

const METHOD_NOT_ALLOWED = prepareBody('Method Not Allowed. The homepage answers GET and HEAD.\n')
const ALLOW_HEADERS: HeaderList = [['Allow', HOMEPAGE_ALLOWED_METHODS]]

/** Any other method on `/`: 405 with the `Allow` header RFC 9110 §15.5.6 requires. */
export function handleHomepageMethodNotAllowed(request: Request): Response {
  return respond(request, 405, METHOD_NOT_ALLOWED, CONTENT_TYPES.text, ALLOW_HEADERS)
}

/** GET and HEAD of `/`. */
export function handleHomepageRequest(request: Request): Response {
  const chosen = selectHomepageVariant(getHomepage(), request.headers.get('accept'))
  if (ifNoneMatchMatches(request.headers.get('if-none-match'), chosen.etag)) {
    return respond(request, 304, null, null, chosen.headers)
  }
  return respond(request, 200, chosen.body, chosen.contentType, chosen.headers)
}
