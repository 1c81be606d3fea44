/**
 * The deployment as Vercel builds it: `vercel build --prod`, offline (harness/site-build.ts),
 * then the Build Output API tree it writes. Every page, Markdown twin, document and problem page is
 * prerendered and never revalidated; the functions that run per request are the agent API, MCP and
 * the Flags Explorer (one function) and the proxy, which only Markdown requests and preflights reach;
 * config.json routes Markdown requests to the twins; a shared cache in front of it never hands one
 * variant of a page to the other kind of client; and the agent API's function, run by its own
 * launcher, answers with the production URL.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROBLEM_CODES } from '../../lib/contract/problems.ts'
import { DOCUMENT_PATHS } from '../../lib/routes/document-paths.ts'
import { negotiatedTwin } from '../../lib/pages/negotiation.ts'
import { SITE_PAGES, TWIN_KEYS, twinRoutePath } from '../../lib/routes/site-pages.ts'
import { HttpCache, type Origin } from '../support/http-cache.ts'
import { ensureSiteBuild, SITE_BUILDS } from '../../harness/site-build.ts'
import { runVercelFunction, VercelOutput, type RunningFunction, type VercelRoute } from '../../harness/vercel-output.ts'

const BASE = 'https://cadence.example'
let projectDir: string
let output: VercelOutput

beforeAll(() => {
  projectDir = ensureSiteBuild('vercel')
  output = new VercelOutput(projectDir)
}, 300_000)

const PRERENDERED = [
  ...SITE_PAGES.map((page) => page.path),
  ...TWIN_KEYS.map(twinRoutePath),
  ...Object.values(DOCUMENT_PATHS),
  ...PROBLEM_CODES.map((code) => `/problems/${code}`),
]

describe('what is built once', () => {
  it.each(PRERENDERED)('%s is prerendered with the production URL and never revalidated', (route) => {
    const prerendered = output.prerender(route)
    expect(prerendered, route).not.toBeNull()
    expect(prerendered?.config.expiration).toBe(false)
    const body = prerendered?.body.toString('utf8') ?? ''
    expect(body.length).toBeGreaterThan(0)
    expect(body).not.toMatch(/localhost|127\.0\.0\.1/)
    if (route !== twinRoutePath('not-found') && !route.startsWith('/problems/') && route !== DOCUMENT_PATHS.mcpClientConfiguration) {
      expect(body, route).toContain(BASE)
    }
  })

  it.each([
    ['favicon.ico', 'image/x-icon', '00000100'],
    ['icon.svg', 'image/svg+xml', '3c737667'],
  ])('/%s is a static file the CDN serves as %s, built from app/ like the other icons', (file, contentType, magic) => {
    const overrides = (
      JSON.parse(readFileSync(path.join(output.dir, 'config.json'), 'utf8')) as { overrides: Record<string, { contentType: string }> }
    ).overrides
    expect(overrides[file]?.contentType).toBe(contentType)
    expect(
      readFileSync(path.join(output.dir, 'static', file))
        .subarray(0, 4)
        .toString('hex'),
    ).toBe(magic)
  })

  it.each(SITE_PAGES.map((page) => page.path))("%s is prerendered without Next's client runtime, its one script the static /site.js", (route) => {
    const html = output.prerender(route)?.body.toString('utf8') ?? ''
    expect([...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]).filter((tag) => !/type="application\//.test(tag))).toEqual([
      '<script type="module" src="/site.js">',
    ])
    expect(html).not.toContain('/_next/static/chunks/')
  })

  it("/site.js, the pages' one script, is a static file the CDN serves", () => {
    expect(readFileSync(path.join(output.dir, 'static', 'site.js'), 'utf8')).toContain('modelContext')
  })

  it("runs only the agent API, MCP, the Flags Explorer, the contact form's post and the lead-delivery cron per request, all in one function", () => {
    const functions = output.functions()
    const perRequest = [...functions.keys()].filter(
      (route) =>
        !/\.rsc$|\.segments\//.test(route) &&
        route !== '/_middleware' &&
        !output.prerender(route) &&
        !/^\/(_not-found|_global-error|md\/\[page\]|problems\/\[code\])$/.test(route),
    )
    expect(perRequest.sort()).toEqual(['/.well-known/vercel/flags', '/api/agent/v1/[[...path]]', '/api/cron/deliver-leads', '/contact/send', '/mcp'])
    expect(new Set(perRequest.map((route) => functions.get(route))).size).toBe(1)
  })

  it("bundles no module twice into one function, and reports each function's size", () => {
    const sizes = [...new Set(output.functions().values())].map((dir) => ({
      dir: dir.slice(dir.indexOf('/functions/') + 11),
      ...output.functionSize(dir, projectDir),
    }))
    for (const { dir, bytes, files, duplicateChunks } of sizes) {
      console.log(`vercel function ${dir}: ${(bytes / 1e6).toFixed(2)} MB unzipped, ${files} files`)
      expect(duplicateChunks, dir).toEqual([])
    }
    expect(sizes).toHaveLength(4)
  })
})

/** The routes before Vercel's filesystem lookup: headers, the proxy, rewrites. */
function routesBefore(handle: string): VercelRoute[] {
  const end = output.routes.findIndex((route) => route.handle === handle)
  return output.routes.slice(0, end)
}

