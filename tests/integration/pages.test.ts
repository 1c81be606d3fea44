/**
 * Every page in both representations, on `npm start` and on `next start` (the way Next serves the
 * build, as on Vercel): the HTML for browsers, its Markdown twin at `/<page>.md` and by negotiation,
 * the same Vary, Link and cache policy on both, validators, HEAD, and the Markdown 404. Then the
 * cache-safety proof: an RFC 9111 cache in front of each server never hands one variant to the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SITE_PAGES } from '../../lib/routes/site-pages.ts'
import { HttpCache, type Origin } from '../support/http-cache.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

const BASE = 'https://agents.example.com'
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
const PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate, s-maxage=86400'
const NOT_FOUND_CACHE_CONTROL = 'public, max-age=0, must-revalidate, s-maxage=300'

// Written out literally, so that a change in lib/pages/page-headers.ts cannot hide here.
const EXPECTED_LINK: Record<string, string> = {
  '/':
    `<${BASE}/sitemap.xml>; rel="sitemap"; type="application/xml", ` +
    `<${BASE}/index.md>; rel="alternate"; type="text/markdown", ` +
    `<${BASE}/developers.md>; rel="service-doc"; type="text/markdown", ` +
    `<${BASE}/openapi.json>; rel="service-desc"; type="application/vnd.oai.openapi+json", ` +
    `<${BASE}/mcp/server-card>; rel="service-desc"; type="application/mcp-server-card+json"; title="MCP server card", ` +
    `<${BASE}/.well-known/mcp.json>; rel="service-desc"; type="application/json"; title="MCP manifest", ` +
    `<${BASE}/llms.txt>; rel="describedby"; type="text/plain", ` +
    `<${BASE}/api/agent/v1/health>; rel="status"; type="application/json", ` +
    `<${BASE}/.well-known/api-catalog>; rel="api-catalog"; type="application/linkset+json", ` +
    `<${BASE}/.well-known/ai-catalog.json>; rel="ai-catalog"; type="application/ai-catalog+json", ` +
    `<${BASE}/>; rel="canonical"`,
  '/pricing': `<${BASE}/pricing.md>; rel="alternate"; type="text/markdown", <${BASE}/llms.txt>; rel="describedby"; type="text/plain", <${BASE}/.well-known/ai-catalog.json>; rel="ai-catalog"; type="application/ai-catalog+json", <${BASE}/pricing>; rel="canonical"`,
  '/contact': `<${BASE}/contact.md>; rel="alternate"; type="text/markdown", <${BASE}/llms.txt>; rel="describedby"; type="text/plain", <${BASE}/.well-known/ai-catalog.json>; rel="ai-catalog"; type="application/ai-catalog+json", <${BASE}/contact>; rel="canonical"`,
  '/login': `<${BASE}/login.md>; rel="alternate"; type="text/markdown", <${BASE}/llms.txt>; rel="describedby"; type="text/plain", <${BASE}/.well-known/ai-catalog.json>; rel="ai-catalog"; type="application/ai-catalog+json", <${BASE}/login>; rel="canonical"`,
  '/developers': `<${BASE}/developers.md>; rel="alternate"; type="text/markdown", <${BASE}/llms.txt>; rel="describedby"; type="text/plain", <${BASE}/.well-known/ai-catalog.json>; rel="ai-catalog"; type="application/ai-catalog+json", <${BASE}/developers>; rel="canonical"`,
}

const EXPECTED_FRONTMATTER: Record<string, string> = {
  '/':
    'title: Cadence — goals that get done, with a mentor in the loop\ndescription: Cadence turns an ambitious goal into a weekly plan, keeps you moving with short check-ins, and brings a mentor in the moment you are stuck.\n' +
    `canonical_url: ${BASE}/\nlast_updated: 2026-11-24`,
  '/pricing': `title: Pricing\ndescription: Cadence is free for individuals. Teams and mentoring programmes pay per active member.\ncanonical_url: ${BASE}/pricing\nlast_updated: 2026-11-21`,
  '/contact': `title: Contact\ndescription: Reach the Cadence team about programmes, partnerships, security or the agent API.\ncanonical_url: ${BASE}/contact\nlast_updated: 2026-11-28`,
  '/login': `title: Log in\ndescription: Log in to the Cadence app or create a free account. The public agent API needs no login.\ncanonical_url: ${BASE}/login\nlast_updated: 2026-11-21`,
  '/developers': `title: Cadence developer index\ndescription: Entry points, protocols, errors, limits and policies of the Cadence public agent API (REST and MCP).\ncanonical_url: ${BASE}/developers\nlast_updated: 2026-11-24`,
}

/**
 * The seed's six relations on `/` (contract §4.3) and the documents the seed publishes for each
 * (§1, §4.3), written from the contract, not from the site's code: a relation that stops pointing at
 * one of these fails here.
 */
