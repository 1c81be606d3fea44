import { describe, expect, it } from 'vitest'
import { classifyMcpBody, readableId, type McpMirroredHeaders, type McpRoute } from '../../lib/mcp/classify.ts'

const SUPPORTED = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
const MODERN_HEADERS = { protocolVersion: '2026-07-28' }

function modern(method: string, params: Record<string, unknown> = {}, id: string | number | null = 'r1') {
  return { jsonrpc: '2.0', ...(id === null ? {} : { id }), method, params: { ...params, _meta: { ...ENVELOPE } } }
}

function rejection(route: McpRoute) {
  if (route.kind !== 'reject') throw new Error(`expected a rejection, got ${route.kind}`)
  const { status, id, error } = route.answer
  return { status, id, code: error.code, dataCode: error.data?.code, detail: error.data?.detail }
}

describe('shape of the body', () => {
  it.each([
    ['a string', 'hello', null],
    ['a number', 42, null],
    ['null', null, null],
    ['an empty object', {}, null],
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 1, method: 'tools/list' }, 1],
    ['a missing method', { jsonrpc: '2.0', id: 'a' }, 'a'],
    ['a numeric method', { jsonrpc: '2.0', id: 'a', method: 7 }, 'a'],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'tools/list' }, null],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'tools/list' }, null],
    ['array params', { jsonrpc: '2.0', id: 3, method: 'tools/list', params: [1] }, 3],
    ['an unknown member', { jsonrpc: '2.0', id: 4, method: 'tools/list', extra: true }, 4],
    ['a posted response', { jsonrpc: '2.0', id: 5, result: {} }, 5],
    ['a _meta that is not an object on a legacy request', { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: 'x' } }, 6],
  ])('rejects %s with 400 -32600 and the readable id', (_label, body, id) => {
    expect(rejection(classifyMcpBody(body, {}))).toMatchObject({ status: 400, id, code: -32600 })
  })

  it('reads ids only when they are strings or integers', () => {
    expect(readableId({ id: 'x' })).toBe('x')
    expect(readableId({ id: 7 })).toBe(7)
    expect(readableId({ id: 7.5 })).toBeNull()
    expect(readableId([{ id: 1 }])).toBeNull()
  })
})

describe('initialize', () => {
  const initialize = (params: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params })
  const valid = { protocolVersion: '2026-07-28', capabilities: {}, clientInfo: { name: 'c', version: '1' } }

  it('is always routed to negotiation, even with a modern header and _meta', () => {
    const route = classifyMcpBody(initialize({ ...valid, _meta: { ...ENVELOPE, progressToken: 't' } }), { protocolVersion: '2026-07-28', method: 'initialize' })
    expect(route.kind).toBe('initialize')
    if (route.kind !== 'initialize') return
    expect(route.id).toBe(1)
    // The 2026-07-28 envelope is removed before the legacy handshake sees it; other _meta keys stay.
    expect(route.forward).toEqual(initialize({ ...valid, _meta: { progressToken: 't' } }))
  })

  it('negotiates even when the version header names a version nobody serves', () => {
    expect(classifyMcpBody(initialize(valid), { protocolVersion: '1999-01-01' }).kind).toBe('initialize')
  })

  it('still rejects an Mcp-Method header that disagrees with the body', () => {
    expect(rejection(classifyMcpBody(initialize(valid), { method: 'tools/list' }))).toMatchObject({
      status: 400,
      id: 1,
      code: -32020,
      dataCode: 'mcp_header_mismatch',
    })
  })
})

