/**
 * Lighthouse 13.5 on every page of the built site at its https base URL, in a Chromium with WebMCP,
 * one run per page: exactly 1.0 in performance (Lighthouse's default: a mid-range phone on slow 4G,
 * simulated), accessibility, best practices and SEO; on / and /pricing also Agentic Browsing, exactly
 * 1.0, with the three WebMCP audits applying (they find the page's tools and its sign-up form) and the
 * AI Catalog audit finding the catalog (by the Link header and <link rel="ai-catalog">; robots.txt
 * names none) and scoring 1.0 with no issue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEAD_THANKS_PATH } from '../../lib/leads/form-fields.ts'
import { SITE_PAGES } from '../../lib/routes/site-pages.ts'
import { categoryScores, runLighthouse, type LighthouseCategory, type LighthouseReport } from '../support/lighthouse.ts'
import { serveAtBaseUrl, type SiteAtBaseUrl } from '../support/tls-front.ts'
import { FORM_TOOL_NAME, SCRIPTED_TOOL_NAMES, SIGNUP_FORM_PATHS, WEBMCP_CHROME_FLAG } from '../support/webmcp.ts'

const QUALITY: LighthouseCategory[] = ['accessibility', 'best-practices', 'seo']
let served: SiteAtBaseUrl

beforeAll(async () => {
  served = await serveAtBaseUrl()
}, 240_000)
afterAll(async () => {
  await served?.stop()
})

// The contact form's thank-you page too, where a good submission lands.
describe.each([...SITE_PAGES.map((page) => page.path), LEAD_THANKS_PATH])('Lighthouse on %s', (pagePath) => {
  const agentic = SIGNUP_FORM_PATHS.includes(pagePath)
  let report: LighthouseReport

  beforeAll(async () => {
    const categories: LighthouseCategory[] = ['performance', ...QUALITY, ...(agentic ? (['agentic-browsing'] as const) : [])]
    report = await runLighthouse(`${served.base}${pagePath}`, categories, [...served.chromeFlags, WEBMCP_CHROME_FLAG])
  }, 400_000)

  if (pagePath === LEAD_THANKS_PATH) {
    // SEO's "page is blocked from indexing" fails by design there: the thank-you page is noindex.
    it('scores exactly 1.0 in accessibility and best practices, with no failing audit, and fails SEO only on its noindex', () => {
      const kept: LighthouseCategory[] = ['accessibility', 'best-practices']
      expect(categoryScores(report, kept)).toEqual(kept.map((category) => ({ category, score: 1, failing: [] })))
      expect(categoryScores(report, ['seo'])[0]?.failing).toEqual(['is-crawlable: Page is blocked from indexing'])
    })
  } else {
    it('scores exactly 1.0 in accessibility, best practices and SEO, with no failing audit', () => {
      expect(categoryScores(report, QUALITY)).toEqual(QUALITY.map((category) => ({ category, score: 1, failing: [] })))
    })
  }

  // A metric may score 0.99 (First Contentful Paint through the TLS front's simulated handshake) while
  // the category, their weighted sum, is 1.0: the category is what Lighthouse reports as the score.
  it('scores exactly 1.0 in performance', () => {
    expect(report.categories.performance?.score).toBe(1)
  })

  // Only / and /pricing are held to Agentic Browsing (they have the sign-up form the WebMCP form audit needs).
  if (!agentic) return
  it('scores exactly 1.0 in Agentic Browsing, the WebMCP audits and the AI Catalog audit applying and scoring exactly 1.0 with no issue', () => {
    const audits = report.categories['agentic-browsing']?.auditRefs.map((ref) => report.audits[ref.id]) ?? []
    expect(audits.map((audit) => audit?.id)).toEqual(expect.arrayContaining(['ard-schema', 'llms-txt']))
    expect(report.audits['ard-schema']?.scoreDisplayMode).not.toBe('notApplicable')
    expect(report.audits['llms-txt']?.scoreDisplayMode).not.toBe('notApplicable')
    // WebMCP: the tools registered at load (by script, and the sign-up form), their schemas valid, the form annotated.
    for (const id of ['webmcp-registered-tools', 'webmcp-schema-validity', 'webmcp-form-coverage']) {
      expect(report.audits[id]?.scoreDisplayMode, id).not.toBe('notApplicable')
      expect(report.audits[id]?.score, id).toBe(1)
    }
    expect(report.audits['webmcp-form-coverage']?.scoreDisplayMode).toBe('binary')
    const registered = report.audits['webmcp-registered-tools'] as { details?: { items: Array<{ value: { items: Array<{ tool: string }> } }> } }
    const toolNames = (registered.details?.items ?? []).flatMap((section) => section.value.items.map((item) => item.tool))
    expect(toolNames.sort()).toEqual([...SCRIPTED_TOOL_NAMES, FORM_TOOL_NAME].sort())
    const ard = report.audits['ard-schema'] as { score: number; details?: { items: unknown[] } }
    expect({ score: ard.score, issues: ard.details?.items ?? [] }).toEqual({ score: 1, issues: [] })
    expect(categoryScores(report, ['agentic-browsing'])).toEqual([{ category: 'agentic-browsing', score: 1, failing: [] }])
  })
})
