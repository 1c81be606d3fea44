/**
 * Lighthouse 13.5 on every page of the built site at its https base URL: 100 in accessibility and best
 * practices, and every SEO audit passing but robots.txt's `Agentmap:` line (see below), each audit that
 * does not pass named in the failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SITE_PAGES } from '../../lib/pages/site-pages.ts'
import { failingAudits, runLighthouse, type LighthouseCategory } from '../support/lighthouse.ts'
import { serveAtBaseUrl, type SiteAtBaseUrl } from '../support/tls-front.ts'

const CATEGORIES: LighthouseCategory[] = ['accessibility', 'best-practices', 'seo']
let served: SiteAtBaseUrl

beforeAll(async () => {
  served = await serveAtBaseUrl()
}, 240_000)
afterAll(async () => {
  await served?.stop()
})

describe.each(SITE_PAGES.map((page) => page.path))('Lighthouse on %s', (pagePath) => {
  it('scores 100 in accessibility, best practices and SEO', { timeout: 180_000 }, async () => {
    const report = await runLighthouse(`${served.base}${pagePath}`, CATEGORIES, served.chromeFlags)
    for (const category of ['accessibility', 'best-practices'] as const) {
      expect({ category, failing: failingAudits(report, category) }).toEqual({ category, failing: [] })
      expect(report.categories[category]?.score, category).toBe(1)
    }
    // SEO: everything passes but one line of robots.txt. ARD's `Agentmap:` (which Lighthouse's own ARD
    // audit reads) is not on the robots-txt audit's list of known directives; `Content-Signal:` is.
    expect(failingAudits(report, 'seo')).toEqual(['robots-txt: robots.txt is not valid'])
    const robots = report.audits['robots-txt'] as unknown as { details: { items: Array<{ line: string; message: string }> } }
    expect(robots.details.items.map(({ line, message }) => ({ line, message }))).toEqual([
      { line: `Agentmap: ${served.base}/.well-known/ai-catalog.json`, message: 'Unknown directive' },
    ])
  })
})
