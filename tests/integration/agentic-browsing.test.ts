/**
 * Lighthouse 13.5's Agentic Browsing category on the built site, seen at its https base URL: exactly
 * 1.0 on / and /pricing, every applicable audit passing, the AI Catalog audit among them: it finds the
 * catalog (by the Link header and <link rel="ai-catalog">, robots.txt names none) and scores it 1.0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { categoryScores, runLighthouse } from '../support/lighthouse.ts'
import { serveAtBaseUrl, type SiteAtBaseUrl } from '../support/tls-front.ts'

let served: SiteAtBaseUrl

beforeAll(async () => {
  served = await serveAtBaseUrl()
}, 240_000)
afterAll(async () => {
  await served?.stop()
})

describe.each(['/', '/pricing'])('Agentic Browsing on %s', (pagePath) => {
  it('scores exactly 1.0, the AI Catalog audit applying and scoring exactly 1.0 with no issue', { timeout: 180_000 }, async () => {
    const report = await runLighthouse(`${served.base}${pagePath}`, ['agentic-browsing'], served.chromeFlags)
    const audits = report.categories['agentic-browsing']?.auditRefs.map((ref) => report.audits[ref.id]) ?? []
    expect(audits.map((audit) => audit?.id)).toEqual(expect.arrayContaining(['ard-schema', 'llms-txt']))
    expect(report.audits['ard-schema']?.scoreDisplayMode).not.toBe('notApplicable')
    expect(report.audits['llms-txt']?.scoreDisplayMode).not.toBe('notApplicable')
    const ard = report.audits['ard-schema'] as { score: number; details?: { items: unknown[] } }
    expect({ score: ard.score, issues: ard.details?.items ?? [] }).toEqual({ score: 1, issues: [] })
    expect(categoryScores(report, ['agentic-browsing'])).toEqual([{ category: 'agentic-browsing', score: 1, failing: [] }])
  })
})