const SEED_RELATIONS: Array<{ name: string; matches: (link: ParsedLink) => boolean; seedTargets: string[] }> = [
  { name: 'the sitemap', matches: (link) => link.rel === 'sitemap', seedTargets: [`${BASE}/sitemap.xml`] },
  // The Markdown representation of `/`: its twin, whose bytes are those of `/` asked for as Markdown (checked below).
  {
    name: 'the Markdown representation',
    matches: (link) => link.rel === 'alternate' && link.type === 'text/markdown',
    seedTargets: [`${BASE}/index.md`],
  },
  { name: 'the developer catalog', matches: (link) => link.rel === 'service-doc', seedTargets: [`${BASE}/developers.md`] },
  {
    name: 'the OpenAPI description',
    matches: (link) => link.rel === 'service-desc' && link.type === 'application/vnd.oai.openapi+json',
    seedTargets: [`${BASE}/openapi.json`],
  },
  {
    name: 'the MCP description',
    matches: (link) => link.rel === 'service-desc' && link.title?.startsWith('MCP') === true,
    seedTargets: [`${BASE}/.well-known/mcp.json`, `${BASE}/.well-known/mcp/server-card.json`, `${BASE}/mcp.json`],
  },
  { name: 'llms.txt', matches: (link) => link.rel === 'describedby', seedTargets: [`${BASE}/llms.txt`] },
]

interface ParsedLink {
  target: string
  rel?: string
  type?: string
  title?: string
}