describe('2026-07-28 requests', () => {
  const headers = (method: string, extra: McpMirroredHeaders = {}): McpMirroredHeaders => ({ ...MODERN_HEADERS, method, ...extra })

  it('routes a valid request to the modern leg', () => {
    expect(classifyMcpBody(modern('tools/list'), headers('tools/list'))).toEqual({ kind: 'modern', id: 'r1', method: 'tools/list', notification: false })
  })

  it.each([
    ['MCP-Protocol-Version missing', modern('tools/list'), { method: 'tools/list' }],
    ['Mcp-Method missing', modern('tools/list'), MODERN_HEADERS],
    ['Mcp-Method disagreeing', modern('tools/list'), headers('resources/list')],
    ['Mcp-Method in another case', modern('tools/list'), headers('TOOLS/LIST')],
    ['Mcp-Name missing on tools/call', modern('tools/call', { name: 'service.x' }), headers('tools/call')],
    ['Mcp-Name disagreeing on tools/call', modern('tools/call', { name: 'service.x' }), headers('tools/call', { name: 'service.y' })],
    ['Mcp-Name missing on resources/read', modern('resources/read', { uri: 'service://public/a' }), headers('resources/read')],
    [
      'an invalid Base64 sentinel',
      modern('resources/read', { uri: 'service://public/a' }),
      headers('resources/read', { name: '=?base64?not base64?=' }),
    ],
    [
      'a sentinel naming another value',
      modern('resources/read', { uri: 'service://public/a' }),
      headers('resources/read', { name: `=?base64?${Buffer.from('service://public/b').toString('base64')}?=` }),
    ],
    ['non-ASCII in Mcp-Method', modern('tools/list'), headers('tools/listé')],
    [
      'the header version disagreeing with _meta',
      { ...modern('tools/list'), params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } } },
      headers('tools/list'),
    ],
  ])('rejects %s with 400 -32020 mcp_header_mismatch', (_label, body, mirrored) => {
    expect(rejection(classifyMcpBody(body, mirrored))).toMatchObject({ status: 400, id: 'r1', code: -32020, dataCode: 'mcp_header_mismatch' })
  })

  it('accepts a Base64-sentinel Mcp-Name that decodes to the body value (UTF-8)', () => {
    const uri = 'service://public/über'
    const body = modern('resources/read', { uri })
    const name = `=?base64?${Buffer.from(uri, 'utf8').toString('base64')}?=`
    expect(classifyMcpBody(body, headers('resources/read', { name })).kind).toBe('modern')
  })

  it.each([
    ['no _meta at all', { jsonrpc: '2.0', id: 'r1', method: 'tools/list', params: {} }],
    ['no params at all', { jsonrpc: '2.0', id: 'r1', method: 'tools/list' }],
    ['_meta that is not an object', { jsonrpc: '2.0', id: 'r1', method: 'tools/list', params: { _meta: 'x' } }],
    [
      'clientCapabilities missing',
      { jsonrpc: '2.0', id: 'r1', method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } },
    ],
    [
      'clientCapabilities of the wrong type',
      { jsonrpc: '2.0', id: 'r1', method: 'tools/list', params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': 'all' } } },
    ],
    [
      'protocolVersion of the wrong type',
      { jsonrpc: '2.0', id: 'r1', method: 'tools/list', params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': 20260728 } } },
    ],
    [
      'clientInfo without a version',
      { jsonrpc: '2.0', id: 'r1', method: 'tools/list', params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 'c' } } } },
    ],
  ])('rejects %s with 400 -32602 mcp_header_mismatch', (_label, body) => {
    expect(rejection(classifyMcpBody(body, headers('tools/list')))).toMatchObject({ status: 400, id: 'r1', code: -32602, dataCode: 'mcp_header_mismatch' })
  })

  it('serves a request whose _meta has no clientInfo (it is optional)', () => {
    expect(classifyMcpBody(modern('server/discover'), headers('server/discover')).kind).toBe('modern')
  })

  it.each([
    ['the header', { protocolVersion: '2099-01-01', method: 'tools/list' }, modern('tools/list'), '2099-01-01'],
    [
      '_meta without a header',
      { method: 'tools/list' },
      { ...modern('tools/list'), params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } },
      '2099-01-01',
    ],
    ['a legacy request', { protocolVersion: '2024-11-05' }, { jsonrpc: '2.0', id: 'r1', method: 'tools/list' }, '2024-11-05'],
  ])('answers an unsupported version pinned in %s with 400 -32022 listing all four versions', (_label, mirrored, body, requested) => {
    const route = classifyMcpBody(body, mirrored)
    expect(rejection(route)).toMatchObject({ status: 400, id: 'r1', code: -32022 })
    if (route.kind === 'reject') expect(route.answer.error.data).toMatchObject({ supported: SUPPORTED, requested })
  })

  it('answers subscriptions/listen with 404 -32601: the endpoint never streams', () => {
    expect(rejection(classifyMcpBody(modern('subscriptions/listen', { notifications: {} }), headers('subscriptions/listen')))).toMatchObject({
      status: 404,
      id: 'r1',
      code: -32601,
    })
  })

  it('routes unknown methods to the SDK, which answers 404 -32601', () => {
    expect(classifyMcpBody(modern('ping'), headers('ping')).kind).toBe('modern')
  })

  it('routes a modern notification without requiring standard headers', () => {
    expect(classifyMcpBody(modern('notifications/cancelled', {}, null), MODERN_HEADERS)).toEqual({
      kind: 'modern',
      id: null,
      method: 'notifications/cancelled',
      notification: true,
    })
  })
})

