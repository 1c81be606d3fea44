/**
 * What `npm run verify` checks on a running deployment, from outside and read-only. Whether an answer
 * of the agent API or of POST /mcp is the contract's right answer is the oracle's to say
 * (harness/contract-answers.ts, the judge the tests and the soak use too); verify adds what a
 * deployment must show on top: which requests it answers, the headers a CDN must pass on, and URLs
 * under the right origin, from the site's own sources (the operations of lib/contract, the document
 * paths and media types of lib/discovery, the page list and page headers of lib/pages, the header sets
 * of lib/http). A document or page added there is checked here too.
 */
import { type Answer, type AnswerClass, answerClass, answerProblems, type JudgedRequest } from '../../harness/contract-answers.ts'
import {
  API_BASE_PATH,
  API_VERSION_HEADER,
  applicationErrorCode,
  CONTRACT_VERSION,
  DEFAULT_SERVICE_NAME,
  HEADER_MISMATCH,
  MCP_ALLOWED_METHODS,
  MCP_HEADERS,
  MCP_PATH,
  MCP_PROTOCOL_VERSION,
  MCP_SUPPORTED_PROTOCOL_VERSIONS,
  PUBLIC_RESOURCE_IDS,
} from '../../lib/contract/constants.ts'
import { OPERATION_SCHEMAS } from '../../lib/contract/operation-schemas.ts'
import { AGENT_OPERATIONS } from '../../lib/contract/operations.ts'
import { PROBLEM_CODES } from '../../lib/contract/problems.ts'
import { contractRegistry } from '../../lib/contract/schemas.ts'
import { DOCUMENT_PATHS, PROBLEMS_PATH, type DocumentName } from '../../lib/routes/document-paths.ts'
import { DOCUMENTS } from '../../lib/discovery/documents.ts'
import { CACHE_CONTROL, CONTENT_TYPES, EXPOSED_HEADERS } from '../../lib/http/headers.ts'
import type { HeaderList } from '../../lib/http/header-list.ts'
import { PAGE_SECURITY_HEADERS, RESOURCE_SECURITY_HEADERS } from '../../lib/http/security-headers.ts'
import { pageLinkHeader } from '../../lib/pages/page-headers.ts'
import { NOT_FOUND_TWIN, SITE_PAGES, type SitePage } from '../../lib/routes/site-pages.ts'
import { buildSiteUrls, type SiteUrls } from '../../lib/routes/site-urls.ts'
import type { BoundedClient, Fetched, RequestSpec } from './client.ts'
import { Findings, isRecord, parseJson, show } from './expect.ts'

export interface CheckResult {
  name: string
  passed: boolean
  /** On a pass, what was seen; on a failure, its first reasons. */
  detail: string
  /** Every reason it failed (empty on a pass). */
  problems: string[]
}

/** Reasons shown on a failed check's line; the JSON report has them all. */
const REASONS_PER_LINE = 5

export type AgentAccess = 'enabled' | 'disabled' | 'unknown'
export type Indexing = 'preview' | 'production'

export interface CheckOptions {
  /**
   * The origin every absolute URL the site publishes must name (its base URL), or `announced`: the
   * origin the deployment names as its own canonical homepage (one deployment with several hostnames).
   */
  publicOrigin: string | typeof ANNOUNCED_ORIGIN
  /** Let a deployment whose public agent access is switched off pass (it is reported either way). */
  allowDisabled: boolean
  /** What the deployment must be; unset: whatever it says it is, consistently. */
  expectIndexing?: Indexing
}

export interface CheckRun {
  /** The origin the URLs were held to. */
  publicOrigin: string
  checks: CheckResult[]
  agentAccess: AgentAccess
  indexing: Indexing | 'unknown'
}

export const ANNOUNCED_ORIGIN = 'announced'

/** The origin of the homepage's `Link: <…>; rel="canonical"` (lib/pages/page-headers.ts), or null. */
export function canonicalOrigin(home: Fetched): string | null {
  for (const link of (home.headers.get('link') ?? '').split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]+)>(.*)$/.exec(link)
    if (!match || !/;\s*rel="?canonical"?/i.test(match[2] ?? '')) continue
    try {
      const url = new URL(match[1] ?? '')
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin
    } catch {
      // not a URL: as if absent
    }
  }
  return null
}

