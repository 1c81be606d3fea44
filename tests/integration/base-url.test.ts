/**
 * Every URL the site publishes is absolute and under the deployment's base URL, for a configured
 * BASE_URL, a Vercel preview and Vercel production; previews are kept out of search indexes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSite, type RunningSite } from '../support/site-server.ts'

/** Namespace identifiers of standards that appear in documents; they name formats, they are not links. */
const STANDARD_IDENTIFIERS = new Set([
  'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
  'https://spec.openapis.org/oas/3.1/dialect/base',
  'http://www.sitemaps.org/schemas/sitemap/0.9',
  'https://json-schema.org/draft/2020-12/schema',
])

const PUBLISHED_PATHS = [
  '/openapi.json',
  '/llms.txt',
  '/sitemap.xml',
  '/robots.txt',
  '/developers.md',
  '/.well-known/mcp.json',
  '/.well-known/mcp/server-card.json',
  '/mcp.json',
  '/.well-known/oauth-protected-resource',
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
export function extractUrls(text: string): { absolute: string[]; relative: string[] } {
  const absolute = [...text.matchAll(/\bhttps?:\/\/[^\s"'<>()[\]`\\]+/g)].map((match) => match[0].replace(/[.,;:]+$/, ''))
  const relative = [...text.matchAll(/\]\((?!https?:|mailto:|#)([^)]+)\)|href="(?!https?:|mailto:|#)([^"]+)"/g)].map((match) => match[1] ?? match[2] ?? '')
  return { absolute, relative }
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' }
const MCP_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
const mcpCall = (method: string, params: Record<string, unknown>, name?: string): RequestInit => ({
  method: 'POST',
  headers: { ...MCP_HEADERS, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
  body: JSON.stringify({ jsonrpc: '2.0', id: method, method, params: { ...params, _meta: MCP_META } }),
})

/** What the site publishes besides the documents: the homepage's Markdown and MCP answers. */
const PUBLISHED_REQUESTS: [string, string, RequestInit][] = [
  ['homepage Markdown', '/', { headers: { accept: 'text/markdown' } }],
  ['MCP server/discover', '/mcp', mcpCall('server/discover', {})],
  ['MCP resources/list', '/mcp', mcpCall('resources/list', {})],
  ['MCP tools/list', '/mcp', mcpCall('tools/list', {})],
  ['MCP resources/read', '/mcp', mcpCall('resources/read', { uri: 'service://public/developer-resources' }, 'service://public/developer-resources')],
  ['MCP tools/call', '/mcp', mcpCall('tools/call', { name: 'service.get_public_capabilities', arguments: {} }, 'service.get_public_capabilities')],
]

async function collectUrls(site: RunningSite): Promise<{ path: string; url: string }[]> {
  const found: { path: string; url: string }[] = []
  const requests: [string, string, RequestInit | undefined][] = [...PUBLISHED_PATHS.map((path): [string, string, undefined] => [path, path, undefined]), ...PUBLISHED_REQUESTS]
  for (const [label, path, init] of requests) {
    const response = await site.fetch(path, init)
    expect(response.status, label).toBe(path.endsWith('/unknown') ? 404 : 200)
    const { absolute, relative } = extractUrls(await response.text())
    expect(relative, `relative links in ${label}`).toEqual([])
    for (const url of absolute) if (!STANDARD_IDENTIFIERS.has(url)) found.push({ path: label, url })
    for (const match of (response.headers.get('link') ?? '').matchAll(/<([^>]*)>/g)) found.push({ path: `${label} Link header`, url: match[1] ?? '' })
  }
  return found
}

describe.each<{ label: string; env: Record<string, string>; base: string; noindex: boolean }>([
  {
    label: 'a configured BASE_URL',
    env: { BASE_URL: 'https://agents.cadence.example' },
    base: 'https://agents.cadence.example',
    noindex: false,
  },
  {
    label: 'a Vercel preview deployment',
    env: { VERCEL: '1', VERCEL_ENV: 'preview', VERCEL_URL: 'cadence-abc123-team.vercel.app', VERCEL_BRANCH_URL: 'cadence-git-feature-team.vercel.app', VERCEL_PROJECT_PRODUCTION_URL: 'cadence.example' },
    base: 'https://cadence-git-feature-team.vercel.app',
    noindex: true,
  },
  {
    label: 'a Vercel preview without a branch URL',
    env: { VERCEL: '1', VERCEL_ENV: 'preview', VERCEL_URL: 'cadence-abc123-team.vercel.app' },
    base: 'https://cadence-abc123-team.vercel.app',
    noindex: true,
  },
  {
    label: 'Vercel production',
    env: { VERCEL: '1', VERCEL_ENV: 'production', VERCEL_URL: 'cadence-abc123-team.vercel.app', VERCEL_PROJECT_PRODUCTION_URL: 'cadence.example' },
    base: 'https://cadence.example',
    noindex: false,
  },
])('$label', ({ env, base, noindex }) => {
  let site: RunningSite
  beforeAll(async () => {
    site = await startSite(env)
  })
  afterAll(async () => {
    await site?.stop()
  })

  it(`publishes every URL under ${base}`, async () => {
    const urls = await collectUrls(site)
    expect(urls.length).toBeGreaterThan(50)
    const outside = urls.filter(({ url }) => url !== base && !url.startsWith(`${base}/`))
    expect(outside).toEqual([])
  })

  it(noindex ? 'asks crawlers not to index anything' : 'lets crawlers index the public surface', async () => {
    const robots = await (await site.fetch('/robots.txt')).text()
    if (noindex) {
      expect(robots).toBe('# Preview deployment: not for indexing.\nUser-agent: *\nDisallow: /\n')
    } else {
      expect(robots).toBe(`User-agent: *\nAllow: /\nDisallow: /login\n\nSitemap: ${base}/sitemap.xml\n`)
    }
    for (const path of ['/robots.txt', '/openapi.json', '/api/agent/v1/health', '/llms.txt', '/no-such-page']) {
      const response = await site.fetch(path)
      expect(response.headers.get('x-robots-tag'), path).toBe(noindex ? 'noindex' : null)
    }
  })
})

describe('an invalid BASE_URL', () => {
  it('stops the server at start with the variable and what is expected', async () => {
    await expect(startSite({ BASE_URL: 'https://agents.example.com/sub/path' })).rejects.toThrow(
      'site exited with 1:\nInvalid setting BASE_URL (from the environment): expected a bare origin (scheme and host, no path, query or credentials) such as https://agents.example.com, got "https://agents.example.com/sub/path"\n',
    )
  })
})
