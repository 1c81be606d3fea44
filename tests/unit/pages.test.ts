import { describe, expect, it } from 'vitest'
import { buildRecordOf, describeBuildMismatch } from '../../lib/build-record.ts'
import { loadContent } from '../../lib/content/parse.ts'
import { parseConfig } from '../../lib/env.ts'
import { buildPageModels, formatPrice } from '../../lib/pages/page-model.ts'
import { estimateTokens } from '../../lib/pages/markdown-twin.ts'
import { footerGroups, headerLinks } from '../../lib/pages/navigation.ts'
import { negotiatedTwin } from '../../lib/pages/negotiation.ts'
import { isPagePath } from '../../lib/routes/page-paths.ts'
import { pageHeaders } from '../../lib/pages/page-headers.ts'
import { buildPageMarkdown } from '../../lib/pages/page-markdown.ts'
import { withoutClientRuntime } from '../../lib/pages/prerendered-pages.ts'
import { SITE_PAGES, TWIN_KEYS, type TwinKey } from '../../lib/routes/site-pages.ts'
import { buildSite } from '../../lib/site-model.ts'

const BASE = 'https://agents.example.com'
const content = loadContent()
const site = buildSite(parseConfig({ BASE_URL: BASE, APP_URL: 'https://app.cadence.test/' }), content)

describe('negotiatedTwin', () => {
  it.each([
    ['/', 'text/markdown', 'home'],
    ['/pricing', 'text/markdown, text/html;q=0.9', 'pricing'],
    ['/pricing', 'text/markdown;q=0', null],
    ['/pricing', 'text/html', null],
    ['/pricing', null, null],
    ['/no-such-page', 'text/markdown', 'not-found'],
    ['/a/b', 'text/markdown', 'not-found'],
    ['/pricing.md', 'text/markdown', null],
    ['/pricing/', 'text/markdown', null],
    ['///', 'text/markdown', null],
    ['/api/agent/v1/health', 'text/markdown', null],
    ['/api', 'text/markdown', null],
    ['/mcp', 'text/markdown', null],
    ['/mcp/server-card', 'text/markdown', null],
    ['/problems/rate_limit_exceeded', 'text/markdown', null],
    ['/md/pricing', 'text/markdown', null],
    ['/_next/static/x', 'text/markdown', null],
    ['/.well-known/mcp.json', 'text/markdown', null],
  ])('%s with Accept %s → %s', (path, accept, twin) => {
    expect(negotiatedTwin(path, accept)).toBe(twin)
  })

  it('treats only page-shaped paths as pages', () => {
    expect(SITE_PAGES.every((page) => isPagePath(page.path))).toBe(true)
    expect(['/site.css', '/robots.txt', '/a//b', '/x/'].some(isPagePath)).toBe(false)
  })
})

describe('Markdown twins', () => {
  const canonical: Record<TwinKey, string> = {
    home: `${BASE}/`,
    pricing: `${BASE}/pricing`,
    contact: `${BASE}/contact`,
    login: `${BASE}/login`,
    developers: `${BASE}/developers`,
    // A missing address has no URL of its own: the 404 names the site.
    'not-found': `${BASE}/`,
  }

  it.each(TWIN_KEYS.map((key) => [key]))(
    '%s: frontmatter (title, description, canonical_url, last_updated), the blockquote naming llms.txt and sitemap.md, then the content',
    (key) => {
      const text = buildPageMarkdown(site, key, buildPageModels(site))
      const match = /^---\ntitle: (.+)\ndescription: (.+)\ncanonical_url: (.+)\nlast_updated: (\d{4}-\d\d-\d\d)\n---\n> (.+)\n\n# (.+)\n/.exec(text)
      expect(match, text.slice(0, 400)).not.toBeNull()
      expect(match?.[3]).toBe(canonical[key])
      expect(match?.[5]).toContain(`read ${BASE}/llms.txt; every page and document: ${BASE}/sitemap.md.`)
      expect(text.endsWith('\n')).toBe(true)
      expect(text).not.toMatch(/\n{3,}/)
    },
  )

  it("last_updated is the newest `updated` of the content files a page shows: the homepage's and the login page's include the plans'", () => {
    const dated = (file: { data: object }, updated: string) => ({ ...file, data: { ...file.data, updated } })
    const edited = buildSite(parseConfig({ BASE_URL: BASE }), {
      ...content,
      home: dated(content.home, '2026-10-01') as typeof content.home,
      login: dated(content.login, '2026-10-02') as typeof content.login,
      contact: dated(content.contact, '2026-10-03') as typeof content.contact,
      pricing: dated(content.pricing, '2026-10-20') as typeof content.pricing,
      developers: dated(content.developers, '2026-10-04') as typeof content.developers,
    })
    const lastUpdated = (key: TwinKey) => /\nlast_updated: (.+)\n/.exec(buildPageMarkdown(edited, key, buildPageModels(edited)))?.[1]
    expect(Object.fromEntries(TWIN_KEYS.map((key) => [key, lastUpdated(key)]))).toEqual({
      home: '2026-10-20',
      pricing: '2026-10-20',
      contact: '2026-10-03',
      login: '2026-10-20',
      developers: '2026-10-04',
      'not-found': '2026-11-24',
    })
  })

  it('renders every plan of the pricing page with its price and call to action', () => {
    const text = buildPageMarkdown(site, 'pricing', buildPageModels(site))
    for (const plan of content.pricing.data.plans) {
      expect(text).toContain(`### ${plan.name}: ${formatPrice(plan.priceMonthlyUsd)}, ${plan.priceNote}`)
    }
    // Sign-up keeps the chosen plan; a plan priced on request goes to the contact page's sales form, the plan named.
    expect(text).toContain(`[${content.pricing.data.plans[0]?.ctaLabel}](${site.config.appUrl}/signup?plan=personal)`)
    expect(text).toContain(`[${content.pricing.data.plans[1]?.ctaLabel}](${site.config.appUrl}/signup?plan=team)`)
    expect(text).toContain(`[${content.pricing.data.plans[2]?.ctaLabel}](${BASE}/contact?plan=programme#talk-to-sales)`)
  })

  it('quotes frontmatter values that YAML would misread', () => {
    const tricky = buildSite(parseConfig({ BASE_URL: BASE }), {
      ...content,
      contact: { ...content.contact, data: { ...content.contact.data, title: 'Contact: us # now', description: '- "quoted"' } },
    })
    const text = buildPageMarkdown(tricky, 'contact', buildPageModels(tricky))
    expect(
      text.startsWith(
        `---\ntitle: "Contact: us # now"\ndescription: '- "quoted"'\ncanonical_url: ${BASE}/contact\nlast_updated: ${content.contact.data.updated}\n---\n`,
      ),
    ).toBe(true)
  })

  it('estimates about one token per four characters', () => {
    expect(estimateTokens('')).toBe(0)
    expect(estimateTokens('abcd')).toBe(1)
    expect(estimateTokens('abcde')).toBe(2)
  })
})

