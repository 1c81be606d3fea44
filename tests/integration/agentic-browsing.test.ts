/**
 * Lighthouse 13.5's Agentic Browsing category on the built site, seen at its https base URL in a
 * Chromium with WebMCP: exactly 1.0 on / and /pricing, every applicable audit passing; the three
 * WebMCP audits apply (they find the page's tools and its sign-up form), and the AI Catalog audit finds
 * the catalog (by the Link header and <link rel="ai-catalog">, robots.txt names none) and scores 1.0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { categoryScores, runLighthouse } from '../support/lighthouse.ts'
import { serveAtBaseUrl, type SiteAtBaseUrl } from '../support/tls-front.ts'
import { FORM_TOOL_NAME, SCRIPTED_TOOL_NAMES, WEBMCP_CHROME_FLAG } from '../support/webmcp.ts'

let served: SiteAtBaseUrl

beforeAll(async () => {
  served = await serveAtBaseUrl()
}, 240_000)
afterAll(async () => {
  await served?.stop()
})

describe.each(['/', '/pricing'])('Agentic Browsing on %s', (pagePath) => {
  it('scores exactly 1.0, the WebMCP audits and the AI Catalog audit applying and scoring exactly 1.0 with no issue', {
    timeout: 180_000,
  }, async () => {
    const report = await runLighthouse(`${served.base}${pagePath}`, ['agentic-browsing'], [...served.chromeFlags, WEBMCP_CHROME_FLAG])
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