const matches = (route: VercelRoute, path: string) => route.src !== undefined && new RegExp(route.src).test(path)

/** A route's `has` and `missing` header conditions against a request's headers. */
function conditionsHold(route: VercelRoute, headers: Record<string, string>): boolean {
  const value = (key: string) => headers[key.toLowerCase()]
  const holds = (condition: { key: string; value?: string }) =>
    value(condition.key) !== undefined && (condition.value === undefined || new RegExp(`^${condition.value}$`).test(value(condition.key) ?? ''))
  return (route.has ?? []).every(holds) && !(route.missing ?? []).some(holds)
}

describe('config.json', () => {
  it("sends only the editor's pages, and requests naming text/markdown, preflights and signed requests for agent answers outside the agent API, to the proxy", () => {
    const proxyRoutes = output.routes.filter((route) => route.middlewarePath)
    expect(proxyRoutes.map((route) => route.has)).toEqual([
      undefined,
      [{ type: 'header', key: 'accept', value: '.*[Tt][Ee][Xx][Tt]/[Mm][Aa][Rr][Kk][Dd][Oo][Ww][Nn].*' }],
      [{ type: 'header', key: 'access-control-request-method' }],
      [{ type: 'header', key: 'signature-input' }],
      [{ type: 'header', key: 'signature' }],
      [{ type: 'header', key: 'signature-agent' }],
    ])
    const [editor, markdown, preflight, ...signed] = proxyRoutes as [VercelRoute, VercelRoute, VercelRoute, ...VercelRoute[]]
    for (const path of ['/keystatic', '/keystatic/branch/main']) expect(matches(editor, path), path).toBe(true)
    for (const path of ['/', '/pricing', '/api/agent/v1/health', '/mcp']) expect(matches(editor, path), path).toBe(false)
    for (const route of [markdown, preflight]) {
      for (const path of ['/', '/pricing', '/no-such-page']) expect(matches(route, path), path).toBe(true)
      for (const path of ['/api/agent/v1/health', '/mcp']) expect(matches(route, path), path).toBe(false)
    }
    // A signed request reaches the proxy for a document, a problem page or a twin; never for a page view, an asset or the agent API.
    for (const route of signed) {
      for (const path of [
        '/openapi.json',
        '/llms.txt',
        '/.well-known/mcp/server-card.json',
        '/pricing.md',
        '/problems/agent_rate_limited',
        '/mcp/server-card',
      ])
        expect(matches(route, path), path).toBe(true)
      for (const path of ['/', '/pricing', '/site.js', '/icon.svg', '/apple-icon', '/api/agent/v1/health', '/mcp'])
        expect(matches(route, path), path).toBe(false)
    }
  })

  it.each(SITE_PAGES.map((page) => ({ ...page })))(
    'rewrites $markdownPath to its twin and gives both variants Vary, Link and the page cache policy',
    ({ path, markdownPath, key }) => {
      const rewrite = output.routes.find((route) => route.dest?.replace('$rscsuff', '') === twinRoutePath(key) && matches(route, markdownPath))
      expect(rewrite, markdownPath).toBeDefined()
      for (const source of [path, markdownPath]) {
        const headers = Object.assign(
          {},
          ...routesBefore('filesystem')
            .filter((route) => route.headers && matches(route, source))
            .map((route) => route.headers),
        )
        expect(headers, source).toMatchObject({ Vary: 'Accept', 'Cache-Control': 'public, max-age=0, must-revalidate, s-maxage=86400' })
        expect(headers.Link, source).toContain(`<${BASE}${markdownPath}>; rel="alternate"; type="text/markdown"`)
      }
    },
  )

  it('answers any other .md URL with the Markdown 404', () => {
    const fallback = output.routes.find((route) => route.dest?.startsWith(twinRoutePath('not-found')))
    expect(fallback && matches(fallback, '/no-such-page.md')).toBe(true)
    expect(output.prerender(twinRoutePath('not-found'))?.config.initialStatus).toBe(404)
  })
})

