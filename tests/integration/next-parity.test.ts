/**
 * `npm start` answers the agent surface, the documents and the homepage without Next's pipeline
 * (lib/server/direct-routes.ts); Next itself (`next start`, as on Vercel) serves the same paths from
 * the route files under app/. Both must give the same answers: status, body and contract headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSite, type RunningSite } from '../support/site-server.ts'

const BASE = 'https://agents.example.com'
let direct: RunningSite
let viaNext: RunningSite

beforeAll(async () => {
  ;[direct, viaNext] = await Promise.all([
    startSite({ BASE_URL: BASE }),
    startSite({ BASE_URL: BASE }, { server: 'next-start' }),
  ])
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
  ['openapi', '/openapi.json'],
  ['llms.txt', '/llms.txt'],
  ['sitemap', '/sitemap.xml'],
  ['robots', '/robots.txt'],
  ['developers.md', '/developers.md'],
  ['server card', '/.well-known/mcp/server-card.json'],
  ['server card, own type', '/.well-known/mcp/server-card.json', { headers: { accept: 'application/mcp-server-card+json' } }],
  ['manifest', '/.well-known/mcp.json'],
  ['client configuration', '/mcp.json'],
  ['protected resource', '/.well-known/oauth-protected-resource'],
  ['problem type', '/problems/rate_limit_exceeded'],
  ['unknown problem type', '/problems/nope'],
  ['homepage HTML', '/', { headers: { accept: 'text/html' } }],
  ['homepage Markdown', '/', { headers: { accept: 'text/markdown' } }],
  ['MCP discover', '/mcp', { method: 'POST', headers: { ...MODERN, 'mcp-method': 'server/discover' }, body: JSON.stringify({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: meta } }) }],
  ['MCP tools/call', '/mcp', {
    method: 'POST',
    headers: { ...MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'service.read_public_resource' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 't', method: 'tools/call', params: { name: 'service.read_public_resource', arguments: { resourceId: 'product-overview' }, _meta: meta } }),
  }],
  ['MCP header mismatch', '/mcp', { method: 'POST', headers: { ...MODERN, 'mcp-method': 'tools/list' }, body: JSON.stringify({ jsonrpc: '2.0', id: 'm', method: 'resources/list', params: { _meta: meta } }) }],
  ['MCP legacy initialize', '/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  }],
  ['MCP GET', '/mcp'],
]

/** Headers of the transport (Next compresses, npm start does not), live quota values and Next's page machinery. */
const TRANSPORT = new Set(['date', 'content-encoding', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit'])
const NEXT_VARY_TOKENS = new Set(['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch', 'accept-encoding'])

function comparable(response: Response) {
  const headers: Record<string, string> = {}
  for (const [name, value] of response.headers) {
    if (TRANSPORT.has(name)) continue
    if (name === 'vary') {
      const tokens = value.split(',').map((token) => token.trim()).filter((token) => !NEXT_VARY_TOKENS.has(token.toLowerCase()))
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
})
