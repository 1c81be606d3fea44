import { describe, expect, it } from 'vitest'
import { buildAgentCatalog } from '../../lib/agent/catalog.ts'
import { parseConfig } from '../../lib/env.ts'
import { ifNoneMatchMatches } from '../../lib/http/conditional.ts'
import { buildContentPages, formatPrice, planCtaHref } from '../../lib/pages/content-pages.ts'
import { escapeHtml, renderHtmlPage } from '../../lib/pages/html.ts'
import {
  buildHomepage,
  buildHomepageLinkHeader,
  HOMEPAGE_CACHE_CONTROL,
  renderHomepageMain,
  selectHomepageVariant,
} from '../../lib/pages/homepage.ts'
import { splitSections } from '../../lib/pages/markdown.ts'
import { footerGroups, headerLinks } from '../../lib/pages/navigation.ts'
import { buildSite } from '../../lib/site.ts'
import { buildSiteUrls } from '../../lib/site-urls.ts'

const BASE = 'https://agents.example.com'
const site = buildSite(parseConfig({ BASE_URL: BASE, APP_URL: 'https://app.cadence.test/' }))
const previewSite = buildSite(parseConfig({ VERCEL_ENV: 'preview', VERCEL_URL: 'cadence-git-x.vercel.app' }))

const EXPECTED_LINK =
  '<https://agents.example.com/sitemap.xml>; rel="sitemap"; type="application/xml", ' +
  '<https://agents.example.com/>; rel="alternate"; type="text/markdown", ' +
  '<https://agents.example.com/developers.md>; rel="service-doc"; type="text/markdown", ' +
  '<https://agents.example.com/openapi.json>; rel="service-desc"; type="application/vnd.oai.openapi+json", ' +
  '<https://agents.example.com/.well-known/mcp/server-card.json>; rel="service-desc"; type="application/mcp-server-card+json"; title="MCP server card", ' +
  '<https://agents.example.com/llms.txt>; rel="describedby"; type="text/plain", ' +
  '<https://agents.example.com/api/agent/v1/health>; rel="status"; type="application/json"'

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;')
  })
})

describe('renderHtmlPage', () => {
  it('escapes every value outside the trusted main HTML', () => {
    const html = renderHtmlPage({
      urls: buildSiteUrls('https://a.example'),
      title: '<script>alert(1)</script>',
      description: '"><img src=x onerror=alert(1)>',
      canonical: 'https://a.example/"onmouseover="x',
      noindex: false,
      path: '/',
      mainHtml: '<p>trusted</p>',
      footerTagline: '<b>tag</b>',
    })
    expect(html).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>')
    expect(html).toContain('<meta name="description" content="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">')
    expect(html).toContain('<link rel="canonical" href="https://a.example/&quot;onmouseover=&quot;x">')
    expect(html).toContain('<p>&lt;b&gt;tag&lt;/b&gt;</p>')
    expect(html).toContain('<main id="main" tabindex="-1"><p>trusted</p></main>')
    expect(html).not.toContain('noindex')
  })

  it('adds robots noindex when asked', () => {
    const html = renderHtmlPage({
      urls: buildSiteUrls('https://a.example'),
      title: 't',
      description: 'd',
      canonical: 'https://a.example/',
      noindex: true,
      path: '/',
      mainHtml: '',
      footerTagline: 't',
    })
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">')
  })
})

describe('navigation', () => {
  it('lists Pricing, Contact, Log in and Developers with absolute URLs', () => {
    expect(headerLinks(site.urls).map((link) => [link.label, link.href])).toEqual([
      ['Pricing', `${BASE}/pricing`],
      ['Contact', `${BASE}/contact`],
      ['Log in', `${BASE}/login`],
      ['Developers', `${BASE}/developers.md`],
    ])
    const footerHrefs = footerGroups(site.urls).flatMap((group) => group.links.map((link) => link.href))
    expect(footerHrefs.every((href) => href.startsWith(`${BASE}/`))).toBe(true)
  })
})

describe('splitSections', () => {
  it('splits the intro from the ## sections, ignoring ### headings', () => {
    expect(splitSections('# T\n\nintro\n\n## A\n\na\n\n### A1\n\nx\n\n## B\nb\n')).toEqual({
      intro: '# T\n\nintro',
      sections: ['## A\n\na\n\n### A1\n\nx', '## B\nb'],
    })
    expect(splitSections('## Only\n\ntext')).toEqual({ intro: '', sections: ['## Only\n\ntext'] })
    expect(splitSections('no headings')).toEqual({ intro: 'no headings', sections: [] })
  })
})