/** Paths that exist nowhere, to see the 404 answers. */
const MISSING = { resourceId: 'verify-no-such-resource', operation: 'verify-no-such-operation', page: '/verify-no-such-page' }

type CheckBody = (findings: Findings) => Promise<string>

async function runCheck(name: string, body: CheckBody): Promise<CheckResult> {
  const findings = new Findings()
  let detail = ''
  try {
    detail = await body(findings)
  } catch (error) {
    // A check's own mistake on a hostile answer: reported as its failure, without a stack trace.
    findings.add(`could not be checked: ${error instanceof Error ? error.message : String(error)}`)
  }
  const { problems } = findings
  if (problems.length === 0) return { name, passed: true, detail, problems }
  const more = problems.length > REASONS_PER_LINE ? `; and ${problems.length - REASONS_PER_LINE} more` : ''
  return { name, passed: false, detail: `${problems.slice(0, REASONS_PER_LINE).join('; ')}${more}`, problems }
}

const isHttps = (origin: string) => origin.startsWith('https:')

function exactHeaders(findings: Findings, response: Fetched, headers: HeaderList): void {
  for (const [name, value] of headers) findings.header(response, name, value)
}

/** HSTS wherever the deployment is https (lib/http/security-headers.ts sends it site-wide then). */
function transportSecurity(findings: Findings, response: Fetched, publicOrigin: string): void {
  if (isHttps(publicOrigin))
    findings.that(
      /max-age=\d+/.test(response.headers.get('strict-transport-security') ?? ''),
      'Strict-Transport-Security: absent on an https deployment',
    )
}

/**
 * Whether a path is one only this site serves: then an absolute URL to it must name the site's origin.
 * Page paths such as `/login` are left out: the product app has pages of the same names.
 */
function isOwnPath(pathname: string): boolean {
  const documents: string[] = [...Object.values(DOCUMENT_PATHS), ...SITE_PAGES.map((page) => page.markdownPath)]
  return (
    pathname === API_BASE_PATH ||
    pathname.startsWith(`${API_BASE_PATH}/`) ||
    pathname === MCP_PATH ||
    pathname.startsWith(`${MCP_PATH}/`) ||
    pathname.startsWith(`${PROBLEMS_PATH}/`) ||
    documents.includes(pathname)
  )
}

const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/

/**
 * Absolute URLs in a body that point at this site's paths (or at a loopback host) under another
 * origin: a base URL set wrong, a preview's documents naming production, a build made for localhost.
 * Links to other sites (the product app, specifications, schemas) are theirs to name.
 */
