/**
 * Every URL the site publishes is absolute and under the base URL its build was made for, for a
 * configured BASE_URL and a Vercel preview (Vercel production: tests/integration/vercel-build.test.ts);
 * previews are kept out of search indexes; a server started with other settings than its build refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOCUMENT_PATHS } from '../../lib/routes/document-paths.ts'
import { SITE_PAGES } from '../../lib/routes/site-pages.ts'
import { parseConfig } from '../../lib/env.ts'
import { SITE_BUILDS, type SiteBuildName } from '../../harness/site-build.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

/** Namespace identifiers of standards that appear in documents; they name formats, they are not links. */
const STANDARD_IDENTIFIERS = new Set([
  'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
  'https://spec.openapis.org/oas/3.1/dialect/base',
  'http://www.sitemaps.org/schemas/sitemap/0.9',
  'https://json-schema.org/draft/2020-12/schema',
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
  'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
  // The API catalog's media type profile (RFC 9727 §4.2), named where llms.txt and sitemap.md give its media type.
  'https://www.rfc-editor.org/info/rfc9727',
])

const PUBLISHED_PATHS = [
  ...Object.values(DOCUMENT_PATHS),
  ...SITE_PAGES.map((page) => page.markdownPath),
  '/no-such-page.md',
  '/problems/rate_limit_exceeded',
  '/api/agent/v1/health',
  '/api/agent/v1/capabilities',
  '/api/agent/v1/resources',
  '/api/agent/v1/resources/product-overview',
  '/api/agent/v1/resources/developer-resources',
  '/api/agent/v1/resources/agent-boundaries',
  '/api/agent/v1/resources/unknown',
  '/api/agent/v1/unknown',
]

