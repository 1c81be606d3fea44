/**
 * npm start's routing decisions, in-process (lib/server/router.ts): a build output made of a few
 * bodies and a routes manifest as Next writes them, requests as plain values, and what answers.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { describe, expect, it } from 'vitest'
import { createClientAddressResolver } from '../../lib/client-address.ts'
import { API_BASE_PATH, MCP_MAX_BODY_BYTES, MCP_PATH } from '../../lib/contract/constants.ts'
import { EXPOSED_HEADERS } from '../../lib/http/headers.ts'
import { encodableBody } from '../../lib/http/compression.ts'
import type { HttpAnswer } from '../../lib/http/http-answer.ts'
import { createRouter, type Routing } from '../../lib/server/router.ts'
import type { RoutesManifest } from '../../lib/server/routes-manifest.ts'
import { StaticOutput, type StaticBody } from '../../lib/server/static-output.ts'

const body = (status: number, contentType: string, text: string, etag: string | null = null): StaticBody => ({
  status,
  headers: [['Content-Type', contentType], ...(etag ? [['ETag', etag] as [string, string]] : [])],
  body: encodableBody(Buffer.from(text)),
})

const HTML = 'text/html; charset=utf-8'
const MARKDOWN = 'text/markdown; charset=utf-8'

/** The shape of the build's routes manifest: rules and rewrites as next.config.ts states them, compiled by Next. */
const MANIFEST: RoutesManifest = {
  caseSensitive: false,
  headers: [
    { source: '/pricing', regex: '^/pricing(?:/)?$', headers: [{ key: 'Vary', value: 'Accept' }] },
    { source: '/pricing.md', regex: '^/pricing\\.md(?:/)?$', headers: [{ key: 'Vary', value: 'Accept' }] },
    { source: '/:path*', regex: '^(?:/((?:[^/]+?)(?:/(?:[^/]+?))*))?(?:/)?$', headers: [{ key: 'Strict-Transport-Security', value: 'max-age=1' }] },
  ],
  rewrites: {
    beforeFiles: [],
    afterFiles: [{ source: '/pricing.md', destination: '/md/pricing', regex: '^/pricing\\.md(?:/)?$' }],
    fallback: [{ source: '/:path*.md', destination: '/md/not-found', regex: '^(?:/((?:[^/]+?)(?:/(?:[^/]+?))*))?\\.md(?:/)?$' }],
  },
}

const staticOutput = new StaticOutput(
  new Map([
    ['/pricing', body(200, HTML, '<p>Pricing</p>', 'W/"pricing"')],
    ['/md/pricing', body(200, MARKDOWN, '# Pricing')],
    ['/md/not-found', body(404, MARKDOWN, '# Not found')],
    ['/_not-found', body(404, HTML, '<p>Not found</p>')],
  ]),
  MANIFEST,
)

const SITE_WIDE = [['Strict-Transport-Security', 'max-age=1']] as const
const router = createRouter({ staticOutput, siteWideHeaders: SITE_WIDE, resolveClientAddress: createClientAddressResolver([]) })

const route = (method: string, target: string, headers: IncomingHttpHeaders = {}, peerAddress = '203.0.113.9'): Routing =>
  router({ method, target, headers, peerAddress })

function answerOf(routing: Routing): { status: number; headers: HttpAnswer['headers']; body: string | null } {
  if (routing.kind !== 'answer') throw new Error(`expected an answer, got ${routing.kind}`)
  const { status, headers, body } = routing.answer
  return { status, headers, body: body ? Buffer.from(body).toString() : null }
}