function foreignOwnUrls(text: string, publicOrigin: string): { own: number; foreign: string[] } {
  const publicIsLoopback = LOOPBACK_HOST.test(new URL(publicOrigin).hostname)
  const foreign = new Set<string>()
  let own = 0
  for (const match of text.matchAll(/https?:\/\/[^\s"'<>()[\]{}`\\]+/g)) {
    let url: URL
    try {
      url = new URL(match[0].replace(/[.,;:!?*_]+$/, ''))
    } catch {
      continue
    }
    if (url.origin === publicOrigin) own++
    else if (isOwnPath(url.pathname) || (!publicIsLoopback && LOOPBACK_HOST.test(url.hostname))) foreign.add(url.href)
  }
  return { own, foreign: [...foreign] }
}

function originOfUrls(findings: Findings, response: Fetched, publicOrigin: string): number {
  const { own, foreign } = foreignOwnUrls(response.text, publicOrigin)
  findings.that(
    foreign.length === 0,
    `${foreign.length} URL(s) of this site under another origin than ${publicOrigin}: ${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}`,
  )
  return own
}

/** What a CDN must pass on of every REST and MCP answer: no-store, CORS and the data answers' security headers. */
function agentHeaders(findings: Findings, response: Fetched, publicOrigin: string): void {
  findings.cacheControl(response, CACHE_CONTROL.api)
  findings.header(response, 'Access-Control-Allow-Origin', '*')
  findings.listHas(response, 'Access-Control-Expose-Headers', EXPOSED_HEADERS)
  exactHeaders(findings, response, RESOURCE_SECURITY_HEADERS)
  transportSecurity(findings, response, publicOrigin)
}

/**
 * The oracle's verdict on an answer (harness/contract-answers.ts): whether it is the contract's answer
 * to the request, of the class expected. Asked once the answer has the expected status.
 */
function judged(findings: Findings, request: Omit<JudgedRequest, 'target'> & { path: string }, response: Fetched, expected: AnswerClass): void {
  const answer: Answer = { status: response.status, headers: Object.fromEntries(response.headers), body: response.text }
  for (const problem of answerProblems({ ...request, target: request.path }, answer, expected)) findings.add(problem)
}
const { rest, mcp } = answerClass
/** What an MCP request of verify's sent, as the oracle reads it. */
const mcpSent = (spec: RequestSpec) => ({ method: 'POST', path: spec.path, body: parseJson(spec.body ?? '') })

function operationPath(path: string): string {
  return `${API_BASE_PATH}${path.replace('{resourceId}', PUBLIC_RESOURCE_IDS[0])}`
}

/** A 2026-07-28 MCP request as the contract has clients send it: the mirrored headers and the `_meta` envelope. */
function mcpRequest(method: string, params: Record<string, unknown>, id: string, override: Record<string, string> = {}): RequestSpec {
  const name = method === 'tools/call' ? params.name : method === 'resources/read' ? params.uri : undefined
  return {
    method: 'POST',
    path: MCP_PATH,
    spendsQuota: true,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      [MCP_HEADERS.protocolVersion]: MCP_PROTOCOL_VERSION,
      [MCP_HEADERS.method]: method,
      ...(typeof name === 'string' ? { [MCP_HEADERS.name]: name } : {}),
      ...override,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MCP_PROTOCOL_VERSION,
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'cadence-verify', version: CONTRACT_VERSION },
        },
      },
    }),
  }
}

export async function runChecks(client: BoundedClient, options: CheckOptions): Promise<CheckRun> {
  const get = (path: string, headers?: Record<string, string>, spendsQuota = false) => client.request({ path, headers, spendsQuota })
  const getApi = (path: string) => get(path, undefined, true)

  // One answer first: a deployment that does not answer at all gets one clear failure, not fifty.
  const home = await get('/')
  if (!home.answered) {
    return {
      publicOrigin: options.publicOrigin === ANNOUNCED_ORIGIN ? client.origin : options.publicOrigin,
      checks: [{ name: `reach ${client.origin}`, passed: false, detail: `GET /: ${home.error}`, problems: [`GET /: ${home.error}`] }],
      agentAccess: 'unknown',
      indexing: 'unknown',
    }
  }
  const announced = canonicalOrigin(home)
  const publicOrigin = options.publicOrigin === ANNOUNCED_ORIGIN ? (announced ?? client.origin) : options.publicOrigin
  const urls = buildSiteUrls(publicOrigin)

  const health = await getApi(operationPath('/health'))
  const disabledProblem = health.status === 503 && (parseJson(health.text) as { code?: unknown } | undefined)?.code === 'public_agent_access_disabled'
  const agentAccess: AgentAccess = disabledProblem ? 'disabled' : health.status === 200 && !health.error ? 'enabled' : 'unknown'

  const checks: Array<Promise<CheckResult>> = []
  const check = (name: string, body: CheckBody) => checks.push(runCheck(name, body))

  if (options.publicOrigin === ANNOUNCED_ORIGIN) {
    check('public origin announced by / (Link rel="canonical")', async (f) => {
      f.that(announced !== null, 'GET / has no Link rel="canonical" naming an http(s) URL; pass --origin <url>')
      return `${publicOrigin}: every URL of this site must name it`
    })
  }

  check('agent access (public_agent_access)', async (f) => {
    if (agentAccess !== 'disabled') {
      const seen = health.error ?? `status ${health.status}`
      f.that(agentAccess === 'enabled', `GET ${operationPath('/health')}: ${seen}, expected 200 (or 503 public_agent_access_disabled)`)
      return 'enabled'
    }
    const state = `disabled: the agent API answers 503 public_agent_access_disabled, Retry-After ${health.headers.get('retry-after') ?? 'absent'}`
    f.that(options.allowDisabled, `${state} (pass --allow-disabled when it is switched off on purpose)`)
    return `${state} (allowed by --allow-disabled)`
  })

  if (agentAccess === 'disabled') {
    for (const operation of AGENT_OPERATIONS) {
      const path = operationPath(operation.path)
      check(`REST ${operation.operationId} GET ${path} while disabled → 503 problem`, async (f) => {
        const response = await getApi(path)
        if (!f.status(response, 503)) return ''
        judged(f, { method: 'GET', path, baseUrl: publicOrigin, mayBeDisabled: true }, response, rest())
        agentHeaders(f, response, publicOrigin)
        return `503 public_agent_access_disabled, Retry-After ${response.headers.get('retry-after')}`
      })
    }
    check(`MCP POST ${MCP_PATH} server/discover while disabled → 503`, async (f) => {
      const request = mcpRequest('server/discover', {}, 'verify-discover')
      const response = await client.request(request)
      if (!f.status(response, 503)) return ''
      judged(f, { ...mcpSent(request), baseUrl: publicOrigin, mayBeDisabled: true }, response, mcp(503, applicationErrorCode(503)))
      agentHeaders(f, response, publicOrigin)
      return `503, JSON-RPC ${applicationErrorCode(503)} public_agent_access_disabled`
    })
  } else {
    restChecks(check, getApi, urls, publicOrigin)
    mcpChecks(check, client, getApi, publicOrigin)
  }

  documentChecks(check, get, publicOrigin)
  pageChecks(check, get, urls, publicOrigin)

  const results = await Promise.all(checks)
  // Last: it reads every answer the other checks received.
  const indexing = await indexingCheck(client, get, options)
  return { publicOrigin, checks: [...results, indexing.result], agentAccess, indexing: indexing.state }
}