/** Every absolute URL in a text, and every Markdown link or href target that is not absolute. */
function extractUrls(text: string): { absolute: string[]; relative: string[] } {
  const absolute = [...text.matchAll(/\bhttps?:\/\/[^\s"'<>()[\]`\\]+/g)].map((match) => match[0].replace(/[.,;:]+$/, ''))
  // A link with a scheme (https:, mailto:, the editors' cursor: and vscode: install links) is not relative.
  const relative = [...text.matchAll(/\]\((?![a-z][a-z0-9+.-]*:|#)([^)]+)\)|href="(?![a-z][a-z0-9+.-]*:|#)([^"]+)"/g)].map(
    (match) => match[1] ?? match[2] ?? '',
  )
  return { absolute, relative }
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' }
const MCP_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
const mcpCall = (method: string, params: Record<string, unknown>, name?: string): RequestInit => ({
  method: 'POST',
  headers: { ...MCP_HEADERS, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
  body: JSON.stringify({ jsonrpc: '2.0', id: method, method, params: { ...params, _meta: MCP_META } }),
})

/** What the site publishes besides the documents: the pages' Markdown by negotiation and MCP answers. */
const PUBLISHED_REQUESTS: [string, string, RequestInit][] = [
  ...SITE_PAGES.map((page): [string, string, RequestInit] => [`${page.path} as Markdown`, page.path, { headers: { accept: 'text/markdown' } }]),
  ['MCP server/discover', '/mcp', mcpCall('server/discover', {})],
  ['MCP resources/list', '/mcp', mcpCall('resources/list', {})],
  ['MCP tools/list', '/mcp', mcpCall('tools/list', {})],
  ['MCP resources/read', '/mcp', mcpCall('resources/read', { uri: 'service://public/developer-resources' }, 'service://public/developer-resources')],
  ['MCP tools/call', '/mcp', mcpCall('tools/call', { name: 'service.get_public_capabilities', arguments: {} }, 'service.get_public_capabilities')],
]

/** Absolute URLs in a page's head: canonical, alternate representations. */
function headUrls(html: string): string[] {
  return [...html.matchAll(/<link rel="(?:canonical|alternate)"[^>]*href="([^"]+)"/g)].map((match) => match[1] ?? '')
}

async function collectUrls(site: RunningSite): Promise<{ path: string; url: string }[]> {
  const found: { path: string; url: string }[] = []
  const requests: [string, string, RequestInit | undefined][] = [
    ...PUBLISHED_PATHS.map((path): [string, string, undefined] => [path, path, undefined]),
    ...PUBLISHED_REQUESTS,
  ]
  for (const [label, path, init] of requests) {
    const response = await site.fetch(path, init)
    expect(response.status, label).toBe(/\/unknown$|^\/no-such-page/.test(path) ? 404 : 200)
    const { absolute, relative } = extractUrls(await response.text())
    expect(relative, `relative links in ${label}`).toEqual([])
    for (const url of absolute) if (!STANDARD_IDENTIFIERS.has(url)) found.push({ path: label, url })
    for (const match of (response.headers.get('link') ?? '').matchAll(/<([^>]*)>/g)) found.push({ path: `${label} Link header`, url: match[1] ?? '' })
  }
  // The HTML pages link each other root-relatively; their canonical URL and twin are absolute.
  for (const page of SITE_PAGES) {
    const response = await site.fetch(page.path)
    expect(response.status, page.path).toBe(200)
    const urls = headUrls(await response.text())
    expect(urls, `head links of ${page.path}`).toHaveLength(2)
    for (const url of urls) found.push({ path: `${page.path} head`, url })
    for (const match of (response.headers.get('link') ?? '').matchAll(/<([^>]*)>/g))
      found.push({ path: `${page.path} Link header`, url: match[1] ?? '' })
  }
  return found
}

describe.each<{ label: string; build: SiteBuildName; base: string; noindex: boolean }>([
  { label: 'a configured BASE_URL', build: 'test', base: 'https://agents.example.com', noindex: false },
  { label: 'a Vercel preview deployment (its branch URL)', build: 'preview', base: 'https://cadence-git-feature.vercel.app', noindex: true },
])('$label', ({ build, base, noindex }) => {
  let site: RunningSite
  beforeAll(async () => {
    site = await startSite({}, { build })
  }, 180_000)
  afterAll(async () => {
    await site?.stop()
  })

  it(`publishes every URL under ${base}`, async () => {
    const urls = await collectUrls(site)
    expect(urls.length).toBeGreaterThan(50)
    // Log-in and sign-up hand off to the product app: its links are the only ones elsewhere.
    const appUrl = parseConfig(SITE_BUILDS[build]).appUrl
    const handOff = ({ url }: { path: string; url: string }) => url.startsWith(`${appUrl}/login`) || url.startsWith(`${appUrl}/signup`)
    const outside = urls.filter((entry) => entry.url !== base && !entry.url.startsWith(`${base}/`) && !handOff(entry))
    expect(outside).toEqual([])
  })

  it(noindex ? 'asks crawlers not to index anything' : 'lets crawlers index the public surface', async () => {
    const robots = await (await site.fetch('/robots.txt')).text()
    if (noindex) {
      expect(robots).toBe('# Preview deployment: not for indexing.\nUser-agent: *\nDisallow: /\n')
    } else {
      expect(robots).toBe(
        `User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\nDisallow: /keystatic\nDisallow: /api/keystatic\n\nSitemap: ${base}/sitemap.xml\n`,
      )
    }
    for (const path of ['/robots.txt', '/openapi.json', '/api/agent/v1/health', '/llms.txt', '/no-such-page', '/', '/pricing.md']) {
      const response = await site.fetch(path)
      expect(response.headers.get('x-robots-tag'), path).toBe(noindex ? 'noindex' : null)
    }
    for (const page of SITE_PAGES) {
      const html = await (await site.fetch(page.path)).text()
      expect(html.includes('<meta name="robots" content="noindex, nofollow"/>'), page.path).toBe(noindex)
    }
  })
})

describe('a server started with other settings than its build', () => {
  it('refuses to start, in one line naming each setting with both values', async () => {
    await expect(startSite({ BASE_URL: 'https://agents.other.example', SERVICE_NAME: 'acme' })).rejects.toThrow(
      /\nnpm start: This build was made for other settings: base URL \(BASE_URL, or PORT and the Vercel variables\) is "https:\/\/agents\.example\.com" in the build but "https:\/\/agents\.other\.example" here; SERVICE_NAME is "service" in the build but "acme" here\. Start with the build's settings, or run npm run build again with these\.\n$/,
    )
  })
})

describe('an invalid BASE_URL', () => {
  it('stops the server at start with the variable and what is expected', async () => {
    await expect(startSite({ BASE_URL: 'https://agents.example.com/sub/path' })).rejects.toThrow(
      'site exited with 1:\nInvalid setting BASE_URL (from the environment): expected a bare origin (scheme and host, no path, query or credentials) such as https://agents.example.com, got "https://agents.example.com/sub/path"\n',
    )
  })
})
