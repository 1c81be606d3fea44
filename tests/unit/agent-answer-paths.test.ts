/**
 * Which prerendered answers are for agents (lib/routes/agent-answer-paths.ts), and proxy.ts's matcher
 * for signed requests: the same filter, written out, that lets every agent answer through and no page
 * view, asset, agent API or MCP request.
 */
import { describe, expect, it } from 'vitest'
import { config } from '../../proxy.ts'
import { PROBLEM_CODES } from '../../lib/contract/problems.ts'
import { agentAnswerRoute, AGENT_ANSWER_PATHS_SOURCE } from '../../lib/routes/agent-answer-paths.ts'
import { DOCUMENT_PATHS } from '../../lib/routes/document-paths.ts'
import { SITE_PAGES, TWIN_KEYS, twinRoutePath } from '../../lib/routes/site-pages.ts'
import { staticAgentRoute } from '../../lib/signed-agents.ts'

/** The regular expression of a `/:path(<pattern>)` source, as path-to-regexp compiles it. */
const sourcePattern = (source: string) => new RegExp(`^/(?:${/^\/:path\((.*)\)$/.exec(source)?.[1]})$`, 'i')
const filter = sourcePattern(AGENT_ANSWER_PATHS_SOURCE)

const AGENT_ANSWERS = [
  ...Object.values(DOCUMENT_PATHS),
  ...SITE_PAGES.map((page) => page.markdownPath),
  ...PROBLEM_CODES.map((code) => `/problems/${code}`),
  '/no-such-page.md',
]
const NOT_AGENT_ANSWERS = [
  ...SITE_PAGES.map((page) => page.path),
  // The twin route itself: the proxy's rewrite target, which Next sends through the proxy again.
  ...TWIN_KEYS.map(twinRoutePath),
  '/contact/thanks',
  '/site.js',
  '/favicon.ico',
  '/icon.svg',
  '/apple-icon',
  '/opengraph-image',
  '/_next/static/chunks/app.js',
  '/api/agent/v1/health',
  '/mcp',
  '/contact/send',
]

describe('prerendered answers for agents', () => {
  it.each(AGENT_ANSWERS)('%s is one, and passes the signed-request filter', (path) => {
    expect(agentAnswerRoute(path)).not.toBeNull()
    expect(filter.test(path)).toBe(true)
  })

  it.each(NOT_AGENT_ANSWERS)('%s is not one, and the filter keeps it out', (path) => {
    expect(agentAnswerRoute(path)).toBeNull()
    expect(filter.test(path)).toBe(false)
  })

  it('names each by its own path, or by a template for problem pages and unknown .md URLs', () => {
    expect(agentAnswerRoute('/openapi.json')).toBe('/openapi.json')
    expect(agentAnswerRoute('/pricing.md')).toBe('/pricing.md')
    expect(agentAnswerRoute('/problems/agent_rate_limited')).toBe('/problems/{code}')
    expect(agentAnswerRoute('/a/b/c.md')).toBe('/{path}.md')
  })

  it('a page asked for as Markdown is one, by its path, and a page path that names no page is /{page}', () => {
    expect(staticAgentRoute('/pricing', 'text/markdown')).toBe('/pricing')
    expect(staticAgentRoute('/nowhere', 'text/markdown')).toBe('/{page}')
    expect(staticAgentRoute('/pricing', 'text/html')).toBeNull()
  })
})

describe("proxy.ts's matcher", () => {
  it('sends signed requests (any of the three headers) for the agent answers, with the filter written out', () => {
    const signed = config.matcher.flatMap((entry) =>
      typeof entry !== 'string' && entry.has.some((condition) => condition.key.startsWith('signature')) ? [entry] : [],
    )
    expect(signed.map((entry) => entry.has)).toEqual([
      [{ type: 'header', key: 'signature-input' }],
      [{ type: 'header', key: 'signature' }],
      [{ type: 'header', key: 'signature-agent' }],
    ])
    for (const entry of signed) expect(entry.source).toBe(AGENT_ANSWER_PATHS_SOURCE)
  })
})