type Check = (name: string, body: CheckBody) => void
type Get = (path: string, headers?: Record<string, string>) => Promise<Fetched>

function restChecks(check: Check, getApi: (path: string) => Promise<Fetched>, urls: SiteUrls, publicOrigin: string): void {
  for (const operation of AGENT_OPERATIONS) {
    const ids = operation.path.includes('{resourceId}') ? PUBLIC_RESOURCE_IDS : [null]
    for (const id of ids) {
      const path = `${API_BASE_PATH}${id === null ? operation.path : operation.path.replace('{resourceId}', id)}`
      check(`REST ${operation.operationId} GET ${path}`, async (f) => {
        const response = await getApi(path)
        if (!f.status(response, 200)) return ''
        judged(f, { method: 'GET', path, baseUrl: publicOrigin }, response, rest())
        const schemaName = contractRegistry.get(OPERATION_SCHEMAS[operation.operationId].response)?.id ?? operation.operationId
        const body = parseJson(response.text)
        agentHeaders(f, response, publicOrigin)
        const remaining = response.headers.get('ratelimit-remaining')
        const own = originOfUrls(f, response, publicOrigin)
        if (id !== null && isRecord(body))
          f.that(body.href === urls.resource(id), `href ${JSON.stringify(body.href)}, expected ${JSON.stringify(urls.resource(id))}`)
        if (operation.operationId === 'getAgentHealth' && isRecord(body)) {
          f.that(body.openapi === urls.openapi, `openapi ${JSON.stringify(body.openapi)}, expected ${JSON.stringify(urls.openapi)}`)
          const mcp = isRecord(body.mcp) ? body.mcp.endpoint : undefined
          f.that(mcp === urls.mcp, `mcp.endpoint ${JSON.stringify(mcp)}, expected ${JSON.stringify(urls.mcp)}`)
        }
        return `200 ${schemaName}, ${API_VERSION_HEADER} ${CONTRACT_VERSION}, RateLimit-Remaining ${remaining}, ${own} URL(s) under ${publicOrigin}`
      })
    }
  }
  check(`REST unknown resource GET ${API_BASE_PATH}/resources/${MISSING.resourceId} → 404 problem`, async (f) => {
    const path = `${API_BASE_PATH}/resources/${MISSING.resourceId}`
    const response = await getApi(path)
    if (!f.status(response, 404)) return ''
    judged(f, { method: 'GET', path, baseUrl: publicOrigin }, response, rest())
    agentHeaders(f, response, publicOrigin)
    return '404 application/problem+json agent_resource_not_found'
  })
  check(`REST unknown operation GET ${API_BASE_PATH}/${MISSING.operation} → 404 problem`, async (f) => {
    const path = `${API_BASE_PATH}/${MISSING.operation}`
    const response = await getApi(path)
    if (!f.status(response, 404)) return ''
    judged(f, { method: 'GET', path, baseUrl: publicOrigin }, response, rest())
    agentHeaders(f, response, publicOrigin)
    return '404 application/problem+json agent_endpoint_not_found'
  })
}