describe('homepage', () => {
  const homepage = buildHomepage(site)

  it('builds the Link header of standards.md §9 from the base URL', () => {
    expect(buildHomepageLinkHeader(site.urls)).toBe(EXPECTED_LINK)
  })

  it('gives both variants Vary: Accept, the same Link and the same cache policy', () => {
    const common = (headers: ReadonlyArray<readonly [string, string]>) => headers.filter(([name]) => name !== 'ETag')
    expect(common(homepage.markdown.headers)).toEqual(common(homepage.html.headers))
    expect(Object.fromEntries(homepage.html.headers)).toMatchObject({
      Vary: 'Accept',
      Link: EXPECTED_LINK,
      'Cache-Control': 'private, no-cache',
      'Access-Control-Allow-Origin': '*',
    })
    expect(HOMEPAGE_CACHE_CONTROL).toBe('private, no-cache')
    expect(homepage.markdown.contentType).toBe('text/markdown; charset=utf-8')
    expect(homepage.html.contentType).toBe('text/html; charset=utf-8')
  })

  it('gives each variant its own weak ETag', () => {
    expect(homepage.markdown.etag).toMatch(/^W\/"markdown-[A-Za-z0-9_-]{22}"$/)
    expect(homepage.html.etag).toMatch(/^W\/"html-[A-Za-z0-9_-]{22}"$/)
  })

  it('serves the filled home.md as Markdown, with absolute links and no placeholders left', () => {
    const text = homepage.markdown.body.text
    expect(text.startsWith('# Cadence\n')).toBe(true)
    expect(text).toContain(`[See pricing](${BASE}/pricing)`)
    expect(text).toContain(`[Log in or create an account](${BASE}/login)`)
    expect(text).toContain(`endpoint \`${BASE}/mcp\``)
    expect(text).not.toContain('{{')
  })

  it('renders the same content into the HTML chrome', () => {
    const html = homepage.html.body.text
    expect(html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true)
    expect(html).toContain('<title>Cadence — goals that get done, with a mentor in the loop</title>')
    expect(html).toContain('<link rel="stylesheet" href="/site.css">')
    expect(html).toContain(`<h1>Cadence</h1><p class="hero-tagline">Goals that get done, with a mentor in the loop.</p>`)
    expect(html).toContain(`<a href="${BASE}/pricing">See pricing</a>`)
    expect(html).toContain('<h2>How it works</h2>')
    expect(html).not.toContain('{{')
    expect(html).not.toContain('noindex')
    expect(homepage.html.body.bytes.byteLength).toBe(Buffer.byteLength(html))
  })

  it('marks preview deployments noindex in the HTML homepage', () => {
    expect(buildHomepage(previewSite).html.body.text).toContain('<meta name="robots" content="noindex, nofollow">')
  })

  it('escapes the tagline it inserts into the hero', () => {
    expect(renderHomepageMain('# T\n\nIntro', 'a <b> & "c"')).toBe(
      '<div class="hero"><div class="container prose"><h1>T</h1><p class="hero-tagline">a &lt;b&gt; &amp; &quot;c&quot;</p>\n<p>Intro</p></div></div>',
    )
  })

  it('selects the variant from Accept', () => {
    expect(selectHomepageVariant(homepage, 'text/markdown').name).toBe('markdown')
    expect(selectHomepageVariant(homepage, 'text/html, text/markdown;q=0.5').name).toBe('html')
    expect(selectHomepageVariant(homepage, null).name).toBe('html')
  })
})

describe('ifNoneMatchMatches', () => {
  const etag = 'W/"html-abc"'
  it.each([
    [null, false],
    ['*', true],
    ['W/"html-abc"', true],
    ['"html-abc"', true],
    ['"other", W/"html-abc"', true],
    ['"markdown-abc"', false],
    ['html-abc', false],
    ['', false],
    ['W/"html-ab"', false],
  ])('%j → %s', (header, expected) => {
    expect(ifNoneMatchMatches(header, etag)).toBe(expected)
  })
})

describe('content pages', () => {
  const pages = buildContentPages(site)

  it('formats prices: free, whole and cents, and on request', () => {
    expect([formatPrice(0), formatPrice(12), formatPrice(9.5), formatPrice(null)]).toEqual(['$0', '$12', '$9.50', 'Custom'])
  })

  it('sends signup plans to the create-account section and contact plans to the contact page', () => {
    const plan = site.content.pricing.data.plans[0]!
    expect(planCtaHref({ ...plan, cta: 'signup' }, site.urls)).toBe(`${BASE}/login#create-account`)
    expect(planCtaHref({ ...plan, cta: 'contact' }, site.urls)).toBe(`${BASE}/contact`)
  })

  it('renders the pricing plans from content/pages/pricing.md', () => {
    expect(pages.pricing.plans.map((plan) => [plan.name, plan.price, plan.priceNote, plan.ctaLabel, plan.ctaHref])).toEqual([
      ['Personal', '$0', 'Free forever', 'Start free', `${BASE}/login#create-account`],
      ['Team', '$12', 'per active member, per month', 'Start a team', `${BASE}/login#create-account`],
      ['Programme', 'Custom', 'Priced per cohort', 'Talk to us', `${BASE}/contact`],
    ])
  })

  it('agrees with capabilities.onboarding, which reads the same plans', () => {
    const onboarding = buildAgentCatalog(site).capabilities.onboarding
    expect(onboarding.freeTierAvailable).toBe(pages.pricing.plans.some((plan) => plan.price === '$0'))
    expect(onboarding.freeTierAvailable).toBe(true)
    expect(onboarding.pricing).toBe(`${BASE}/pricing`)
    expect(onboarding.selfServeSignup).toBe(pages.pricing.plans[0]?.ctaHref)
    expect(pages.login.freePlanName).toBe('Personal')
  })

  it('hands login off to the configured app URL', () => {
    expect(pages.login.loginUrl).toBe('https://app.cadence.test/login')
    expect(pages.login.signupUrl).toBe('https://app.cadence.test/signup')
    expect(pages.login.appHost).toBe('app.cadence.test')
    expect(pages.login.body.sectionsHtml).toContain(`<a href="${BASE}/developers.md">developer index</a>`)
  })

  it('links the contact email with mailto', () => {
    expect(pages.contact.mailto).toBe('mailto:hello@cadence.example')
    expect(pages.contact.responseTime).toBe('We answer within one business day.')
  })
})
