/**
 * The text discovery documents: llms.txt (llmstxt.org), sitemap.xml (sitemaps.org 0.9), robots.txt
 * (RFC 9309) and the Markdown pages under /problems/. Every URL comes from the site's base URL.
 */
import { CONTRACT_VERSION, MCP_PROTOCOL_VERSION, PRODUCT_NAME, PUBLIC_RESOURCE_IDS, QUOTA } from '../contract/constants.ts'
import { mcpToolNames } from '../contract/operations.ts'
import { PROBLEMS, type ProblemCode } from '../contract/problems.ts'
import { SITE_PAGES } from '../pages/site-pages.ts'
import type { Site } from '../site.ts'

/**
 * llms.txt (llmstxt.org): the H1, a summary blockquote, then short instructions for agents and file
 * lists. It describes the product (from the homepage's content) as well as the API, and links every
 * page's Markdown twin; llms-full.txt holds all of it in one file.
 */
export function buildLlmsTxt(site: Site): string {
  const { urls, content, config } = site
  const resourceLinks = PUBLIC_RESOURCE_IDS.map(
    (id) => `- [${content.resources[id].data.name}](${urls.resource(id)}): ${content.resources[id].data.description}`,
  )
  const pageLinks = SITE_PAGES.map((page) => `- [${page.label}](${urls.markdown(page.key)}): Markdown of ${urls.page(page.key)}`)
  return [
    `# ${PRODUCT_NAME}`,
    '',
    `> ${content.home.data.description}`,
    `> Its public agent surface is read-only and unauthenticated: REST at ${urls.apiBase} and MCP (Streamable HTTP,`,
    `> protocol ${MCP_PROTOCOL_VERSION}, stateless) at ${urls.mcp}. It exposes product, developer and agent-integration metadata only.`,
    '',
    '## Instructions for agents',
    '',
    `- Ask REST for JSON: start at ${urls.capabilities}, then ${urls.resources}. Or connect an MCP client to ${urls.mcp}`,
    `  (tools ${mcpToolNames(config.serviceName).join(', ')}).`,
    `- No API key, token or OAuth scope is needed. Quota: ${QUOTA.capacity} requests at once per client IP, refilled at`,
    `  ${QUOTA.refillPerSecond} per second, shared by REST and MCP; on 429 wait Retry-After seconds. Documents like this one cost no quota.`,
    '- Errors are application/problem+json (REST) or JSON-RPC errors (MCP) with a code, a detail and a resolution: follow the resolution.',
    "- Not available: accounts, sign-in, writes, or any user's goals, tasks, mentor rooms or billing.",
    `- Every page answers Markdown when asked with Accept: text/markdown, or at its .md URL below. Contract version ${CONTRACT_VERSION}.`,
    '',
    '## Pages',
    ...pageLinks,
    '',
    '## API',
    `- [OpenAPI 3.1.1 description](${urls.openapi}): REST operations, schemas, errors`,
    `- [Capabilities](${urls.capabilities}): machine-readable catalog, limits, versioning, authorization`,
    `- [Resource catalog](${urls.resources}): stable public resources`,
    `- [Health](${urls.health}): liveness and posture`,
    `- [API catalog](${urls.apiCatalog}): RFC 9727 linkset of the APIs and their descriptions`,
    '',
    '## Resources',
    ...resourceLinks,
    '',
    '## MCP',
    `- [MCP server card](${urls.mcpServerCardAtEndpoint}): name, version, endpoint, protocol versions`,
    `- [MCP manifest](${urls.mcpManifest}): server card plus capabilities`,
    `- [MCP client configuration](${urls.mcpCompatibility}): paste into an MCP client`,
    `- [MCP Registry entry](${urls.mcpRegistryServer}): server.json for the official MCP Registry`,
    '',
    '## Docs',
    `- [Developer index](${urls.developers}): entry points, errors, limits, versioning, boundaries`,
    `- [Agent skill](${urls.agentSkill}): how an agent should use this API (listed in ${urls.agentSkills})`,
    `- [AI catalog](${urls.aiCatalog}): the server card, the OpenAPI description and the skill, with urn:air identifiers`,
    `- [Protected resource metadata](${urls.protectedResourceMetadata}): RFC 9728, no authorization servers, no scopes`,
    '',
    '## Optional',
    `- [Everything in one file](${urls.llmsFull}): every page, the developer index and the resources as Markdown`,
    '',
  ].join('\n')
}

/** Public pages and documents listed in the sitemap, in this order. */
export function sitemapUrls(site: Site): string[] {
  const { urls } = site
  return [...SITE_PAGES.map((page) => urls.page(page.key)), urls.llms, urls.openapi]
}

/** XML's five special characters as entities: a sitemap location must be XML-escaped (sitemaps.org). */
export const escapeXml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] ?? char)

export function buildSitemapXml(site: Site): string {
  const entries = sitemapUrls(site).map((url) => `  <url><loc>${escapeXml(url)}</loc><lastmod>${CONTRACT_VERSION}</lastmod></url>`)
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...entries, '</urlset>', ''].join(
    '\n',
  )
}

export function buildRobotsTxt(site: Site): string {
  if (site.config.noindex) {
    return ['# Preview deployment: not for indexing.', 'User-agent: *', 'Disallow: /', ''].join('\n')
  }
  // Content-Signal sits in the group (Cloudflare's format); Agentmap and Sitemap are records of their own.
  return [
    'User-agent: *',
    `Content-Signal: ${site.config.contentSignal}`,
    'Allow: /',
    '',
    `Agentmap: ${site.urls.aiCatalog}`,
    `Sitemap: ${site.urls.sitemap}`,
    '',
  ].join('\n')
}

/** How long a build's security.txt stays valid: RFC 9116 §2.5.5 recommends less than a year. */
export const SECURITY_TXT_VALIDITY_DAYS = 180

/**
 * RFC 9116 security.txt: where to report a vulnerability (the contact page's address), until when
 * this file holds (`Expires`, counted from the build, since the file is built once per deployment).
 */
export function buildSecurityTxt(site: Site, builtAt: Date): string {
  const expires = new Date(builtAt.getTime() + SECURITY_TXT_VALIDITY_DAYS * 86_400_000)
  expires.setUTCHours(0, 0, 0, 0)
  return [
    `Contact: mailto:${site.content.contact.data.email}`,
    `Expires: ${expires.toISOString().replace('.000Z', 'Z')}`,
    'Preferred-Languages: en',
    `Canonical: ${site.urls.securityTxt}`,
    `Policy: ${site.urls.contact}`,
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
