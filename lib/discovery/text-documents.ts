/**
 * The text discovery documents: llms.txt (llmstxt.org), sitemap.xml (sitemaps.org 0.9), sitemap.md,
 * robots.txt (RFC 9309) and the Markdown pages under /problems/. Every URL comes from the site's base URL.
 */
import { stringify as toYaml } from 'yaml'
import { CONTRACT_VERSION, MCP_PROTOCOL_VERSION, PRODUCT_NAME, PUBLIC_RESOURCE_IDS, QUOTA } from '../contract/constants.ts'
import { mcpToolNames } from '../contract/operations.ts'
import { PROBLEM_CODES, PROBLEMS, type ProblemCode } from '../contract/problems.ts'
import { CONTENT_TYPES } from '../http/headers.ts'
import { EDITOR_API_PATH, EDITOR_PATH } from '../routes/editor-paths.ts'
import { SITE_PAGES } from '../routes/site-pages.ts'
import type { Site } from '../site.ts'
import { buildPageModels } from '../pages/page-model.ts'
import { buildWebMcpPageTools, signupFormPages, webMcpToolNames } from '../pages/page-tools.ts'
import { DOCUMENT_INFO } from './document-index.ts'
import { DOCUMENT_PATHS, type DocumentName } from '../routes/document-paths.ts'

/** A document or API answer listed for agents: a Markdown link when it is Markdown, else its URL and media type. */
interface Listed {
  title: string
  url: string
  contentType: string
  about: string
}

const listedDocument = (site: Site, name: DocumentName): Listed => ({ ...DOCUMENT_INFO[name], url: `${site.config.baseUrl}${DOCUMENT_PATHS[name]}` })

/** A Markdown link agents can follow as Markdown. */
const markdownLink = (entry: Listed) => `- [${entry.title}](${entry.url}): ${entry.about}`

/**
 * A JSON document or answer, named with its media type and its URL in a code span: a Markdown link
 * would tell agents (and the AFDocs and Vercel scanners) that a page to read as Markdown is there.
 */
const jsonEntry = (entry: Listed) => `- ${entry.title} (${entry.contentType}) at \`${entry.url}\`: ${entry.about}`

/** The agent API's JSON answers agents start from, for llms.txt and sitemap.md alike. */
function apiAnswers(site: Site): Listed[] {
  const { urls } = site
  const json = CONTENT_TYPES.json
  return [
    { title: 'Capabilities', url: urls.capabilities, contentType: json, about: 'machine-readable catalog, limits, versioning, authorization' },
    { title: 'Resource catalog', url: urls.resources, contentType: json, about: 'stable public resources' },
    { title: 'Health', url: urls.health, contentType: json, about: 'liveness and posture' },
  ]
}

/** The three public resources: JSON whose `content` is the resource's Markdown. */
function resourceAnswers(site: Site): Listed[] {
  const { urls, content } = site
  return PUBLIC_RESOURCE_IDS.map((id) => ({
    title: content.resources[id].data.name,
    url: urls.resource(id),
    contentType: `${CONTENT_TYPES.json}, the Markdown in \`content\``,
    about: content.resources[id].data.description,
  }))
}

/**
 * llms.txt (llmstxt.org): the H1, a summary blockquote, then short instructions for agents and file
 * lists. It describes the product (from the homepage's content) as well as the API. Markdown links
 * lead only to Markdown (every page's twin, the developer index, the skill, the sitemap); the JSON
 * documents and answers are listed with their media type and URL, so agents know what they will get.
 */
export function buildLlmsTxt(site: Site): string {
  const { urls, config } = site
  const pageLinks = SITE_PAGES.map((page) => `- [${page.label}](${urls.markdown(page.key)}): Markdown of ${urls.page(page.key)}`)
  const pages = buildPageModels(site)
  const webMcp = webMcpToolNames(buildWebMcpPageTools(site, pages))
  const document = (name: DocumentName) => listedDocument(site, name)
  return [
    `# ${PRODUCT_NAME}`,
    '',
    `> ${site.content.home.data.description}`,
    `> Its public agent surface is read-only and unauthenticated: REST at ${urls.apiBase} and MCP (Streamable HTTP,`,
    `> protocol ${MCP_PROTOCOL_VERSION}, stateless) at ${urls.mcp}. It exposes product, developer and agent-integration metadata only.`,
    '',
    '## Instructions for agents',
    '',
    `- Ask REST for JSON: start at ${urls.capabilities}, then ${urls.resources}. Or connect an MCP client to ${urls.mcp}`,
    `  (tools ${mcpToolNames(config.serviceName).join(', ')}).`,
    `- In a browser with WebMCP, every page registers tools for an agent acting for the visitor: ${webMcp.scripted.join(', ')}`,
    `  (${signupFormPages(pages)
      .map((key) => urls.page(key))
      .join(' and ')} add their sign-up form as ${webMcp.form}). Each page's Markdown lists them.`,
    `- No API key, token or OAuth scope is needed. Quota: ${QUOTA.capacity} requests at once per client IP, refilled at`,
    `  ${QUOTA.refillPerSecond} per second, shared by REST and MCP; on 429 wait Retry-After seconds. Documents like this one cost no quota.`,
    '- Errors are application/problem+json (REST) or JSON-RPC errors (MCP) with a code, a detail and a resolution: follow the resolution.',
    "- Not available: accounts, sign-in, writes, or any user's goals, tasks, mentor rooms or billing.",
    `- Every page answers Markdown when asked with Accept: text/markdown, or at its .md URL below. Contract version ${CONTRACT_VERSION}.`,
    '- Links below lead to Markdown. JSON documents and API answers are listed with their media type and their URL in code.',
    '',
    '## Pages',
    ...pageLinks,
    '',
    '## Docs',
    markdownLink({ ...document('agentSkill'), about: `${DOCUMENT_INFO.agentSkill.about} (listed in ${urls.agentSkills})` }),
    markdownLink(document('sitemapMarkdown')),
    '',
    '## API',
    jsonEntry(document('openapi')),
    ...apiAnswers(site).map(jsonEntry),
    jsonEntry(document('apiCatalog')),
    '',
    '## Resources',
    ...resourceAnswers(site).map(jsonEntry),
    '',
    '## MCP',
    ...(['mcpServerCardAtEndpoint', 'mcpManifest', 'mcpClientConfiguration', 'mcpRegistryServer'] as const).map((name) => jsonEntry(document(name))),
    '',
    '## Discovery',
    ...(['aiCatalog', 'agentSkills', 'protectedResourceMetadata'] as const).map((name) => jsonEntry(document(name))),
    '',
    '## Optional',
    markdownLink(document('llmsFull')),
    '',
  ].join('\n')
}

