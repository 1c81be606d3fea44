import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fillTemplate, loadContent } from '../../lib/content/load.ts'
import { HttpCache, type Origin } from '../support/http-cache.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'

const BASE = 'https://agents.example.com'
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'

// standards.md §9, written out literally so that a change in lib/pages/homepage.ts cannot hide here.
const EXPECTED_LINK =
  '<https://agents.example.com/sitemap.xml>; rel="sitemap"; type="application/xml", ' +
  '<https://agents.example.com/>; rel="alternate"; type="text/markdown", ' +
  '<https://agents.example.com/developers.md>; rel="service-doc"; type="text/markdown", ' +
  '<https://agents.example.com/openapi.json>; rel="service-desc"; type="application/vnd.oai.openapi+json", ' +
  '<https://agents.example.com/.well-known/mcp/server-card.json>; rel="service-desc"; type="application/mcp-server-card+json"; title="MCP server card", ' +
  '<https://agents.example.com/llms.txt>; rel="describedby"; type="text/plain", ' +
  '<https://agents.example.com/api/agent/v1/health>; rel="status"; type="application/json"'

// `npm start` answers `/` without Next's pipeline (lib/server/direct-routes.ts): exactly our `Vary`.
// Through Next (next start, Vercel) the route handler's `Accept` is merged into Next's own router
// keys, never overwritten; tests/integration/next-parity.test.ts checks that side.
const EXPECTED_VARY = 'Accept'
const EXPECTED_EXPOSE =
  'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, RateLimit, Retry-After, API-Version, Link, Deprecation, Sunset, ETag'

const content = loadContent()
const EXPECTED_MARKDOWN = fillTemplate(content.home.body, {
  base_url: BASE,
  app_url: 'https://app.cadence.example',
  service: 'cadence',
  contract_version: '2026-08-25',
  mcp_protocol_version: '2026-07-28',
})

let site: RunningSite

beforeAll(async () => {
  site = await startSite({ BASE_URL: BASE })
})
afterAll(async () => {
  await site?.stop()
})

const get = (accept?: string, init: RequestInit = {}) =>
  site.fetch('/', { ...init, headers: { ...(accept === undefined ? {} : { accept }), ...(init.headers as Record<string, string>) } })

function varyTokens(response: Response): string[] {
  return (response.headers.get('vary') ?? '').split(',').map((token) => token.trim().toLowerCase())
}

function cacheRelevantHeaders(response: Response) {
  return {
    'cache-control': response.headers.get('cache-control'),
    vary: response.headers.get('vary'),
    link: response.headers.get('link'),
    expires: response.headers.get('expires'),
    'set-cookie': response.headers.get('set-cookie'),
    'access-control-allow-origin': response.headers.get('access-control-allow-origin'),
    'access-control-expose-headers': response.headers.get('access-control-expose-headers'),
    'x-content-type-options': response.headers.get('x-content-type-options'),
  }
}

const COMMON_HEADERS = {
  'cache-control': 'private, no-cache',
  vary: EXPECTED_VARY,
  link: EXPECTED_LINK,
  expires: null,
  'set-cookie': null,
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPECTED_EXPOSE,
  'x-content-type-options': 'nosniff',
}

describe('GET / as Markdown', () => {
  it('answers the filled content/home.md as text/markdown; charset=utf-8', async () => {
    const response = await get('text/markdown')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(cacheRelevantHeaders(response)).toEqual(COMMON_HEADERS)
    expect(response.headers.get('etag')).toMatch(/^W\/"markdown-[A-Za-z0-9_-]{22}"$/)
    const body = await response.text()
    expect(body).toBe(EXPECTED_MARKDOWN)
    expect(body.startsWith('# Cadence\n')).toBe(true)
    expect(body).toContain(`- [See pricing](${BASE}/pricing): free for individuals`)
    expect(body).not.toMatch(/\{\{|\}\}/)
  })
})

describe('GET / as HTML', () => {
  it('answers the HTML homepage with the same Link, Vary and cache policy', async () => {
    const response = await get(BROWSER_ACCEPT)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(cacheRelevantHeaders(response)).toEqual(COMMON_HEADERS)
    expect(response.headers.get('etag')).toMatch(/^W\/"html-[A-Za-z0-9_-]{22}"$/)
    const html = await response.text()
    expect(html.startsWith('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">')).toBe(true)
    expect(html).toContain('<link rel="stylesheet" href="/site.css">')
    expect(html).toContain(`<link rel="canonical" href="${BASE}/">`)
    expect(html).toContain(`<nav class="site-nav" aria-label="Main"><ul><li><a href="${BASE}/pricing">Pricing</a></li>`)
    expect(html).toContain('<h1>Cadence</h1>')
    expect(html).not.toContain('noindex')
  })

  it('is what a request without Accept gets', async () => {
    const response = await get()
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(varyTokens(response)).toContain('accept')
  })
})