/**
 * Vercel's edge, emulated from config.json for the pages: header routes for the requested path, the
 * proxy where its route's conditions hold (running the function the proxy runs), then the prerendered
 * answer of the destination with its initial headers, the route headers winning as on Vercel.
 */
const vercelEdge: Origin = async (path, requestHeaders) => {
  const accept = requestHeaders.accept ?? null
  const routes = routesBefore('filesystem').filter((route) => matches(route, path) && conditionsHold(route, requestHeaders))
  const twin = routes.some((route) => route.middlewarePath) ? negotiatedTwin(path, accept) : null
  const rewrite = routes.find((route) => route.dest && !route.middlewarePath)
  const destination = twin ? twinRoutePath(twin) : (rewrite?.dest ?? path)
  const prerendered = output.prerender(destination)
  if (!prerendered) return new Response('not prerendered', { status: 500 })
  const headers = new Headers(prerendered.config.initialHeaders)
  // Vercel serves an HTML fallback as HTML; other fallbacks name their type.
  const { contentType, fsPath } = prerendered.config.fallback
  headers.set('content-type', contentType ?? (fsPath.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream'))
  for (const route of routes) for (const [name, value] of Object.entries(route.headers ?? {})) headers.set(name, value)
  return new Response(new Uint8Array(prerendered.body), { status: prerendered.config.initialStatus ?? 200, headers })
}

describe('cache safety on Vercel', () => {
  const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }
  const agent = { accept: 'text/markdown' }

  it.each(SITE_PAGES.map((page) => ({ ...page })))(
    '$path: the CDN stores both variants and hands each only to its own kind of client',
    async ({ path }) => {
      const cdn = new HttpCache(vercelEdge, { shared: true, honorVary: true })
      const first = { browser: await cdn.get(path, browser), agent: await cdn.get(path, agent) }
      expect(first.browser.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(first.agent.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
      cdn.now += 3600
      const [toBrowser, toAgent] = [await cdn.get(path, browser), await cdn.get(path, agent)]
      expect([toBrowser.source, toAgent.source]).toEqual(['hit', 'hit'])
      expect(toBrowser.body).toBe(first.browser.body)
      expect(toAgent.body).toBe(first.agent.body)
      expect(toBrowser.body.startsWith('<!DOCTYPE html>')).toBe(true)
      expect(toAgent.body.startsWith('---\ntitle: ')).toBe(true)
    },
  )
})

describe("the agent API's function, run by Vercel's launcher", () => {
  let run: RunningFunction

  beforeAll(async () => {
    run = await runVercelFunction(
      output.functions().get('/api/agent/v1/[[...path]]') as string,
      projectDir,
      SITE_BUILDS.vercel,
      '/api/agent/v1/health',
    )
    console.log(`vercel function cold start (process start to first answer): ${run.startMs.toFixed(0)} ms`)
  }, 60_000)
  afterAll(async () => {
    await run?.stop()
  })

  it('answers REST with the production URL and the quota headers, keyed on the platform address', async () => {
    const response = await fetch(`${run.origin}/api/agent/v1/health`, { headers: { 'x-real-ip': '203.0.113.10' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('ratelimit-remaining')).toBe('149')
    expect(await response.json()).toMatchObject({ openapi: `${BASE}/openapi.json`, mcp: { endpoint: `${BASE}/mcp` } })
  })

  it('answers MCP from the same function', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
    const response = await fetch(`${run.origin}/mcp`, {
      method: 'POST',
      headers: {
        'x-real-ip': '203.0.113.11',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'v', method: 'tools/list', params: { _meta: meta } }),
    })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(3)
  })
})

describe('what a new instance of a function loads for its first request', () => {
  /** The URL of every module the instance resolved (Node's module hooks see import and require alike) by its first answer. */
  async function modulesLoadedFor(
    readyPath: string,
    ready: { method?: string; headers?: Record<string, string>; body?: string } = {},
    { route = '/api/agent/v1/[[...path]]', status = 200 }: { route?: string; status?: number } = {},
  ) {
    const dir = mkdtempSync(path.join(tmpdir(), 'module-log-'))
    const log = path.join(dir, 'modules.log')
    const hook = path.join(dir, 'hook.mjs')
    writeFileSync(
      hook,
      "import { appendFileSync } from 'node:fs'\nimport { registerHooks } from 'node:module'\n" +
        `registerHooks({ resolve(specifier, context, next) { const resolved = next(specifier, context); appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n'); return resolved } })\n`,
    )
    try {
      const functionDir = output.functions().get(route) as string
      const run = await runVercelFunction(functionDir, projectDir, { ...SITE_BUILDS.vercel, NODE_OPTIONS: `--import=${hook}` }, readyPath, ready)
      await run.stop()
      expect(run.firstStatus).toBe(status)
      return readFileSync(log, 'utf8').split('\n')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  /**
   * The source modules of the build's chunks among `loaded`, project-relative, as each chunk's source
   * map names them: zod and the MCP SDK are built into chunks from their bundles (.prebundled/).
   */
  function chunkSources(loaded: readonly string[]): Set<string> {
    const sources = new Set<string>()
    for (const url of loaded) {
      const chunk = /\/(\.next\/server\/chunks\/.+\.js)$/.exec(decodeURIComponent(url))?.[1]
      // Turbopack's own runtime chunk has no source map: it is built from no module of the project.
      if (!chunk || !existsSync(path.join(projectDir, `${chunk}.map`))) continue
      const map = JSON.parse(readFileSync(path.join(projectDir, `${chunk}.map`), 'utf8')) as {
        sources?: string[]
        sections?: { map: { sources?: string[] } }[]
      }
      const named = [...(map.sources ?? []), ...(map.sections ?? []).flatMap((section) => section.map.sources ?? [])]
      for (const source of named) sources.add(path.relative(projectDir, path.resolve(projectDir, '.next/server/chunks', decodeURIComponent(source))))
    }
    return sources
  }
  const PREBUNDLED = ['.prebundled/zod.mjs', '.prebundled/mcp-server.mjs']
  const SCHEMA_PACKAGES = /\/node_modules\/(zod|@modelcontextprotocol\/server)\//
  const UPSTASH_LIBRARIES = /\/node_modules\/@upstash\//
  const FLAGS_SDK = /\/node_modules\/flags\//
  // One cold instance answers the REST request whose loaded modules two tests read.
  let restLoaded: Promise<string[]> | undefined
  const modulesLoadedForRest = () => (restLoaded ??= modulesLoadedFor('/api/agent/v1/health'))

  it('answers a REST request without loading zod or the MCP SDK', async () => {
    const loaded = await modulesLoadedForRest()
    const sources = chunkSources(loaded)
    expect(sources).toContain('lib/agent/rest.ts')
    expect(PREBUNDLED.filter((bundle) => sources.has(bundle))).toEqual([])
    expect(loaded.filter((url) => SCHEMA_PACKAGES.test(url))).toEqual([])
  }, 60_000)

  it("answers a REST request without loading the Upstash client, Upstash not being configured, or the Flags SDK, the launcher's request context taking no flag values", async () => {
    const loaded = await modulesLoadedForRest()
    expect(loaded.filter((url) => UPSTASH_LIBRARIES.test(url) || FLAGS_SDK.test(url))).toEqual([])
  }, 60_000)

  it("uses the OpenTelemetry API that Next's server loads from node_modules, no copy of it built into a chunk", async () => {
    const loaded = await modulesLoadedForRest()
    expect([...chunkSources(loaded)].filter((source) => source.startsWith('node_modules/@opentelemetry/api/'))).toEqual([])
    expect(loaded.some((url) => url.endsWith('/node_modules/@opentelemetry/api/build/src/index.js'))).toBe(true)
  }, 60_000)

  it('loads the MCP SDK and zod for an MCP message from their bundles, never from node_modules', async () => {
    const loaded = await modulesLoadedFor('/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    })
    const sources = chunkSources(loaded)
    expect(PREBUNDLED.filter((bundle) => sources.has(bundle))).toEqual(PREBUNDLED)
    expect(loaded.filter((url) => SCHEMA_PACKAGES.test(url))).toEqual([])
  }, 60_000)

  it('answers a contact form post without loading the Upstash client or its rate-limit library, Upstash not being configured', async () => {
    const loaded = await modulesLoadedFor(
      '/contact/send',
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, body: 'name=Ada' },
      { route: '/contact/send', status: 503 },
    )
    expect(loaded.some((url) => url.includes('/node_modules/next/'))).toBe(true)
    expect(loaded.filter((url) => UPSTASH_LIBRARIES.test(url))).toEqual([])
  }, 60_000)

  it('answers the delivery cron route without loading the Upstash client, Upstash not being configured', async () => {
    const loaded = await modulesLoadedFor('/api/cron/deliver-leads', {}, { route: '/api/cron/deliver-leads', status: 401 })
    expect(loaded.some((url) => url.includes('/node_modules/next/'))).toBe(true)
    expect(loaded.filter((url) => UPSTASH_LIBRARIES.test(url))).toEqual([])
  }, 60_000)
})

describe("the contact form's function, run by Vercel's launcher, on a deployment without a durable lead store", () => {
  let run: RunningFunction

  beforeAll(async () => {
    run = await runVercelFunction(output.functions().get('/contact/send') as string, projectDir, SITE_BUILDS.vercel, '/contact/send')
  }, 60_000)
  afterAll(async () => {
    await run?.stop()
  })

  it('answers a post 503 with the prerendered contact page (traced into the function) pointing to the email address', async () => {
    const response = await fetch(`${run.origin}/contact/send`, {
      method: 'POST',
      headers: { 'x-real-ip': '203.0.113.12', 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: 'name=Ada',
    })
    expect(response.status).toBe(503)
    const html = await response.text()
    expect(html).toContain('<title>Contact · Cadence</title>')
    expect(html).toContain('<h2 id="talk-to-sales-heading">Please write to us by email</h2>')
    expect(html).toContain('<p><a class="button" href="mailto:hello@cadence.example">hello@cadence.example</a></p>')
    expect(run.output()).not.toContain('[leads]')
  })
})
