/**
 * The visual editor exists only where it is safe: a production build without the editor's GitHub
 * settings (`npm start`, `next start`) has no /keystatic and no /api/keystatic — 404, nothing to sign
 * in to or write through — and ships none of the editor's code. A build with them (made-up values:
 * github.com is never reached) serves the editor with its own headers, sends sign-in to GitHub with
 * the app's client id, ships no secret, and leaves the public pages byte for byte as they were.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureSiteBuild, SITE_BUILDS } from '../../harness/site-build.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'
import { SITE_PAGES } from '../../lib/routes/site-pages.ts'

type Server = 'npm start' | 'next start'
const servers = {} as Record<Server, RunningSite>
/** The same site built with the editor's GitHub settings (SITE_BUILDS.editor). */
const withEditor = {} as Record<Server, RunningSite>

beforeAll(async () => {
  ;[servers['npm start'], servers['next start'], withEditor['npm start'], withEditor['next start']] = await Promise.all([
    startSite(),
    startSite({}, { server: 'next-start' }),
    startSite({}, { build: 'editor' }),
    startSite({}, { build: 'editor', server: 'next-start' }),
  ])
}, 240_000)
afterAll(async () => {
  await Promise.all([...Object.values(servers), ...Object.values(withEditor)].map((site) => site?.stop()))
})

const GITHUB = SITE_BUILDS.editor
const SECRETS = [GITHUB.KEYSTATIC_GITHUB_CLIENT_SECRET, GITHUB.KEYSTATIC_SECRET]

/** Every file under `dir`. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  )

const EDITOR_REQUESTS: Array<[string, RequestInit]> = [
  ['/keystatic', {}],
  ['/keystatic/singleton/pricing', {}],
  ['/api/keystatic/tree', {}],
  ['/api/keystatic/github/login', {}],
  ['/api/keystatic/update', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"additions":[],"deletions":[]}' }],
]

describe.each(['npm start', 'next start'] as const)('%s without the editor settings', (server) => {
  it.each(EDITOR_REQUESTS)('%s answers 404', async (requestPath, init) => {
    const response = await servers[server].fetch(requestPath, { ...init, redirect: 'manual' })
    expect(response.status).toBe(404)
    expect(await response.text()).not.toMatch(/keystatic/i)
  })
})

describe('the production build without the editor settings', () => {
  it('holds no editor code: no file of .next/static or .next/server names Keystatic', () => {
    const next = path.join(ensureSiteBuild('test'), '.next')
    const naming = [...filesUnder(path.join(next, 'static')), ...filesUnder(path.join(next, 'server'))].filter(
      (file) => /\.(js|json|html|rsc)$/.test(file) && readFileSync(file, 'utf8').includes('@keystatic'),
    )
    expect(naming).toEqual([])
  })
})

// Written out here, so that a change in lib/http/security-headers.ts shows up as a failing test.
const EDITOR_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https://avatars.githubusercontent.com",
  "font-src 'self' data:",
  "connect-src 'self' https://api.github.com",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self' https://github.com",
  "frame-ancestors 'none'",
].join('; ')

describe.each(['npm start', 'next start'] as const)('%s of a build with the editor GitHub settings', (server) => {
  it('/keystatic answers 200 with the editor: noindex, its own Content-Security-Policy, never cached, the repository and app as data, and the client code that signs in with GitHub', async () => {
    const site = withEditor[server]
    const response = await site.fetch('/keystatic')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow')
    expect(response.headers.get('content-security-policy')).toBe(EDITOR_POLICY)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const html = await response.text()
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>')
    expect(html).toContain(GITHUB.NEXT_PUBLIC_KEYSTATIC_GITHUB_APP_SLUG)
    expect(html).toContain(GITHUB.KEYSTATIC_GITHUB_REPO.split('/')[1])
    for (const secret of SECRETS) expect(html).not.toContain(secret)
    const scripts = [...html.matchAll(/<script[^>]* src="([^"]+)"/g)].map((match) => match[1] as string)
    const signsIn = await Promise.all(scripts.map(async (src) => (await (await site.fetch(src)).text()).includes('/api/keystatic/github/login')))
    expect(signsIn).toContain(true)
  })

  it("/api/keystatic/github/login redirects to GitHub's OAuth authorization with the app's client id and a callback on the requesting host", async () => {
    const site = withEditor[server]
    const response = await site.fetch('/api/keystatic/github/login')
    expect(response.status).toBe(307)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const location = new URL(response.headers.get('location') ?? '')
    expect(`${location.origin}${location.pathname}`).toBe('https://github.com/login/oauth/authorize')
    expect([...location.searchParams]).toEqual([
      ['client_id', GITHUB.KEYSTATIC_GITHUB_CLIENT_ID],
      ['redirect_uri', `${site.origin}/api/keystatic/github/oauth/callback`],
    ])
  })

  it('behind a reverse proxy, the callback is on the host and scheme the browser asked for (its Host, the proxy’s X-Forwarded-Proto)', async () => {
    const site = withEditor[server]
    // fetch cannot set Host; a proxy passes the browser's on.
    const { status, location } = await new Promise<{ status?: number; location?: string }>((resolve, reject) => {
      const headers = { host: 'edit.cadence.example', 'x-forwarded-proto': 'https' }
      const request = httpRequest({ host: '127.0.0.1', port: site.port, path: '/api/keystatic/github/login', headers }, (response) => {
        response.resume()
        resolve({ status: response.statusCode, location: response.headers.location })
      })
      request.once('error', reject).end()
    })
    expect(status).toBe(307)
    expect(new URL(location ?? '').searchParams.get('redirect_uri')).toBe('https://edit.cadence.example/api/keystatic/github/oauth/callback')
  })

  it.each(SITE_PAGES.flatMap((page) => [page.path, page.markdownPath]))(
    '%s is byte for byte what the build without the editor answers, with the same Content-Security-Policy',
    async (pagePath) => {
      const [plain, edited] = await Promise.all([servers['npm start'].fetch(pagePath), withEditor[server].fetch(pagePath)])
      expect(edited.status).toBe(200)
      expect(edited.headers.get('content-security-policy')).toBe(plain.headers.get('content-security-policy'))
      expect(await edited.text()).toBe(await plain.text())
    },
  )
})

describe('the production build with the editor GitHub settings', () => {
  it('ships neither the client secret nor the session secret: no file of .next/static holds them', () => {
    const files = filesUnder(path.join(ensureSiteBuild('editor'), '.next', 'static'))
    const holding = files.filter((file) => SECRETS.some((secret) => readFileSync(file, 'utf8').includes(secret)))
    expect(files.length).toBeGreaterThan(0)
    expect(holding).toEqual([])
  })
})
