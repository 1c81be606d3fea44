/**
 * Security headers on every answer, fitted to its kind, on npm start and next start alike (the Vercel
 * output's routes carry the same: tests/integration/vercel-build.test.ts), and the MDN Observatory's
 * own rules scoring every page, document and API answer at A+ (≥ 100) without the TLS-only tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOCUMENT_PATHS } from '../../lib/routes/document-paths.ts'
import { SITE_PAGES } from '../../lib/routes/site-pages.ts'
import { observatoryScan } from '../support/observatory.ts'
import { SITE_BUILDS } from '../../harness/site-build.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'
import { SIGNUP_FORM_PATHS } from '../support/webmcp.ts'

const servers = {} as Record<'npm start' | 'next start', RunningSite>

beforeAll(async () => {
  ;[servers['npm start'], servers['next start']] = await Promise.all([startSite(), startSite({}, { server: 'next-start' })])
}, 240_000)
afterAll(async () => {
  await Promise.all(Object.values(servers).map((site) => site?.stop()))
})

// Written out here, so that a change in lib/http/security-headers.ts shows up as a failing test.
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()'
const SHARED = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'permissions-policy': PERMISSIONS_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'strict-transport-security': 'max-age=63072000',
}
const RESOURCE = {
  ...SHARED,
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'cross-origin',
}
const PAGE = { ...SHARED, 'referrer-policy': 'strict-origin-when-cross-origin', 'cross-origin-resource-policy': 'same-origin' }

/** The policy a page must carry. `pagePath`: pages with the sign-up form may submit it to the app, and to nowhere else but the site. */
function expectedPagePolicy(pagePath?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    SIGNUP_FORM_PATHS.includes(pagePath ?? '') ? `form-action 'self' ${new URL(SITE_BUILDS.test.APP_URL).origin}` : "form-action 'self'",
    "frame-ancestors 'none'",
    'upgrade-insecure-requests',
  ].join('; ')
}

/** Every script element of a page, as its opening tag. */
const scriptTags = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0])
/** The homepage and pricing carry schema.org data. */
const STRUCTURED_DATA_PATHS = ['/', '/pricing']

const pick = (response: Response, names: string[]) => Object.fromEntries(names.map((name) => [name, response.headers.get(name)]))

const RESOURCE_PATHS = [
  ...Object.values(DOCUMENT_PATHS),
  ...SITE_PAGES.map((page) => page.markdownPath),
  '/problems/rate_limit_exceeded',
  '/api/agent/v1/health',
  '/api/agent/v1/capabilities',
  '/api/agent/v1/resources',
  '/api/agent/v1/resources/product-overview',
  '/api/agent/v1/resources/nope',
]

describe.each(['npm start', 'next start'] as const)('%s', (server) => {
  it.each(SITE_PAGES.map((page) => page.path))(
    "the page %s: the page set, and a CSP allowing only the site's own scripts, which are all the page has",
    async (pagePath) => {
      const response = await servers[server].fetch(pagePath, { headers: { accept: 'text/html' } })
      expect(response.status).toBe(200)
      const html = await response.text()
      expect(pick(response, [...Object.keys(PAGE), 'content-security-policy'])).toEqual({
        ...PAGE,
        'content-security-policy': expectedPagePolicy(pagePath),
      })
      // The site's module and two data blocks the browser does not run: nothing inline to allow.
      expect(scriptTags(html)).toEqual([
        '<script type="module" src="/site.js">',
        ...(STRUCTURED_DATA_PATHS.includes(pagePath) ? ['<script type="application/ld+json">'] : []),
        '<script type="application/json" id="webmcp-tools">',
      ])
    },
  )

  it.each(['/no-such-page', '/pricing/extra'])(
    "%s (the 404 page): the page set and a CSP allowing only the site's own scripts",
    async (missingPath) => {
      const response = await servers[server].fetch(missingPath, { headers: { accept: 'text/html' } })
      expect(response.status).toBe(404)
      expect(pick(response, [...Object.keys(PAGE), 'content-security-policy'])).toEqual({
        ...PAGE,
        'content-security-policy': expectedPagePolicy(),
      })
    },
  )

  it.each(RESOURCE_PATHS)('%s: the API set (nothing to load, nothing to frame), CORS intact', async (resourcePath) => {
    const response = await servers[server].fetch(resourcePath)
    expect(response.status).toBe(resourcePath.endsWith('/nope') ? 404 : 200)
    expect(pick(response, Object.keys(RESOURCE))).toEqual(RESOURCE)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('a page asked for as Markdown gets the API set, not the page set', async () => {
    const response = await servers[server].fetch('/pricing', { headers: { accept: 'text/markdown' } })
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(pick(response, Object.keys(RESOURCE))).toEqual(RESOURCE)
  })

  it('MCP answers get the API set', async () => {
    const response = await servers[server].fetch('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(response.status).toBe(200)
    expect(pick(response, Object.keys(RESOURCE))).toEqual(RESOURCE)
  })
})

describe('MDN HTTP Observatory (app-side tests)', () => {
  it.each([...SITE_PAGES.map((page) => page.path), ...RESOURCE_PATHS.filter((path) => !path.endsWith('/nope'))])(
    '%s scores A+ (≥ 100)',
    async (scanPath) => {
      const scan = await observatoryScan(servers['npm start'].origin, scanPath)
      expect(scan.status).toBe(200)
      expect(scan.results.filter((result) => result.includes(' -'))).toEqual([])
      expect(scan.score).toBeGreaterThanOrEqual(100)
    },
  )
})