describe('page headers', () => {
  it('are the same list for a page and its twin, with the Markdown alternate and llms.txt', () => {
    expect(pageHeaders(site, 'contact')).toEqual([
      ['Vary', 'Accept'],
      [
        'Link',
        `<${BASE}/contact.md>; rel="alternate"; type="text/markdown", <${BASE}/llms.txt>; rel="describedby"; type="text/plain", <${BASE}/.well-known/ai-catalog.json>; rel="ai-catalog"; type="application/ai-catalog+json", <${BASE}/contact>; rel="canonical"`,
      ],
      ['Cache-Control', 'public, max-age=0, must-revalidate, s-maxage=86400'],
    ])
  })
})

describe('navigation', () => {
  it('links the pages root-relatively, so a page works on whatever host serves it', () => {
    expect(headerLinks().map((link) => [link.label, link.href])).toEqual([
      ['Pricing', '/pricing'],
      ['Contact', '/contact'],
      ['Log in', '/login'],
      ['Developers', '/developers'],
    ])
    expect(footerGroups().flatMap((group) => group.links.map((link) => link.href))).toEqual([
      '/',
      '/pricing',
      '/contact',
      '/login',
      '/developers',
      '/openapi.json',
      '/.well-known/mcp/server-card.json',
      '/llms.txt',
    ])
  })
})

describe('the build record', () => {
  it("says nothing when the settings and content are the build's", () => {
    expect(describeBuildMismatch(buildRecordOf(site), buildRecordOf(site))).toBeNull()
  })

  it('names each differing setting with both values, and edited content, in one line', () => {
    const other = buildSite(parseConfig({ PORT: '4000', APP_URL: 'https://app.cadence.test' }), {
      ...content,
      home: { ...content.home, body: `${content.home.body}\nOne more line.\n` },
    })
    const message = describeBuildMismatch(buildRecordOf(site), buildRecordOf(other))
    expect(message).toBe(
      'This build was made for other settings: base URL (BASE_URL, or PORT and the Vercel variables) is "https://agents.example.com" in the build but "http://localhost:4000" here; content/ changed since the build. Start with the build\'s settings, or run npm run build again with these.',
    )
  })
})

describe('withoutClientRuntime', () => {
  it("removes Next's untyped scripts, inline and external, and script preloads; keeps the site's typed scripts and everything else", () => {
    const html =
      '<head><link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/a.js"/><link rel="stylesheet" href="/site.css"/>' +
      '<script type="module" src="/site.js"></script><script src="/_next/static/chunks/b.js" async=""></script></head>' +
      '<body><p>Text</p><script type="application/ld+json">{"a":1}</script><script id="_R_">self.__next_r="x"</script>' +
      '<script>(self.__next_f=self.__next_f||[]).push([0])</script><script type="application/json" id="webmcp-tools">[]</script></body>'
    expect(withoutClientRuntime(html)).toBe(
      '<head><link rel="stylesheet" href="/site.css"/><script type="module" src="/site.js"></script></head>' +
        '<body><p>Text</p><script type="application/ld+json">{"a":1}</script><script type="application/json" id="webmcp-tools">[]</script></body>',
    )
  })
})
