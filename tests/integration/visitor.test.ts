/**
 * What a marketing site is expected to show visitors and link previews: icons, Open Graph and Twitter
 * cards with a generated image, schema.org data from the same plans as the page, a homepage whose
 * calls to action start the free plan or show pricing, and a plan kept through sign-up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SITE_PAGES } from '../../lib/routes/site-pages.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

const BASE = 'https://agents.example.com'
const APP = 'https://app.cadence.test'
let site: RunningSite

beforeAll(async () => {
  site = await startSite()
}, 240_000)
afterAll(async () => {
  await site?.stop()
})

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

const meta = (html: string, attribute: 'property' | 'name', key: string) =>
  new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`).exec(html)?.[1]
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((match) => JSON.parse(match[1] ?? 'null'))

describe('icons and share images, generated at build time', () => {
  it.each([
    ['/opengraph-image', 1200, 630],
    ['/twitter-image', 1200, 630],
    ['/apple-icon', 180, 180],
  ])('%s is a %ix%i PNG', async (imagePath, width, height) => {
    const response = await site.fetch(imagePath)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(pngSize(Buffer.from(await response.arrayBuffer()))).toEqual({ width, height })
  })

  it('/favicon.ico is an ICO of the mark at 16, 32 and 48 px (PNG images), cached like the other icons', async () => {
    const [response, svg] = await Promise.all([site.fetch('/favicon.ico'), site.fetch('/icon.svg')])
    await svg.arrayBuffer()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/x-icon')
    expect(response.headers.get('cache-control')).toBe(svg.headers.get('cache-control'))
    const bytes = Buffer.from(await response.arrayBuffer())
    // ICONDIR: reserved 0, type 1 (icon), the number of images; then a 16-byte entry per image.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4)]).toEqual([0, 1, 3])
    const images = [0, 1, 2].map((index) => {
      const entry = 6 + 16 * index
      const [size, offset] = [bytes.readUInt32LE(entry + 8), bytes.readUInt32LE(entry + 12)]
      return { width: bytes.readUInt8(entry), height: bytes.readUInt8(entry + 1), png: pngSize(bytes.subarray(offset, offset + size)) }
    })
    expect(images).toEqual([16, 32, 48].map((px) => ({ width: px, height: px, png: { width: px, height: px } })))
  })

  it('the favicon is the SVG mark', async () => {
    const response = await site.fetch('/icon.svg')
    expect(response.headers.get('content-type')).toBe('image/svg+xml')
    expect(await response.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 64 64">/)
  })
})

describe.each(SITE_PAGES.map((page) => page.path))('%s link previews', (pagePath) => {
  it('has Open Graph and Twitter card tags with the absolute share image, and the icons', async () => {
    const html = await (await site.fetch(pagePath, { headers: { accept: 'text/html' } })).text()
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1]
    expect(meta(html, 'property', 'og:title')).toBe(title)
    expect(meta(html, 'property', 'og:url')).toBe(`${BASE}${pagePath}`)
    expect(meta(html, 'property', 'og:type')).toBe('website')
    expect(meta(html, 'property', 'og:image')).toBe(`${BASE}/opengraph-image`)
    expect(meta(html, 'name', 'twitter:card')).toBe('summary_large_image')
    expect(meta(html, 'name', 'twitter:image')).toBe(`${BASE}/opengraph-image`)
    expect(html).toMatch(/<link rel="icon" href="\/icon\.svg\?[^"]+" sizes="any" type="image\/svg\+xml"\/>/)
    expect(html).toMatch(/<link rel="apple-touch-icon" href="\/apple-icon\?[^"]+" type="image\/png" sizes="180x180"\/>/)
  })
})

describe('schema.org data', () => {
  const offers = [
    { '@type': 'Offer', name: 'Personal', url: `${APP}/signup?plan=personal`, price: '0.00', priceCurrency: 'USD' },
    { '@type': 'Offer', name: 'Team', url: `${APP}/signup?plan=team`, price: '12.00', priceCurrency: 'USD' },
    { '@type': 'Offer', name: 'Programme', url: `${BASE}/contact?plan=programme#talk-to-sales` },
  ]

  it('the homepage describes the organisation and the application with one offer per plan', async () => {
    const [data] = jsonLd(await (await site.fetch('/')).text())
    expect(data['@context']).toBe('https://schema.org')
    expect(data['@graph'].map((node: { '@type': string }) => node['@type'])).toEqual(['Organization', 'WebSite', 'SoftwareApplication'])
    expect(data['@graph'][0]).toEqual({
      '@type': 'Organization',
      name: 'Cadence',
      url: `${BASE}/`,
      logo: `${BASE}/icon.svg`,
      email: 'hello@cadence.example',
    })
    expect(data['@graph'][2].offers).toMatchObject(offers)
  })

  it('pricing carries an Offer per plan, from the same plans the page lists', async () => {
    const html = await (await site.fetch('/pricing')).text()
    const [data] = jsonLd(html)
    expect(data).toMatchObject({ '@context': 'https://schema.org', '@type': 'SoftwareApplication', name: 'Cadence', offers })
    expect(data.offers[2]).not.toHaveProperty('price')
    const listed = [...html.matchAll(/<h2 class="plan-name">([^<]+)<\/h2>/g)].map((match) => match[1])
    expect(data.offers.map((offer: { name: string }) => offer.name)).toEqual(listed)
  })
})

describe('calls to action', () => {
  it('the hero starts the free plan or shows pricing, and draws the execution loop', async () => {
    const html = await (await site.fetch('/')).text()
    expect(html).toContain(
      `<p class="hero-actions"><a class="button" href="${APP}/signup?plan=personal">Start free</a><a class="button button-secondary" href="/pricing">See pricing</a></p>`,
    )
    expect(html).toContain('<title id="loop-title">The loop: Plan the week, then Do the work, then Check in, then Get unstuck, and again.</title>')
  })

  it("each plan signs up with that plan chosen; a plan priced on request goes to the contact page's sales form, the plan named", async () => {
    const html = await (await site.fetch('/pricing')).text()
    const ctas = [...html.matchAll(/<a class="button" href="([^"]+)">([^<]+)<\/a>/g)].map((match) => [match[2], match[1]])
    expect(ctas).toEqual([
      ['Start free', `${APP}/signup?plan=personal`],
      ['Start a team', `${APP}/signup?plan=team`],
      ['Talk to us', '/contact?plan=programme#talk-to-sales'],
    ])
  })
})