describe('legacy requests', () => {
  it('routes a request without a modern header or _meta to the legacy leg as 2025-03-26', () => {
    const body = { jsonrpc: '2.0', id: 7, method: 'tools/list' }
    expect(classifyMcpBody(body, {})).toEqual({ kind: 'legacy', id: 7, method: 'tools/list', batch: false, forward: body })
  })

  it('accepts every legacy version in the header', () => {
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      expect(classifyMcpBody({ jsonrpc: '2.0', id: 1, method: 'ping' }, { protocolVersion: version }).kind).toBe('legacy')
    }
  })

  it('still checks mirrored headers a legacy client chose to send', () => {
    const body = { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'service.a' } }
    expect(rejection(classifyMcpBody(body, { method: 'tools/list' }))).toMatchObject({ status: 400, code: -32020 })
    expect(rejection(classifyMcpBody(body, { name: 'service.b' }))).toMatchObject({ status: 400, code: -32020 })
    expect(classifyMcpBody(body, { name: 'service.a' }).kind).toBe('legacy')
  })

  it('routes the legacy notifications/initialized to the legacy leg', () => {
    expect(classifyMcpBody({ jsonrpc: '2.0', method: 'notifications/initialized' }, { protocolVersion: '2025-11-25' }).kind).toBe('legacy')
  })
})

describe('batches (2025-03-26 only)', () => {
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' })

  it('routes an array of legacy messages to the legacy leg as a batch', () => {
    const body = [ping(1), { jsonrpc: '2.0', method: 'notifications/initialized' }]
    expect(classifyMcpBody(body, {})).toEqual({ kind: 'legacy', id: null, method: null, batch: true, forward: body })
  })

  it.each([
    ['an empty batch', [], {}],
    ['21 messages', Array.from({ length: 21 }, (_, index) => ping(index)), {}],
    ['a modern header', [ping(1)], { protocolVersion: '2026-07-28' }],
    ['a modern element', [ping(1), modern('tools/list')], {}],
    ['initialize inside', [ping(1), { jsonrpc: '2.0', id: 2, method: 'initialize', params: {} }], {}],
    ['an invalid element', [ping(1), 5], {}],
    ['a response element', [ping(1), { jsonrpc: '2.0', id: 9, result: {} }], {}],
    ['a repeated id', [ping(1), { jsonrpc: '2.0', id: 1, method: 'tools/list' }], {}],
  ])('rejects %s with 400 -32600 and a null id', (_label, body, mirrored) => {
    expect(rejection(classifyMcpBody(body, mirrored))).toMatchObject({ status: 400, id: null, code: -32600 })
  })

  it('answers a batch pinning an unsupported version with -32022', () => {
    expect(rejection(classifyMcpBody([ping(1)], { protocolVersion: '2024-11-05' }))).toMatchObject({ status: 400, id: null, code: -32022 })
  })
})