/**
 * The pages, each with the day its text last changed. Only pages: crawlers and agent-readiness
 * scanners read every sitemap entry as a page to fetch as HTML and as Markdown; the documents are
 * listed in sitemap.md and llms.txt.
 */
function sitemapEntries(site: Site): Array<{ url: string; lastmod: string }> {
  const pages = buildPageModels(site)
  return SITE_PAGES.map((page) => ({ url: site.urls.page(page.key), lastmod: pages[page.key].updated }))
}

/** XML's five special characters as entities: a sitemap location must be XML-escaped (sitemaps.org). */
export const escapeXml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] ?? char)

export function buildSitemapXml(site: Site): string {
  const entries = sitemapEntries(site).map(({ url, lastmod }) => `  <url><loc>${escapeXml(url)}</loc><lastmod>${lastmod}</lastmod></url>`)
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...entries, '</urlset>', ''].join(
    '\n',
  )
}

/**
 * sitemap.md: every page (with its Markdown and the day it last changed), every document with its
 * media type, the API's JSON answers and the problem pages, for agents that read Markdown rather than
 * XML. Its `last_updated` is that of its newest page, as a sitemap's date is its pages' dates.
 */
export function buildSitemapMarkdown(site: Site): string {
  const { urls } = site
  const pages = buildPageModels(site)
  const entries = sitemapEntries(site)
  const link = (entry: Listed) => `- [${entry.title}](${entry.url}) (${entry.contentType}): ${entry.about}`
  const documents = (Object.keys(DOCUMENT_INFO) as DocumentName[]).map((name) => link(listedDocument(site, name)))
  const frontmatter = {
    title: `${PRODUCT_NAME} sitemap`,
    description: `Every page and document of ${urls.home} for AI agents: the pages with their Markdown, the discovery documents, the API.`,
    canonical_url: urls.sitemapMarkdown,
    last_updated: entries
      .map((entry) => entry.lastmod)
      .sort()
      .at(-1),
  }
  return [
    '---',
    toYaml(frontmatter, { lineWidth: 0 }).trimEnd(),
    '---',
    `# ${PRODUCT_NAME} sitemap`,
    '',
    `> Every page of ${urls.home} with its Markdown version, then every document and the API's JSON answers. The index for AI agents: ${urls.llms}.`,
    '',
    '## Pages',
    '',
    ...SITE_PAGES.map(
      (page) =>
        `- [${page.label}](${urls.page(page.key)}) ([Markdown](${urls.markdown(page.key)})), updated ${pages[page.key].updated}: ${pages[page.key].description}`,
    ),
    '',
    '## Documents',
    '',
    ...documents,
    '',
    '## API',
    '',
    ...[...apiAnswers(site), ...resourceAnswers(site)].map(link),
    `- [MCP endpoint](${urls.mcp}) (Streamable HTTP, \`POST\` only): the same content over MCP`,
    '',
    '## Problem types',
    '',
    ...PROBLEM_CODES.map((code) => `- [${PROBLEMS[code].title}](${urls.problemType(code)}) (${CONTENT_TYPES.markdown}): \`${code}\``),
    '',
  ].join('\n')
}

export function buildRobotsTxt(site: Site): string {
  if (site.config.noindex) {
    return ['# Preview deployment: not for indexing.', 'User-agent: *', 'Disallow: /', ''].join('\n')
  }
  // Content-Signal sits in the group (Cloudflare's format); Sitemap is a record of its own. The AI
  // Catalog is announced by every page's Link header and <link rel="ai-catalog">, not by ARD's
  // `Agentmap:` line, which RFC 9309 parsers (Lighthouse's robots.txt audit among them) reject.
  // The visual editor is no page for crawlers (it also answers noindex, or 404 where there is no editor).
  const editor = [EDITOR_PATH, EDITOR_API_PATH].map((path) => `Disallow: ${path}`)
  return ['User-agent: *', `Content-Signal: ${site.config.contentSignal}`, 'Allow: /', ...editor, '', `Sitemap: ${site.urls.sitemap}`, ''].join('\n')
}

/** How long a build's security.txt stays valid: RFC 9116 §2.5.5 recommends less than a year. */
const SECURITY_TXT_VALIDITY_DAYS = 180

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