function mcpChecks(check: Check, client: BoundedClient, getApi: (path: string) => Promise<Fetched>, publicOrigin: string): void {
  const resourceId = PUBLIC_RESOURCE_IDS[0]
  const restResource = getApi(`${API_BASE_PATH}/resources/${resourceId}`)
  // The neutral service name (SERVICE_NAME) is the scheme of the resource URIs the site publishes.
  const serviceName = restResource.then((response) => {
    const uri = (parseJson(response.text) as { uri?: unknown } | undefined)?.uri
    return typeof uri === 'string' && uri.includes('://') ? uri.slice(0, uri.indexOf('://')) : DEFAULT_SERVICE_NAME
  })

  check(`MCP POST ${MCP_PATH} server/discover`, async (f) => {
    const request = mcpRequest('server/discover', {}, 'verify-discover')
    const response = await client.request(request)
    if (!f.status(response, 200)) return ''
    judged(f, { ...mcpSent(request), baseUrl: publicOrigin }, response, mcp(200))
    agentHeaders(f, response, publicOrigin)
    return `200, versions ${MCP_SUPPORTED_PROTOCOL_VERSIONS.join(', ')}, resources and tools`
  })

  check(`MCP POST ${MCP_PATH} tools/call read_public_resource = REST resource`, async (f) => {
    const tool = `${await serviceName}.read_public_resource`
    const request = mcpRequest('tools/call', { name: tool, arguments: { resourceId } }, 'verify-call')
    const response = await client.request(request)
    if (!f.status(response, 200)) return ''
    judged(f, { ...mcpSent(request), baseUrl: publicOrigin }, response, mcp(200))
    agentHeaders(f, response, publicOrigin)
    const result = (parseJson(response.text) as { result?: { structuredContent?: unknown } } | undefined)?.result
    f.that(
      JSON.stringify(result?.structuredContent) === JSON.stringify(parseJson((await restResource).text)),
      `structuredContent differs from GET ${API_BASE_PATH}/resources/${resourceId}`,
    )
    return `200, ${tool} returned the same AgentResource as REST`
  })

  check(`MCP POST ${MCP_PATH} mismatched Mcp-Name → 400 ${HEADER_MISMATCH} mcp_header_mismatch`, async (f) => {
    const tool = `${await serviceName}.read_public_resource`
    const wrongName = `${await serviceName}.get_public_capabilities`
    const request = mcpRequest('tools/call', { name: tool, arguments: { resourceId } }, 'verify-mismatch', { [MCP_HEADERS.name]: wrongName })
    const response = await client.request(request)
    if (!f.status(response, 400)) return ''
    judged(f, { ...mcpSent(request), baseUrl: publicOrigin }, response, mcp(400, HEADER_MISMATCH))
    agentHeaders(f, response, publicOrigin)
    return `400, JSON-RPC ${HEADER_MISMATCH} mcp_header_mismatch`
  })

  check(`MCP GET ${MCP_PATH} → 405 mcp_method_not_allowed`, async (f) => {
    const response = await getApi(MCP_PATH)
    if (!f.status(response, 405)) return ''
    judged(f, { method: 'GET', path: MCP_PATH, baseUrl: publicOrigin }, response, mcp(405, applicationErrorCode(405)))
    agentHeaders(f, response, publicOrigin)
    return `405, Allow: ${MCP_ALLOWED_METHODS}, JSON-RPC ${applicationErrorCode(405)}`
  })
}