/** RFC 8288 links of a `Link` field: `<target>; param="value"; …`, comma-separated. */
function parseLinks(field: string): ParsedLink[] {
  return [...field.matchAll(/<([^>]*)>((?:\s*;\s*[a-z*]+="[^"]*")*)/g)].map(([, target, params]) => ({
    target: target ?? '',
    ...Object.fromEntries([...(params ?? '').matchAll(/([a-z*]+)="([^"]*)"/g)].map(([, key, value]) => [key, value])),
  }))
}

/** Next's router keys, which Next adds to Vary on its own answers. */
const NEXT_VARY = new Set(['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch'])

function varyTokens(response: Response): string[] {
  return (response.headers.get('vary') ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token && !NEXT_VARY.has(token))
}

const servers: Record<'npm start' | 'next start', RunningSite> = {} as never

beforeAll(async () => {
  ;[servers['npm start'], servers['next start']] = await Promise.all([startSite(), startSite({}, { server: 'next-start' })])
})
afterAll(async () => {
  await Promise.all(Object.values(servers).map((site) => site?.stop()))
})

describe.each(['npm start', 'next start'] as const)('%s', (server) => {
  const fetchFrom = (path: string, init?: RequestInit) => servers[server].fetch(path, init)

  describe.each(SITE_PAGES.map((page) => ({ ...page })))('$path', ({ path, markdownPath }) => {
    it('answers browsers with the HTML page: Vary: Accept, the Link relations, a CDN-cacheable policy, a validator', async () => {
      const response = await fetchFrom(path, { headers: { accept: BROWSER_ACCEPT } })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(varyTokens(response)).toEqual(['accept', 'accept-encoding'])
      expect(response.headers.get('link')).toBe(EXPECTED_LINK[path])
      expect(response.headers.get('cache-control')).toBe(PAGE_CACHE_CONTROL)
      expect(response.headers.get('etag')).toMatch(/^(W\/)?"[\w-]+"$/)
      const html = await response.text()
      expect(html).toContain(`<link rel="canonical" href="${BASE}${path}"/>`)
      expect(html).toContain(`<link rel="alternate" type="text/markdown" href="${BASE}${markdownPath}"/>`)
      expect(html).toContain(`<link rel="ai-catalog" href="${BASE}/.well-known/ai-catalog.json" type="application/ai-catalog+json"/>`)
      expect(html).not.toContain('noindex')
    })

    it('starts the body with a note for AI agents naming llms.txt, before the header and the first heading, out of sight and of the tab order', async () => {
      const html = await (await fetchFrom(path, { headers: { accept: BROWSER_ACCEPT } })).text()
      const body = html.slice(html.indexOf('<body>'))
      const note = /<p class="visually-hidden" aria-hidden="true">AI agents: the index of this site is <a href="([^"]+)" tabindex="-1">/.exec(body)
      expect(note?.[1]).toBe(`${BASE}/llms.txt`)
      expect(note?.index).toBeLessThan(body.indexOf('<header'))
      expect(note?.index).toBeLessThan(body.search(/<h[1-6][ >]/))
      expect(body.indexOf('class="skip-link"')).toBeLessThan(note?.index ?? 0)
    })

    it(`answers ${markdownPath} with the Markdown twin: frontmatter (title, description, canonical_url, last_updated), then a blockquote pointing at llms.txt and sitemap.md`, async () => {
      const response = await fetchFrom(markdownPath)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
      expect(varyTokens(response)).toContain('accept')
      expect(response.headers.get('link')).toBe(EXPECTED_LINK[path])
      expect(response.headers.get('cache-control')).toBe(PAGE_CACHE_CONTROL)
      expect(response.headers.get('content-signal')).toBe('search=yes, ai-input=yes, ai-train=no')
      const body = await response.text()
      expect(response.headers.get('x-markdown-tokens')).toBe(String(Math.ceil(body.length / 4)))
      const [, frontmatter, firstLine] = /^---\n([\s\S]*?)\n---\n(.*)\n/.exec(body) ?? []
      expect(frontmatter).toBe(EXPECTED_FRONTMATTER[path])
      expect(firstLine).toBe(
        `> This is the Markdown version of ${BASE}${path}. For the index of this site for AI agents, read ${BASE}/llms.txt; every page and document: ${BASE}/sitemap.md.`,
      )
      // No placeholder left and no HTML tag outside code spans (where `<id>` is a legitimate Markdown text).
      expect(body.replace(/`[^`\n]*`/g, '')).not.toMatch(/\{\{|\}\}|<[a-z]+[ >]/)
    })

    it('answers a Markdown-preferring request for the page with the same bytes and headers as the .md URL', async () => {
      const [negotiated, direct] = await Promise.all([fetchFrom(path, { headers: { accept: 'text/markdown' } }), fetchFrom(markdownPath)])
      expect(negotiated.status).toBe(200)
      for (const name of ['content-type', 'link', 'cache-control', 'etag', 'content-signal', 'x-markdown-tokens']) {
        expect(negotiated.headers.get(name), name).toBe(direct.headers.get(name))
      }
      expect(varyTokens(negotiated)).toEqual(varyTokens(direct))
      expect(await negotiated.text()).toBe(await direct.text())
    })

    it('HEAD returns the GET headers of each variant without a body', async () => {
      for (const accept of [BROWSER_ACCEPT, 'text/markdown']) {
        const [get, head] = [await fetchFrom(path, { headers: { accept } }), await fetchFrom(path, { method: 'HEAD', headers: { accept } })]
        await get.arrayBuffer()
        expect(head.status).toBe(200)
        for (const name of ['content-type', 'link', 'vary', 'cache-control', 'etag'])
          expect(head.headers.get(name), `${accept} ${name}`).toBe(get.headers.get(name))
        expect(await head.text()).toBe('')
      }
    })
  })

  it.each(['text/html', 'text/markdown'])(
    "/ asked for as %s links each of the seed's six relations to a document the seed publishes, each answering 200",
    async (accept) => {
      const response = await fetchFrom('/', { headers: { accept } })
      await response.arrayBuffer()
      const links = parseLinks(response.headers.get('link') ?? '')
      for (const relation of SEED_RELATIONS) {
        const found = links.filter(relation.matches)
        expect(found.length, relation.name).toBeGreaterThan(0)
        // At least one link of each relation names a seed document (the MCP description also has the server card at its MCP URL).
        const seedLinks = found.filter((link) => relation.seedTargets.includes(link.target))
        expect(
          seedLinks.map((link) => link.target),
          relation.name,
        ).not.toEqual([])
        for (const link of seedLinks) {
          const target = await fetchFrom(new URL(link.target).pathname)
          expect(target.status, link.target).toBe(200)
          await target.arrayBuffer()
        }
      }
      const [twin, negotiated] = await Promise.all([fetchFrom('/index.md'), fetchFrom('/', { headers: { accept: 'text/markdown' } })])
      expect(await twin.text()).toBe(await negotiated.text())
    },
  )

  it.each([
    ['text/markdown', 'markdown'],
    ['text/markdown;q=0', 'html'],
    ['text/markdown; q=0.0', 'html'],
    ['text/html, text/markdown;q=0.5', 'html'],
    ['text/markdown, text/html;q=0.9', 'markdown'],
    ['text/markdown;q=0.5, text/html;q=0.5', 'markdown'],
    ['*/*', 'html'],
    ['text/*', 'html'],
    ['text/markdown;q=0.4, */*', 'html'],
    ['application/json', 'html'],
    ['text/x-markdown', 'html'],
    ['TEXT/Markdown; Q=0.9', 'markdown'],
    ['text/markdown;q=garbage', 'html'],
    [',;=garbage"', 'html'],
  ])('Accept: %s → %s', async (accept, expected) => {
    const response = await fetchFrom('/pricing', { headers: { accept } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(expected === 'markdown' ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8')
    expect(response.headers.get('link')).toBe(EXPECTED_LINK['/pricing'])
    expect(varyTokens(response)).toContain('accept')
    await response.arrayBuffer()
  })

  it('answers a .md URL that names no page, and a Markdown request for a missing page, with the Markdown 404 and its frontmatter', async () => {
    for (const [path, accept] of [
      ['/no-such-page.md', '*/*'],
      ['/docs/nested/page.md', '*/*'],
      ['/no-such-page', 'text/markdown'],
    ]) {
      const response = await fetchFrom(path as string, { headers: { accept: accept as string } })
      expect(response.status, path).toBe(404)
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
      expect(response.headers.get('cache-control')).toBe(NOT_FOUND_CACHE_CONTROL)
      expect(response.headers.get('link')).toBe(`<${BASE}/llms.txt>; rel="describedby"; type="text/plain"`)
      const body = await response.text()
      expect(
        body.startsWith(
          '---\ntitle: Page not found\ndescription: There is no page at this address. It may have moved, or the link may be mistyped.\n' +
            `canonical_url: ${BASE}/\nlast_updated: 2026-11-24\n---\n`,
        ),
      ).toBe(true)
      expect(body).toContain(
        `> This address has no page on the Cadence site. For the index of this site for AI agents, read ${BASE}/llms.txt; every page and document: ${BASE}/sitemap.md.`,
      )
      expect(body).toContain(`- [Cadence homepage](${BASE}/index.md)`)
    }
  })

  it('answers a browser asking for a missing page with the HTML 404', async () => {
    const response = await fetchFrom('/no-such-page', { headers: { accept: BROWSER_ACCEPT } })
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await response.text()).toContain('<h1>Page not found</h1>')
  })
})

describe('conditional GET on npm start', () => {
  it('answers 304 only for the ETag of the variant Accept selects', async () => {
    const site = servers['npm start']
    const [markdown, html] = await Promise.all([site.fetch('/pricing', { headers: { accept: 'text/markdown' } }), site.fetch('/pricing')])
    await Promise.all([markdown.arrayBuffer(), html.arrayBuffer()])
    const markdownTag = markdown.headers.get('etag') as string
    const htmlTag = html.headers.get('etag') as string
    expect(markdownTag).not.toBe(htmlTag)

    const notModified = await site.fetch('/pricing', { headers: { accept: 'text/markdown', 'if-none-match': markdownTag } })
    expect(notModified.status).toBe(304)
    expect(await notModified.text()).toBe('')
    expect(notModified.headers.get('etag')).toBe(markdownTag)
    expect(notModified.headers.get('cache-control')).toBe(PAGE_CACHE_CONTROL)
    expect(notModified.headers.get('link')).toBe(EXPECTED_LINK['/pricing'])
    expect(varyTokens(notModified)).toContain('accept')

    const crossed = await site.fetch('/pricing', { headers: { accept: 'text/markdown', 'if-none-match': htmlTag } })
    expect(crossed.status).toBe(200)
    expect(crossed.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
  })
})

/*
 * The cache-safety proof. The risk: a shared cache (Vercel's CDN, a proxy) stores the HTML a browser
 * got and hands it to an agent that asked for Markdown, or the reverse. The real servers' answers go
 * through an RFC 9111 cache model, shared and private, and through one that ignores Vary, as some CDNs
 * do for HTML. (The Vercel build output gets the same proof in tests/integration/vercel-build.test.ts.)
 */
describe('cache safety of the two variants', () => {
  const agent = { accept: 'text/markdown' }
  const browser = { accept: BROWSER_ACCEPT }

  describe.each(['npm start', 'next start'] as const)('%s', (server) => {
    const realOrigin: Origin = (path, headers) => servers[server].fetch(path, { headers })
    /** The server's answers with Accept taken out of their Vary: what a cache would store had the site left it out (Next writes its own Vary on prerendered pages). */
    const withoutAccept: Origin = async (path, headers) => {
      const response = await realOrigin(path, headers)
      const vary = (response.headers.get('vary') ?? '')
        .split(',')
        .map((token) => token.trim())
        .filter((token) => token.toLowerCase() !== 'accept')
      const answer = new Headers(response.headers)
      answer.set('vary', vary.join(', '))
      return new Response(await response.text(), { status: response.status, headers: answer })
    }

    it.each(['/', '/pricing'])(
      '%s: Accept in the Vary the server sends is what keeps a browser-primed shared cache from handing its HTML to an agent',
      async (path) => {
        const cdn = new HttpCache(realOrigin, { shared: true, honorVary: true })
        await cdn.get(path, browser)
        const toAgent = await cdn.get(path, agent)
        expect(toAgent.source).toBe('origin')
        expect(toAgent.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
        // The same answers without Accept in Vary: the cache hands the browser's HTML to the agent.
        const withoutAcceptCdn = new HttpCache(withoutAccept, { shared: true, honorVary: true })
        const primed = await withoutAcceptCdn.get(path, browser)
        const mixed = await withoutAcceptCdn.get(path, agent)
        expect(mixed.source).toBe('hit')
        expect(mixed.body).toBe(primed.body)
        expect(mixed.headers.get('content-type')).toBe('text/html; charset=utf-8')
      },
    )

    it.each(SITE_PAGES.map((page) => ({ ...page })))(
      '$path: a cache that ignores Vary still gives each client its own variant at its own URL: the page to browsers, the text/markdown alternate its Link names to agents',
      async ({ path }) => {
        const urlKeyed = new HttpCache(realOrigin, { shared: true, honorVary: false })
        const page = await urlKeyed.get(path, browser)
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
        const alternate = parseLinks(page.headers.get('link') ?? '').find((link) => link.rel === 'alternate' && link.type === 'text/markdown')
        expect(alternate?.target).toBe(`${BASE}${SITE_PAGES.find((sitePage) => sitePage.path === path)?.markdownPath}`)
        const twinPath = new URL(alternate?.target ?? '').pathname
        const twin = await urlKeyed.get(twinPath, agent)
        expect(twin.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
        for (let round = 0; round < 2; round++) {
          urlKeyed.now += 60
          const [toBrowser, toAgent] = [await urlKeyed.get(path, browser), await urlKeyed.get(twinPath, agent)]
          expect(toBrowser.source).toBe('hit')
          expect(toBrowser.body).toBe(page.body)
          expect(toAgent.source).toBe('hit')
          expect(toAgent.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
          expect(toAgent.body).toBe(twin.body)
        }
      },
    )

    it.each(SITE_PAGES.map((page) => ({ ...page })))(
      '$path: a shared cache stores both variants and hands each only to its own kind of client',
      async ({ path }) => {
        const cdn = new HttpCache(realOrigin, { shared: true, honorVary: true })
        const first = { browser: await cdn.get(path, browser), agent: await cdn.get(path, agent) }
        expect(first.browser.source).toBe('origin')
        expect(first.agent.source).toBe('origin')
        expect(cdn.storedCount).toBe(2)
        for (let round = 0; round < 2; round++) {
          cdn.now += 60
          const [toBrowser, toAgent] = [await cdn.get(path, browser), await cdn.get(path, agent)]
          expect(toBrowser.source).toBe('hit')
          expect(toBrowser.headers.get('content-type')).toBe('text/html; charset=utf-8')
          expect(toBrowser.body).toBe(first.browser.body)
          expect(toAgent.source).toBe('hit')
          expect(toAgent.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
          expect(toAgent.body).toBe(first.agent.body)
        }
      },
    )

    it.each(SITE_PAGES.map((page) => ({ ...page })))(
      '$path: a browser or agent cache revalidates each use and never serves the other variant',
      async ({ path }) => {
        const own = new HttpCache(realOrigin, { shared: false, honorVary: true })
        const html = await own.get(path, browser)
        const markdown = await own.get(path, agent)
        expect(markdown.source).toBe('origin')
        expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
        const again = { browser: await own.get(path, browser), agent: await own.get(path, agent) }
        expect(again.browser.headers.get('content-type')).toBe('text/html; charset=utf-8')
        expect(again.browser.body).toBe(html.body)
        expect(again.agent.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
        expect(again.agent.body).toBe(markdown.body)
        // max-age=0: every use goes back to the origin; npm start answers 304s, Next's own ETags too.
        expect(again.browser.source).not.toBe('hit')
        expect(again.agent.source).not.toBe('hit')
      },
    )
  })
})
