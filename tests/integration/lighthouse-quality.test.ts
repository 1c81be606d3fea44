/**
 * Lighthouse 13.5 on every page of the built site at its https base URL: exactly 1.0 in performance,
 * accessibility, best practices and SEO, each audit that lowers a score named in the failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SITE_PAGES } from '../../lib/routes/site-pages.ts'
import { categoryScores, runLighthouse, type LighthouseCategory } from '../support/lighthouse.ts'
import { serveAtBaseUrl, type SiteAtBaseUrl } from '../support/tls-front.ts'

const CATEGORIES: LighthouseCategory[] = ['performance', 'accessibility', 'best-practices', 'seo']
let served: SiteAtBaseUrl

beforeAll(async () => {
  served = await serveAtBaseUrl()
}, 240_000)
afterAll(async () => {
  await served?.stop()
})

describe.each(SITE_PAGES.map((page) => page.path))('Lighthouse on %s', (pagePath) => {
  it('scores exactly 1.0 in performance, accessibility, best practices and SEO', { timeout: 180_000 }, async () => {
    const report = await runLighthouse(`${served.base}${pagePath}`, CATEGORIES, served.chromeFlags)
    expect(categoryScores(report, CATEGORIES)).toEqual(CATEGORIES.map((category) => ({ category, score: 1, failing: [] })))
  })
})