function documentChecks(check: Check, get: Get, publicOrigin: string): void {
  const documents: Array<{ path: string; contentType: string }> = [
    ...(Object.entries(DOCUMENT_PATHS) as Array<[DocumentName, string]>).map(([name, path]) => ({ path, contentType: DOCUMENTS[name].contentType })),
    ...PROBLEM_CODES.map((code) => ({ path: `${PROBLEMS_PATH}/${code}`, contentType: CONTENT_TYPES.markdown })),
  ]
  for (const document of documents) {
    check(`document ${document.path}`, async (f) => {
      const response = await get(document.path)
      if (!f.status(response, 200)) return ''
      judged(f, { method: 'GET', path: document.path, baseUrl: publicOrigin }, response, answerClass.document())
      f.contentType(response, document.contentType)
      f.cacheControl(response, CACHE_CONTROL.document)
      f.header(response, 'Access-Control-Allow-Origin', '*')
      f.that(response.headers.get('etag') !== null, 'ETag: absent')
      exactHeaders(f, response, RESOURCE_SECURITY_HEADERS)
      transportSecurity(f, response, publicOrigin)
      const own = originOfUrls(f, response, publicOrigin)
      return `200 ${document.contentType.split(';')[0]}, cacheable, CORS, ${own} URL(s) under ${publicOrigin}`
    })
  }
}

/** The page's security headers but its CSP (which names the page's own inline scripts), and the CSP's fixed parts. */
function pageSecurityHeaders(f: Findings, response: Fetched, publicOrigin: string): void {
  exactHeaders(f, response, PAGE_SECURITY_HEADERS)
  transportSecurity(f, response, publicOrigin)
  const csp = response.headers.get('content-security-policy') ?? ''
  const directives = new Map(csp.split(';').map((part) => [part.trim().split(/\s+/)[0] ?? '', part.trim()]))
  f.that(directives.get('default-src') === "default-src 'none'", `Content-Security-Policy: ${show(csp || null)} lacks default-src 'none'`)
  f.that(directives.get('frame-ancestors') === "frame-ancestors 'none'", "Content-Security-Policy lacks frame-ancestors 'none'")
  const scripts = directives.get('script-src') ?? ''
  f.that(
    scripts.startsWith("script-src 'self'") && !scripts.includes("'unsafe-inline'"),
    `script-src ${show(scripts || null)}: expected 'self' and hashes, no 'unsafe-inline'`,
  )
}

function pageChecks(check: Check, get: Get, urls: SiteUrls, publicOrigin: string): void {
  const markdown = { accept: 'text/markdown' }
  for (const page of SITE_PAGES as readonly SitePage[]) {
    const link = pageLinkHeader(urls, page.key)
    check(`page ${page.path} (HTML)`, async (f) => {
      const response = await get(page.path)
      if (!f.status(response, 200)) return ''
      f.contentType(response, CONTENT_TYPES.html)
      f.listHas(response, 'Vary', ['Accept'])
      f.cacheControl(response, CACHE_CONTROL.page)
      f.header(response, 'Link', link)
      pageSecurityHeaders(f, response, publicOrigin)
      originOfUrls(f, response, publicOrigin)
      return 'HTML, Vary: Accept, Link with its Markdown twin, page cache policy, CSP and security headers'
    })
    check(`page ${page.path} as Markdown (Accept: text/markdown) = ${page.markdownPath}`, async (f) => {
      const [negotiated, twin] = await Promise.all([get(page.path, markdown), get(page.markdownPath)])
      for (const response of [negotiated, twin]) {
        if (!f.status(response, 200)) continue
        f.contentType(response, CONTENT_TYPES.markdown)
        f.listHas(response, 'Vary', ['Accept'])
        f.cacheControl(response, CACHE_CONTROL.page)
        f.header(response, 'Link', link)
        exactHeaders(f, response, RESOURCE_SECURITY_HEADERS)
        transportSecurity(f, response, publicOrigin)
      }
      if (!negotiated.error && !twin.error) f.that(negotiated.text === twin.text, `the negotiated Markdown differs from ${page.markdownPath}`)
      originOfUrls(f, twin, publicOrigin)
      return `both ${CONTENT_TYPES.markdown}, the same bytes, Vary: Accept, the same Link`
    })
  }
  check(`page-shaped 404 ${MISSING.page} (HTML and Markdown)`, async (f) => {
    const [html, md] = await Promise.all([get(MISSING.page), get(MISSING.page, markdown)])
    if (f.status(html, 404)) {
      f.contentType(html, CONTENT_TYPES.html)
      f.header(html, 'X-Content-Type-Options', 'nosniff')
    }
    if (f.status(md, 404)) {
      f.contentType(md, CONTENT_TYPES.markdown)
      f.listHas(md, 'Vary', ['Accept'])
      f.cacheControl(md, CACHE_CONTROL.notFound)
      f.header(md, 'Link', pageLinkHeader(urls, NOT_FOUND_TWIN))
      exactHeaders(f, md, RESOURCE_SECURITY_HEADERS)
    }
    return '404 HTML, and 404 Markdown with Vary: Accept'
  })
}

