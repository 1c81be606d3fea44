/** The benchmark cases: what each sends, and which quota store the site under test uses. */
import { MCP_PROTOCOL_VERSION } from '../../lib/contract/constants.ts'

export interface BenchCase {
  name: string
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: string
  store: 'memory' | 'upstash'
}

const readResource = (id: string | number, meta: object) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'service.read_public_resource', arguments: { resourceId: 'product-overview' }, ...meta },
  })

export function benchCases(): BenchCase[] {
  const rest = (name: string, path: string, store: BenchCase['store'] = 'memory'): BenchCase => ({ name, method: 'GET', path, headers: {}, store })
  return [
    rest('rest-health', '/api/agent/v1/health'),
    rest('rest-resource', '/api/agent/v1/resources/product-overview'),
    rest('rest-resource-upstash', '/api/agent/v1/resources/product-overview', 'upstash'),
    {
      name: 'mcp-tools-call',
      method: 'POST',
      path: '/mcp',
      store: 'memory',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MCP_PROTOCOL_VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': 'service.read_public_resource',
      },
      body: readResource('bench-1', {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MCP_PROTOCOL_VERSION,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      }),
    },
    {
      name: 'mcp-legacy-tools-call',
      method: 'POST',
      path: '/mcp',
      store: 'memory',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: readResource(1, {}),
    },
    rest('openapi-json', '/openapi.json'),
    { name: 'home-markdown', method: 'GET', path: '/', headers: { accept: 'text/markdown' }, store: 'memory' },
    { name: 'page-html', method: 'GET', path: '/pricing', headers: { accept: 'text/html' }, store: 'memory' },
    rest('page-twin', '/pricing.md'),
    // The same twin through negotiation: under next start, proxy.ts runs for it (its cost against page-twin).
    { name: 'page-negotiated', method: 'GET', path: '/pricing', headers: { accept: 'text/markdown' }, store: 'memory' },
  ]
}
