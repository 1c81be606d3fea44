/**
 * Where the SDK's own HTTP entry, `createMcpHandler`, gives the contract's answers and where it does
 * not, recorded against the SDK itself with the very server factory lib/mcp serves with: the evidence
 * behind docs/mcp.md's choice of the building blocks it composes. When one of these fails, the SDK
 * changed: see whether createMcpHandler can now serve more of POST /mcp.
 */
import { createMcpHandler } from '@modelcontextprotocol/server'
import { afterAll, describe, expect, it } from 'vitest'
import { loadContent } from '../../lib/content/parse.ts'
import { parseConfig } from '../../lib/env.ts'
import { buildMcpCatalog } from '../../lib/mcp/catalog.ts'
import { dispatchMcpRequest } from '../../lib/mcp/gate.ts'
import { createMcpEndpoint, mcpServerFactory } from '../../lib/mcp/server.ts'
import { buildSite } from '../../lib/site-model.ts'
import { envelope, MODERN, modernRequest } from '../support/mcp-http.ts'

const catalog = buildMcpCatalog(buildSite(parseConfig({ BASE_URL: 'https://agents.example.com' }), loadContent()))
const entry = createMcpHandler(mcpServerFactory(catalog))
afterAll(() => entry.close())

async function post(headers: Record<string, string>, body: unknown, method = 'POST') {
  const request = new Request('http://127.0.0.1/mcp', { method, headers, ...(method === 'POST' ? { body: JSON.stringify(body) } : {}) })
  const response = await entry.fetch(request)
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) }
}

describe('createMcpHandler gives the contract’s answer to a valid 2026-07-28 call', () => {
  it('sends the same bytes for tools/call as lib/mcp does through the SDK building blocks it composes', async () => {
    const request = modernRequest('tools/call', { name: 'service.read_public_resource', arguments: { resourceId: 'product-overview' } })
    const dispatch = dispatchMcpRequest(request.body, {
      protocolVersionHeader: MODERN,
      mcpMethodHeader: 'tools/call',
      mcpNameHeader: 'service.read_public_resource',
    })
    if (!('leg' in dispatch)) throw new Error('the gate refused a valid tools/call')
    const served = await createMcpEndpoint(catalog)(dispatch)
    const fromEntry = await post(request.headers, request.body)
    expect(fromEntry.status).toBe(served.status)
    expect(fromEntry.text).toBe(Buffer.from(served.body ?? []).toString())
  })
})

describe('createMcpHandler does not give the contract’s answer', () => {
  it('to server/discover: it lists 2026-07-28 alone, replacing the factory’s handler that lists all four versions', async () => {
    const request = modernRequest('server/discover')
    const answer = await post(request.headers, request.body)
    expect(answer.json().result.supportedVersions).toEqual([MODERN])
  })

  it('to a missing Mcp-Method header: -32020 without the contract’s data.code, detail and resolution', async () => {
    const request = modernRequest('tools/list')
    delete request.headers['mcp-method']
    const answer = await post(request.headers, request.body)
    expect(answer.status).toBe(400)
    expect(answer.json().error.code).toBe(-32020)
    expect(answer.json().error.data).not.toHaveProperty('code')
    expect(answer.json().error.data).not.toHaveProperty('detail')
  })

  it('to an unsupported pinned version: -32022 listing 2026-07-28 alone', async () => {
    const request = modernRequest('tools/list')
    request.body.params._meta = envelope('2099-01-01')
    const answer = await post({ ...request.headers, 'mcp-protocol-version': '2099-01-01' }, request.body)
    expect(answer.json().error).toMatchObject({ code: -32022, data: { supported: [MODERN], requested: '2099-01-01' } })
  })

  it('to initialize under the 2026-07-28 header: -32020, where the contract negotiates 2025-11-25', async () => {
    const initialize = { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: 'c', version: '1' } }
    const answer = await post(
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN },
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize },
    )
    expect(answer.json().error.code).toBe(-32020)
  })

  it('to a 2025-era request: an SSE stream, and 406 to a client that accepts only JSON', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list' }
    const streamed = await post({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body)
    expect(streamed.headers.get('content-type')).toBe('text/event-stream')
    const jsonOnly = await post({ 'content-type': 'application/json', accept: 'application/json' }, body)
    expect(jsonOnly.status).toBe(406)
  })

  it('to a 2025-era batch of one request: a bare object, not an array of one', async () => {
    const answer = await post({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, [
      { jsonrpc: '2.0', id: 7, method: 'ping' },
    ])
    expect(answer.text).toContain('data: {"result":{},"jsonrpc":"2.0","id":7}')
  })

  it('to a body not declared as JSON: 415 with -32000 and no data, where the contract sends -31415', async () => {
    const answer = await post({ 'content-type': 'text/plain' }, { jsonrpc: '2.0', id: 1, method: 'ping' })
    expect(answer.status).toBe(415)
    expect(answer.json().error).toEqual({ code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' })
  })

  it('to subscriptions/listen: a stream, where the contract answers -32601', async () => {
    const request = modernRequest('subscriptions/listen', { notifications: {} })
    const response = await entry.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: request.headers,
        body: JSON.stringify(request.body),
        signal: AbortSignal.timeout(5_000),
      }),
    )
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    await response.body?.cancel()
  })

  it('to GET: 405 with -32000, without the contract’s -31405, Allow and mcp_method_not_allowed', async () => {
    const answer = await post({}, undefined, 'GET')
    expect(answer.status).toBe(405)
    expect(answer.json().error).toEqual({ code: -32000, message: 'Method not allowed.' })
  })
})