const NOINDEX_META = /<meta\s+name="robots"\s+content="[^"]*noindex/i
/** Whether robots.txt's group for every crawler (`User-agent: *`) disallows everything (RFC 9309). */
export function disallowsEverything(robotsTxt: string): boolean {
  let inStarGroup = false
  let previousWasAgent = false
  for (const raw of robotsTxt.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, '').trim()
    if (!line) continue
    const colon = line.indexOf(':')
    const field = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    if (field === 'user-agent') {
      // Consecutive User-agent lines form one group.
      inStarGroup = (previousWasAgent && inStarGroup) || value === '*'
      previousWasAgent = true
      continue
    }
    previousWasAgent = false
    if (inStarGroup && field === 'disallow' && value === '/') return true
  }
  return false
}

async function indexingCheck(client: BoundedClient, get: Get, options: CheckOptions): Promise<{ result: CheckResult; state: Indexing | 'unknown' }> {
  const answers = client.answers().filter((response) => response.answered)
  const robots = await get(DOCUMENT_PATHS.robots)
  const pages = await Promise.all(SITE_PAGES.map((page) => get(page.path)))
  const tagged = answers.filter((response) => (response.headers.get('x-robots-tag') ?? '').toLowerCase().includes('noindex'))
  const robotsDisallowAll = !robots.error && robots.status === 200 && disallowsEverything(robots.text)
  const metaNoindex = pages.filter((response) => response.status === 200 && NOINDEX_META.test(response.text))
  const saysPreview = tagged.length > 0 || robotsDisallowAll || metaNoindex.length > 0
  const says: Indexing = saysPreview ? 'preview' : 'production'
  const state: Indexing = options.expectIndexing ?? says
  const result = await runCheck(`indexing: ${says}${options.expectIndexing ? ` (expected: ${options.expectIndexing})` : ''}`, async (f) => {
    if (!f.status(robots, 200)) return ''
    const list = (responses: Fetched[]) =>
      `${responses
        .slice(0, 4)
        .map((response) => response.path)
        .join(', ')}${responses.length > 4 ? ', …' : ''}`
    if (state === 'preview') {
      const untagged = answers.filter((response) => !tagged.includes(response))
      f.that(untagged.length === 0, `${untagged.length} answer(s) without X-Robots-Tag: noindex: ${list(untagged)}`)
      f.that(robotsDisallowAll, `${DOCUMENT_PATHS.robots} does not disallow everything (User-agent: * / Disallow: /)`)
      const indexable = pages.filter((response) => response.status === 200 && !metaNoindex.includes(response))
      f.that(indexable.length === 0, `page(s) without <meta name="robots" content="noindex…">: ${list(indexable)}`)
      return `X-Robots-Tag: noindex on all ${answers.length} answers, robots.txt disallows everything, every page has a noindex meta`
    }
    f.that(tagged.length === 0, `${tagged.length} answer(s) with X-Robots-Tag: noindex: ${list(tagged)}`)
    f.that(!robotsDisallowAll, `${DOCUMENT_PATHS.robots} disallows everything`)
    f.that(metaNoindex.length === 0, `page(s) with a noindex meta: ${list(metaNoindex)}`)
    return `indexable: no noindex in ${answers.length} answers, robots.txt allows crawling`
  })
  return { result, state: robots.answered ? says : 'unknown' }
}