describe('npm start routing (lib/server/router.ts)', () => {
  it('answers a GET of a prerendered page with its body, the build rules’ headers, then its own, and Content-Length', () => {
    expect(answerOf(route('GET', '/pricing', { accept: 'text/html' }))).toEqual({
      status: 200,
      headers: [
        ['Vary', 'Accept'],
        ['Strict-Transport-Security', 'max-age=1'],
        ['Content-Type', HTML],
        ['ETag', 'W/"pricing"'],
        ['Content-Length', '14'],
      ],
      body: '<p>Pricing</p>',
    })
  })

  it('answers HEAD with the GET headers and no body, and a matching If-None-Match with 304 without Content-Type', () => {
    expect(answerOf(route('HEAD', '/pricing'))).toMatchObject({ status: 200, body: null })
    expect(answerOf(route('HEAD', '/pricing')).headers).toEqual(answerOf(route('GET', '/pricing')).headers)
    expect(answerOf(route('GET', '/pricing', { 'if-none-match': 'W/"pricing"' }))).toEqual({
      status: 304,
      headers: [
        ['Vary', 'Accept'],
        ['Strict-Transport-Security', 'max-age=1'],
        ['ETag', 'W/"pricing"'],
      ],
      body: null,
    })
  })

  it('answers a page asked for as Markdown (Accept) with its twin under the page path’s headers', () => {
    expect(answerOf(route('GET', '/pricing', { accept: 'text/markdown' }))).toEqual({
      status: 200,
      headers: [
        ['Vary', 'Accept'],
        ['Strict-Transport-Security', 'max-age=1'],
        ['Content-Type', MARKDOWN],
        ['Content-Length', '9'],
      ],
      body: '# Pricing',
    })
  })

  it('answers the rewrites of the routes manifest: a page’s .md URL with its twin, any other .md URL with the Markdown 404', () => {
    expect(answerOf(route('GET', '/pricing.md'))).toMatchObject({ status: 200, body: '# Pricing' })
    expect(answerOf(route('GET', '/nothing/here.md'))).toEqual({
      status: 404,
      headers: [
        ['Strict-Transport-Security', 'max-age=1'],
        ['Content-Type', MARKDOWN],
        ['Content-Length', '11'],
      ],
      body: '# Not found',
    })
  })

  it('answers a page path that names no page with the HTML 404', () => {
    expect(answerOf(route('GET', '/no-such-page'))).toMatchObject({ status: 404, body: '<p>Not found</p>' })
  })

  it('hands the agent API and MCP to their handlers with the client address of the connection, whatever forwarding headers the client sent', () => {
    const forged = { 'x-forwarded-for': '1.1.1.1', 'x-real-ip': '2.2.2.2' }
    const rest = route('GET', `${API_BASE_PATH}/health?x=1`, forged)
    expect(rest).toMatchObject({ kind: 'handler', target: `${API_BASE_PATH}/health?x=1`, clientAddress: '203.0.113.9' })
    expect(rest.kind === 'handler' && rest.route.path).toBe(API_BASE_PATH)
    expect(rest.kind === 'handler' && rest.route.maxBodyBytes).toBeNull()
    const mcp = route('POST', MCP_PATH, forged, '::ffff:198.51.100.4')
    expect(mcp).toMatchObject({ kind: 'handler', target: MCP_PATH, clientAddress: '198.51.100.4' })
    expect(mcp.kind === 'handler' && mcp.route.maxBodyBytes).toBe(MCP_MAX_BODY_BYTES)
    // Below /mcp is no route of MCP's: the paths next to it are not MCP's either.
    expect(route('POST', `${MCP_PATH}/x`).kind).not.toBe('handler')
    expect(route('GET', `${API_BASE_PATH}x`).kind).not.toBe('handler')
  })

  it('takes the forwarded client only from a TRUST_PROXY peer', () => {
    const behindProxy = createRouter({ staticOutput, siteWideHeaders: SITE_WIDE, resolveClientAddress: createClientAddressResolver(['127.0.0.1']) })
    const forwarded = { 'x-forwarded-for': '198.51.100.7' }
    expect(behindProxy({ method: 'GET', target: `${API_BASE_PATH}/health`, headers: forwarded, peerAddress: '127.0.0.1' })).toMatchObject({
      clientAddress: '198.51.100.7',
    })
    expect(behindProxy({ method: 'GET', target: `${API_BASE_PATH}/health`, headers: forwarded, peerAddress: '203.0.113.9' })).toMatchObject({
      clientAddress: '203.0.113.9',
    })
  })

  it('hands an agent API path with a malformed percent-encoding to the API, which answers it in the contract’s format', () => {
    expect(route('GET', `${API_BASE_PATH}/resources/%E0%A4%A`)).toMatchObject({ kind: 'handler', target: `${API_BASE_PATH}/resources/%E0%A4%A` })
  })

  it('answers a CORS preflight of a page or document with 204, the CORS headers and the site-wide ones', () => {
    expect(answerOf(route('OPTIONS', '/pricing', { 'access-control-request-method': 'GET', origin: 'https://elsewhere.example' }))).toEqual({
      status: 204,
      headers: [
        ['Strict-Transport-Security', 'max-age=1'],
        ['Access-Control-Allow-Origin', '*'],
        ['Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', ')],
        ['Access-Control-Allow-Methods', 'GET, HEAD'],
        ['Access-Control-Allow-Headers', '*'],
        ['Access-Control-Max-Age', '86400'],
      ],
      body: null,
    })
  })

  const METHOD_NOT_ALLOWED = {
    status: 405,
    headers: [
      ['Strict-Transport-Security', 'max-age=1'],
      ['Allow', 'GET, HEAD'],
      ['Content-Type', 'text/plain; charset=utf-8'],
      ['Content-Length', '55'],
    ],
    body: 'Method not allowed: this address answers GET and HEAD.\n',
  }

  it('answers TRACE anywhere outside the handlers’ routes, and any method but GET and HEAD on a prerendered path, with 405 and Allow', () => {
    expect(answerOf(route('TRACE', '/pricing'))).toEqual(METHOD_NOT_ALLOWED)
    expect(answerOf(route('TRACE', '/_next/static/chunks/app.js'))).toEqual(METHOD_NOT_ALLOWED)
    expect(answerOf(route('POST', '/pricing'))).toEqual(METHOD_NOT_ALLOWED)
    expect(answerOf(route('DELETE', '/pricing.md'))).toEqual(METHOD_NOT_ALLOWED)
  })

  it('answers another method on a path that names nothing with the 404 it would get for GET', () => {
    expect(answerOf(route('POST', '/no-such-page'))).toMatchObject({ status: 404, body: '<p>Not found</p>' })
  })

  it('answers a malformed percent-encoding in the path with 400 in plain text', () => {
    expect(answerOf(route('GET', '/pricing%E0%A4%A'))).toEqual({
      status: 400,
      headers: [
        ['Strict-Transport-Security', 'max-age=1'],
        ['Content-Type', 'text/plain; charset=utf-8'],
        ['Content-Length', '53'],
      ],
      body: 'Bad request: malformed percent-encoding in the path.\n',
    })
  })

  it('takes an absolute-form target as its path and query (RFC 9112 §3.2.2), and an unparsable one as /', () => {
    expect(route('GET', 'http://agents.example.com/pricing?a=1', { accept: 'text/html' })).toEqual(route('GET', '/pricing', { accept: 'text/html' }))
    expect(route('GET', `http://agents.example.com${API_BASE_PATH}/health?a=1`)).toMatchObject({
      kind: 'handler',
      target: `${API_BASE_PATH}/health?a=1`,
    })
    expect(route('GET', 'http://agents.example.com/_next/static/a.js?v=2')).toEqual({
      kind: 'next',
      target: '/_next/static/a.js?v=2',
      clientAddress: '203.0.113.9',
    })
    expect(route('GET', 'http://[')).toEqual(route('GET', '/'))
  })

  it('leaves to Next what the build output does not answer (assets, files), with the target in origin-form and the resolved client', () => {
    const client = { clientAddress: '203.0.113.9' }
    expect(route('GET', '/_next/static/chunks/app.js')).toEqual({ kind: 'next', target: '/_next/static/chunks/app.js', ...client })
    expect(route('GET', '/favicon.ico?v=1')).toEqual({ kind: 'next', target: '/favicon.ico?v=1', ...client })
    expect(route('GET', '/api/cron/deliver-leads', {}, '2001:db8::7')).toEqual({
      kind: 'next',
      target: '/api/cron/deliver-leads',
      clientAddress: '2001:db8::7',
    })
    // Next redirects a trailing slash before any rewrite applies.
    expect(route('GET', '/pricing.md/')).toEqual({ kind: 'next', target: '/pricing.md/', ...client })
  })
})

describe('npm start request listener (lib/server/request-listener.ts)', () => {
  interface Written {
    status?: number
    headers: Array<[string, string]>
    body?: unknown
  }
  function serve(target: string, rawHeaders: string[], peerAddress: string) {
    const headers: IncomingHttpHeaders = {}
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const name = (rawHeaders[i] as string).toLowerCase()
      headers[name] = headers[name] === undefined ? rawHeaders[i + 1] : `${headers[name]}, ${rawHeaders[i + 1]}`
    }
    const request = { method: 'GET', url: target, headers, rawHeaders, socket: { remoteAddress: peerAddress }, resume: () => {} }
    const written: Written = { headers: [] }
    const response = {
      headersSent: false,
      setHeader: (name: string, value: string) => written.headers.push([name, value]),
      writeHead(status: number, flat: string[]) {
        written.status = status
        for (let i = 0; i < flat.length; i += 2) written.headers.push([flat[i] as string, flat[i + 1] as string])
        return response
      },
      end: (body: unknown) => {
        written.body = body
      },
    }
    return { request, response, written }
  }

  it("hands the handler the resolved client address and the compression option on the request value, and Next the resolved client as X-Forwarded-For, never the client's own", async () => {
    const { createRequestListener } = await import('../../lib/server/request-listener.ts')
    const { BodyBudget } = await import('../../lib/http/body-budget.ts')
    const seen: Array<{ clientAddress: string; compressAnswer: boolean; forwardedFor: string | null }> = []
    const echo = {
      path: '/echo',
      tree: false,
      maxBodyBytes: null,
      handler: async (request: import('../../lib/http/agent-request.ts').AgentRequest) => {
        if (request instanceof Request) throw new Error('npm start hands over plain requests')
        seen.push({
          clientAddress: request.clientAddress,
          compressAnswer: request.compressAnswer,
          forwardedFor: request.headers.get('x-forwarded-for'),
        })
        return { status: 200, headers: [['X-Echo', 'yes']] as const, body: null }
      },
    }
    const handedToNext: Array<{ url: string | undefined; headers: IncomingHttpHeaders; rawHeaders: string[] }> = []
    const listener = createRequestListener({
      router: createRouter({ staticOutput, siteWideHeaders: SITE_WIDE, resolveClientAddress: createClientAddressResolver([]), routes: [echo] }),
      next: async (request) => {
        handedToNext.push({ url: request.url, headers: request.headers, rawHeaders: request.rawHeaders })
      },
      origin: 'https://agents.example.com',
      siteWideHeaders: SITE_WIDE,
      bodyBudget: new BodyBudget(1024, 1024),
      compressAnswers: true,
    })
    const forged = ['Host', 'x', 'X-Forwarded-For', '1.1.1.1', 'x-real-ip', '3.3.3.3', 'X-FORWARDED-FOR', '2.2.2.2', 'Accept', '*/*']

    const handled = serve('/echo', forged, '198.51.100.7')
    listener(handled.request as never, handled.response as never)
    await new Promise((resolve) => setImmediate(resolve))
    expect(seen).toEqual([{ clientAddress: '198.51.100.7', compressAnswer: true, forwardedFor: '1.1.1.1, 2.2.2.2' }])
    expect(handled.written).toEqual({
      status: 200,
      headers: [
        ['Strict-Transport-Security', 'max-age=1'],
        ['X-Echo', 'yes'],
      ],
      body: null,
    })

    const passed = serve('http://x/_next/static/a.js', forged, '198.51.100.7')
    listener(passed.request as never, passed.response as never)
    expect(handedToNext).toEqual([
      {
        url: '/_next/static/a.js',
        headers: { host: 'x', accept: '*/*', 'x-forwarded-for': '198.51.100.7' },
        rawHeaders: ['Host', 'x', 'Accept', '*/*', 'X-Forwarded-For', '198.51.100.7'],
      },
    ])
    expect(passed.written.headers).toEqual([['Strict-Transport-Security', 'max-age=1']])
  })
})
