/**
 * The text discovery documents: llms.txt (llmstxt.org), sitemap.xml (sitemaps.org 0.9), robots.txt
 * (RFC 9309) and the Markdown pages under /problems/. Every URL comes from the site's base URL.
 */
import { CONTRACT_VERSION, MCP_PROTOCOL_VERSION, PRODUCT_NAME, PUBLIC_RESOURCE_IDS, QUOTA } from '../contract/constants.ts'
import { PROBLEMS, type ProblemCode } from '../contract/problems.ts'
import type { Site } from '../site.ts'

export function buildLlmsTxt(site: Site): string {
  const { urls, content, config } = site
  const resourceLinks = PUBLIC_RESOURCE_IDS.map(
    (id) => `- [${content.resources[id].data.name}](${urls.resource(id)}): ${content.resources[id].data.description}`,
  )
  return [
    `# ${PRODUCT_NAME} public agent API`,
    '',
    `> ${PRODUCT_NAME} is a goal-execution and mentoring product. Its public agent surface is read-only and unauthenticated:`,
    `> REST at ${urls.apiBase} and MCP (Streamable HTTP, protocol ${MCP_PROTOCOL_VERSION}, stateless) at ${urls.mcp}.`,
    '> It exposes product, developer and agent-integration metadata only; no private data, no writes.',
    '',
    `- No API key, token or OAuth scope is needed. Quota: ${QUOTA.requestsPerWindow} requests per ${QUOTA.windowSeconds} s per client IP, burst ${QUOTA.burst}, shared by REST and MCP.`,
    `- Stable resource ids: ${PUBLIC_RESOURCE_IDS.join(', ')}; MCP URIs ${config.serviceName}://public/<id>.`,
    `- Contract version ${CONTRACT_VERSION}, sent as the API-Version header.`,
    '',
    '## API',
    `- [OpenAPI 3.1.1 description](${urls.openapi}): REST operations, schemas, errors`,
    `- [Capabilities](${urls.capabilities}): machine-readable catalog, limits, versioning, authorization`,
    `- [Resource catalog](${urls.resources}): stable public resources`,
    `- [Health](${urls.health}): liveness and posture`,
    '',
    '## Resources',
    ...resourceLinks,
    '',
    '## MCP',
    `- [MCP server card](${urls.mcpServerCard}): endpoint, transport, protocol versions`,
    `- [MCP manifest](${urls.mcpManifest}): server card plus capabilities`,
    `- [MCP client configuration](${urls.mcpCompatibility}): paste into an MCP client`,
    '',
    '## Docs',
    `- [Developer index](${urls.developers}): entry points, errors, limits, versioning, boundaries`,
    `- [Protected resource metadata](${urls.protectedResourceMetadata}): RFC 9728, no authorization servers, no scopes`,
    '',
    '## Optional',
    `- [Pricing](${urls.pricing}): plans; free for individuals`,
    `- [Contact](${urls.contact}): the team`,
    '',
  ].join('\n')
}

/** Public pages and documents listed in the sitemap, in this order. */
export function sitemapUrls(site: Site): string[] {
  const { urls } = site
  return [urls.home, urls.pricing, urls.contact, urls.login, urls.developers, urls.llms, urls.openapi]
}

/** XML's five special characters as entities: a sitemap location must be XML-escaped (sitemaps.org). */
export const escapeXml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] ?? char)

export function buildSitemapXml(site: Site): string {
  const entries = sitemapUrls(site).map((url) => `  <url><loc>${escapeXml(url)}</loc><lastmod>${CONTRACT_VERSION}</lastmod></url>`)
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...entries, '</urlset>', ''].join('\n')
}

export function buildRobotsTxt(site: Site): string {
  if (site.config.noindex) {
    return ['# Preview deployment: not for indexing.', 'User-agent: *', 'Disallow: /', ''].join('\n')
  }
  return [
    'User-agent: *',
    'Allow: /',
    // The login page only hands off to the product app: nothing to index there.
    'Disallow: /login',
    '',
    `Sitemap: ${site.urls.sitemap}`,
    '',
  ].join('\n')
}

/** The Markdown page a problem `type` URI resolves to. */
export function buildProblemDocument(site: Site, code: ProblemCode): string {
  const problem = PROBLEMS[code]
  const surface = code.startsWith('mcp_') ? `the MCP endpoint ${site.urls.mcp}` : `the REST API under ${site.urls.apiBase}`
  return [
    `# ${problem.title}`,
    '',
    `- Problem type: ${site.urls.problemType(code)}`,
    `- Code: \`${code}\``,
    `- HTTP status: ${problem.status}`,
    `- Returned by: ${surface}`,
    '',
    problem.detail,
    '',
    '## What to do',
    '',
    problem.resolution,
    '',
    `More: ${site.urls.developers}`,
    '',
  ].join('\n')
}