describe('Accept negotiation over HTTP', () => {
  const cases: Array<[string, 'markdown' | 'html']> = [
    ['text/markdown', 'markdown'],
    ['text/markdown;q=0', 'html'],
    ['text/html, text/markdown;q=0.5', 'html'],
    ['text/markdown, text/html;q=0.9', 'markdown'],
    ['text/markdown;q=0.5, text/html;q=0.5', 'markdown'],
    ['*/*', 'html'],
    ['text/*', 'html'],
    ['text/markdown;q=0.4, */*', 'html'],
    ['application/json', 'html'],
    ['text/x-markdown', 'html'],
    ['TEXT/Markdown; Q=0.9', 'markdown'],
    [',;=garbage"', 'html'],
  ]
  it.each(cases)('Accept: %s → %s', async (accept, expected) => {
    const response = await get(accept)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(expected === 'markdown' ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8')
    expect(response.headers.get('link')).toBe(EXPECTED_LINK)
    expect(response.headers.get('vary')).toBe(EXPECTED_VARY)
    await response.arrayBuffer()
  })
})

/** Fields that describe the message or the connection, not the representation. */
const HOP_BY_HOP_OR_PER_MESSAGE = ['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']

describe('HEAD /', () => {
  it.each([['text/markdown'], [BROWSER_ACCEPT]])('returns the GET headers without a body (Accept: %s)', async (accept) => {
    const getResponse = await get(accept)
    await getResponse.arrayBuffer()
    const headResponse = await get(accept, { method: 'HEAD' })
    expect(headResponse.status).toBe(200)
    const withoutDate = (response: Response) => [...response.headers].filter(([name]) => !HOP_BY_HOP_OR_PER_MESSAGE.includes(name))
    expect(withoutDate(headResponse)).toEqual(withoutDate(getResponse))
    expect(await headResponse.text()).toBe('')
  })
})

describe('conditional GET /', () => {
  it('answers 304 only for the ETag of the variant Accept selects', async () => {
    const markdown = await get('text/markdown')
    const html = await get(BROWSER_ACCEPT)
    await Promise.all([markdown.arrayBuffer(), html.arrayBuffer()])
    const markdownTag = markdown.headers.get('etag') as string
    const htmlTag = html.headers.get('etag') as string
    expect(markdownTag).not.toBe(htmlTag)

    const notModified = await get('text/markdown', { headers: { 'if-none-match': markdownTag } })
    expect(notModified.status).toBe(304)
    expect(await notModified.text()).toBe('')
    expect(notModified.headers.get('etag')).toBe(markdownTag)
    expect(notModified.headers.get('cache-control')).toBe('private, no-cache')
    expect(notModified.headers.get('link')).toBe(EXPECTED_LINK)
    expect(varyTokens(notModified)).toContain('accept')

    // The other variant's tag is no match: the client gets the representation it asked for.
    const crossed = await get('text/markdown', { headers: { 'if-none-match': htmlTag } })
    expect(crossed.status).toBe(200)
    expect(crossed.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(await crossed.text()).toBe(EXPECTED_MARKDOWN)
  })
})

describe('other methods on /', () => {
  it.each([['POST'], ['PUT'], ['PATCH'], ['DELETE']])('%s → 405 with Allow: GET, HEAD', async (method) => {
    const response = await site.fetch('/', { method })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    expect(await response.text()).toBe('Method Not Allowed. The homepage answers GET and HEAD.\n')
  })
})

/*
 * The cache-safety proof. The risk (issue 2, item 6): a shared cache stores the HTML a browser got and
 * hands it to an agent that asked for Markdown, or the reverse. We replay the real server's answers
 * through an RFC 9111 cache model: conforming and Vary-ignoring, shared (CDN/proxy) and private
 * (browser/agent). The controls first show the model does catch the failure.
 */
describe('cache safety of the two variants', () => {
  const realOrigin: Origin = (path, headers) => site.fetch(path, { headers })
  const agent = { accept: 'text/markdown' }
  const browser = { accept: BROWSER_ACCEPT }

  /** A stand-in origin that negotiates like ours but with other caching headers (for the controls). */
  const negotiatingOrigin =
    (headers: Record<string, string>): Origin =>
    async (_path, request) => {
      const markdown = (request.accept ?? '').startsWith('text/markdown')
      return new Response(markdown ? '# md' : '<html>', {
        headers: { ...headers, 'content-type': markdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8' },
      })
    }

  it('control: the model hands HTML to an agent when `/` is an App Router static page (Vary overwritten, s-maxage)', async () => {
    const nextStaticPage = negotiatingOrigin({
      'cache-control': 's-maxage=31536000',
      vary: 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch',
    })
    const cdn = new HttpCache(nextStaticPage, { shared: true, honorVary: true })
    await cdn.get('/', browser)
    const answer = await cdn.get('/', agent)
    expect(answer.source).toBe('hit')
    expect(answer.body).toBe('<html>')
  })

  it('control: `public, max-age` with Vary: Accept is safe only for caches that honour Vary', async () => {
    const publicOrigin = negotiatingOrigin({ 'cache-control': 'public, max-age=300', vary: 'Accept' })
    const conforming = new HttpCache(publicOrigin, { shared: true, honorVary: true })
    await conforming.get('/', browser)
    expect((await conforming.get('/', agent)).body).toBe('# md')
    expect((await conforming.get('/', browser)).source).toBe('hit')

    const urlKeyed = new HttpCache(publicOrigin, { shared: true, honorVary: false })
    await urlKeyed.get('/', browser)
    expect((await urlKeyed.get('/', agent)).body).toBe('<html>')
  })

  for (const honorVary of [true, false]) {
    it(`a shared cache (${honorVary ? 'honouring' : 'ignoring'} Vary) never stores either variant`, async () => {
      const cdn = new HttpCache(realOrigin, { shared: true, honorVary })
      for (const [who, expectedType] of [
        [browser, 'text/html; charset=utf-8'],
        [agent, 'text/markdown; charset=utf-8'],
        [browser, 'text/html; charset=utf-8'],
        [agent, 'text/markdown; charset=utf-8'],
      ] as const) {
        cdn.now += 10
        const answer = await cdn.get('/', who)
        expect(answer.source).toBe('origin')
        expect(answer.headers.get('content-type')).toBe(expectedType)
      }
      expect(cdn.storedCount).toBe(0)
    })

    it(`a private cache (${honorVary ? 'honouring' : 'ignoring'} Vary) revalidates every use and never serves the other variant`, async () => {
      const own = new HttpCache(realOrigin, { shared: false, honorVary })
      const first = await own.get('/', browser)
      expect(first.source).toBe('origin')
      expect(own.storedCount).toBe(1)

      const agentAnswer = await own.get('/', agent)
      expect(agentAnswer.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
      expect(agentAnswer.body).toBe(EXPECTED_MARKDOWN)
      // Honouring Vary, it went to the origin; ignoring it, it revalidated the stored HTML with the
      // HTML's ETag, which does not match the Markdown variant, so the origin answered 200 Markdown.
      expect(agentAnswer.source).toBe('origin')

      const again = await own.get('/', agent)
      expect(again.source).toBe('revalidated')
      expect(again.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
      expect(again.body).toBe(EXPECTED_MARKDOWN)

      const browserAgain = await own.get('/', browser)
      expect(browserAgain.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(browserAgain.body.startsWith('<!DOCTYPE html>')).toBe(true)
      expect(browserAgain.source).toBe(honorVary ? 'revalidated' : 'origin')
    })
  }
})

describe('preview deployment', () => {
  it('marks the HTML homepage noindex and sends X-Robots-Tag on both variants', async () => {
    const preview = await startSite({ VERCEL_ENV: 'preview', VERCEL_URL: 'cadence-git-feature.vercel.app' })
    try {
      const html = await preview.fetch('/')
      expect(html.headers.get('x-robots-tag')).toBe('noindex')
      expect(await html.text()).toContain('<meta name="robots" content="noindex, nofollow">')
      const markdown = await preview.fetch('/', { headers: { accept: 'text/markdown' } })
      expect(markdown.headers.get('x-robots-tag')).toBe('noindex')
      expect(markdown.headers.get('link')).toContain('<https://cadence-git-feature.vercel.app/sitemap.xml>; rel="sitemap"')
      await markdown.arrayBuffer()
    } finally {
      await preview.stop()
    }
  })
})
