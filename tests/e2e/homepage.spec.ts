import { expect, test } from '@playwright/test'
import { E2E_APP_URL as APP, E2E_BASE_URL as BASE, E2E_ORIGIN as ORIGIN } from '../support/e2e-site.ts'

// Exact headers of every page's variants, q-values and the cache proof: tests/integration/pages.test.ts.
// Here: what a real browser and a Markdown-asking client get from the running site.

const LINK =
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
  `<${BASE}/>; rel="canonical"`
const CACHE_CONTROL = 'public, max-age=0, must-revalidate, s-maxage=86400'
const MARKDOWN_START = '---\ntitle: Cadence — goals that get done'

const varyTokens = (value: string | undefined) => (value ?? '').split(',').map((token) => token.trim().toLowerCase())

test('a browser navigating to / gets the HTML homepage with Vary: Accept and the Link header', async ({ page }) => {
  const response = await page.goto('/')
  const headers = response?.headers() ?? {}
  expect(response?.status()).toBe(200)
  expect(headers['content-type']).toBe('text/html; charset=utf-8')
  expect(headers['cache-control']).toBe(CACHE_CONTROL)
  expect(headers.link).toBe(LINK)
  expect(varyTokens(headers.vary)).toContain('accept')
  await expect(page.locator('h1')).toHaveText('Cadence')
  const background = await page.locator('.hero').evaluate((element) => getComputedStyle(element).backgroundImage)
  expect(background).toContain('gradient')
})

test('a browser navigation that asks for text/markdown gets the Markdown homepage', async ({ page }) => {
  // Chromium sets its own Accept on navigations: rewrite it on the way out.
  await page.route(`${ORIGIN}/`, (route) => route.continue({ headers: { ...route.request().headers(), accept: 'text/markdown, text/html;q=0.9' } }))
  const response = await page.goto('/')
  const headers = response?.headers() ?? {}
  expect(headers['content-type']).toBe('text/markdown; charset=utf-8')
  expect(headers['cache-control']).toBe(CACHE_CONTROL)
  expect(headers.link).toBe(LINK)
  expect(varyTokens(headers.vary)).toContain('accept')
  const body = (await response?.text()) ?? ''
  expect(body.startsWith(MARKDOWN_START)).toBe(true)
  expect(body).toContain('\n# Cadence\n\nCadence turns an ambitious goal into a weekly plan')
  expect(body).toContain(`- [See pricing](${BASE}/pricing): free for individuals, paid plans for teams and programmes.`)
})

test('fetch() from a page gets either variant of / by its Accept header', async ({ page }) => {
  await page.goto('/pricing')
  const answers = await page.evaluate(async () => {
    const read = async (accept: string) => {
      const response = await fetch('/', { headers: { accept } })
      return { type: response.headers.get('content-type'), link: response.headers.get('link'), start: (await response.text()).slice(0, 15) }
    }
    return [await read('text/markdown'), await read('text/html'), await read('text/markdown'), await read('*/*')]
  })
  expect(answers).toEqual([
    { type: 'text/markdown; charset=utf-8', link: LINK, start: '---\ntitle: Cade' },
    { type: 'text/html; charset=utf-8', link: LINK, start: '<!DOCTYPE html>' },
    { type: 'text/markdown; charset=utf-8', link: LINK, start: '---\ntitle: Cade' },
    { type: 'text/html; charset=utf-8', link: LINK, start: '<!DOCTYPE html>' },
  ])
})

test('HEAD / as Markdown has the GET headers and no body', async ({ request }) => {
  const response = await request.head('/', { headers: { accept: 'text/markdown' } })
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toBe('text/markdown; charset=utf-8')
  expect(response.headers().link).toBe(LINK)
  expect((await response.body()).byteLength).toBe(0)
})

test('q-values decide: text/html preferred over text/markdown;q=0.5 → HTML', async ({ request }) => {
  const response = await request.get('/', { headers: { accept: 'text/html, text/markdown;q=0.5' } })
  expect(response.headers()['content-type']).toBe('text/html; charset=utf-8')
  expect(response.headers().link).toBe(LINK)
})

test('the hero: Start free opens the app sign-up with the free plan chosen, See pricing the plans, and a team plan keeps its choice', async ({
  page,
}) => {
  // The product app is another deployment: answer its sign-up here and record what it was asked for.
  const signups: string[] = []
  await page.route(`${APP}/**`, async (route) => {
    signups.push(route.request().url())
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Sign up</title><h1>Sign up</h1>' })
  })
  await page.goto('/')
  await expect(page.getByRole('img', { name: /^The loop: Plan the week/ })).toBeVisible()
  await page.getByRole('link', { name: 'Start free' }).first().click()
  await expect(page).toHaveURL(`${APP}/signup?plan=personal`)
  await page.goto('/')
  await page.getByRole('link', { name: 'See pricing' }).first().click()
  await expect(page).toHaveURL(/\/pricing$/)
  await page.getByRole('link', { name: 'Start a team' }).click()
  await expect(page).toHaveURL(`${APP}/signup?plan=team`)
  expect(signups).toEqual([`${APP}/signup?plan=personal`, `${APP}/signup?plan=team`])
})
