/**
 * `npm start` serves the build's prerendered output from memory and the agent API and MCP without
 * Next's pipeline (lib/server/); Next itself (`next start`, as on Vercel) serves the same build from
 * the route files under app/ and proxy.ts. Both must give the same answers: status, body and the
 * headers clients act on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROBLEM_CODES } from '../../lib/contract/problems.ts'
import { DOCUMENT_PATHS } from '../../lib/routes/document-paths.ts'
import { SITE_PAGES } from '../../lib/routes/site-pages.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

let direct: RunningSite
let viaNext: RunningSite

beforeAll(async () => {
  ;[direct, viaNext] = await Promise.all([startSite(), startSite({}, { server: 'next-start' })])
})
afterAll(async () => {
  await Promise.all([direct?.stop(), viaNext?.stop()])
})

const MODERN = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
}
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }

const REQUESTS: [string, string, RequestInit?][] = [
  ['health', '/api/agent/v1/health'],
  ['capabilities', '/api/agent/v1/capabilities'],
  ['resources', '/api/agent/v1/resources'],
  ['one resource', '/api/agent/v1/resources/agent-boundaries'],
  ['unknown resource', '/api/agent/v1/resources/nope'],
  ['base path', '/api/agent/v1'],
  ['trailing slash', '/api/agent/v1/health/'],
  ['HEAD', '/api/agent/v1/health', { method: 'HEAD' }],
  ['POST on REST', '/api/agent/v1/health', { method: 'POST', body: '{}' }],
  ['CORS preflight', '/api/agent/v1/health', { method: 'OPTIONS', headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' } }],
  ...Object.entries(DOCUMENT_PATHS).map(([name, path]): [string, string] => [name, path]),
  ...PROBLEM_CODES.map((code): [string, string] => [`problem type ${code}`, `/problems/${code}`]),
  ['unknown problem type', '/problems/nope'],
  ...SITE_PAGES.flatMap((page): [string, string, RequestInit?][] => [
    [`${page.path} HTML`, page.path, { headers: { accept: 'text/html' } }],
    [`${page.path} Markdown`, page.path, { headers: { accept: 'text/markdown' } }],
    [`${page.path} Markdown, q=0`, page.path, { headers: { accept: 'text/markdown;q=0, text/html' } }],
    [`${page.path} HEAD`, page.path, { method: 'HEAD' }],
    [page.markdownPath, page.markdownPath],
  ]),
  ['missing .md', '/no-such-page.md'],
  ['missing page as Markdown', '/no-such-page', { headers: { accept: 'text/markdown' } }],
  ['document preflight', '/mcp/server-card', { method: 'OPTIONS', headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' } }],
  [
    'MCP discover',
    '/mcp',
    {
      method: 'POST',
      headers: { ...MODERN, 'mcp-method': 'server/discover' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: meta } }),
    },
  ],
  [
    'MCP tools/call',
    '/mcp',
    {
      method: 'POST',
      headers: { ...MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'service.read_public_resource' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 't',
        method: 'tools/call',
        params: { name: 'service.read_public_resource', arguments: { resourceId: 'product-overview' }, _meta: meta },
      }),
    },
  ],
  [
    'MCP header mismatch',
    '/mcp',
    {
      method: 'POST',
      headers: { ...MODERN, 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'm', method: 'resources/list', params: { _meta: meta } }),
    },
  ],
  [
    'MCP legacy initialize',
    '/mcp',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    },
  ],
  ['MCP GET', '/mcp'],
]

/** Headers of the transport (both compress, differently), live quota values and Next's own machinery. */
const TRANSPORT = new Set([
  'date',
  'content-encoding',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit',
])
const NEXT_INTERNAL = /^x-next(?:js)?-|^x-middleware-/
const NEXT_VARY_TOKENS = new Set(['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch', 'accept-encoding'])

function comparable(response: Response) {
  const headers: Record<string, string> = {}
  for (const [name, value] of response.headers) {
    if (TRANSPORT.has(name) || NEXT_INTERNAL.test(name)) continue
    // Next computes its own ETag for HTML pages: both send one, each honoured by its own server.
    if (name === 'etag' && response.headers.get('content-type')?.startsWith('text/html')) {
      headers.etag = 'present'
      continue
    }
    if (name === 'vary') {
      const tokens = value
        .split(',')
        .map((token) => token.trim())
        .filter((token) => !NEXT_VARY_TOKENS.has(token.toLowerCase()))
      if (tokens.length) headers.vary = tokens.join(', ')
      continue
    }
    headers[name] = value
  }
  return { status: response.status, headers }
}

describe('npm start and next start answer alike', () => {
  for (const [label, path, init] of REQUESTS) {
    it(label, async () => {
      const [a, b] = await Promise.all([direct.fetch(path, init), viaNext.fetch(path, init)])
      const [bodyA, bodyB] = await Promise.all([a.text(), b.text()])
      expect(comparable(a)).toEqual(comparable(b))
      expect(bodyA).toBe(bodyB)
      expect(a.status).toBeLessThan(500)
    })
  }

  it('the HTML 404: the same page; npm start lets caches keep it briefly where Next forbids storing it', async () => {
    const [a, b] = await Promise.all([direct.fetch('/no-such-page'), viaNext.fetch('/no-such-page')])
    expect([a.status, b.status]).toEqual([404, 404])
    expect(await a.text()).toBe(await b.text())
    expect(a.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate, s-maxage=300')
    expect(b.headers.get('cache-control')).toBe('private, no-cache, no-store, max-age=0, must-revalidate')
  })
})
