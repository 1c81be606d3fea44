/**
 * POST /mcp over raw HTTP against the built site: every row of the MCP table of decisions.md, the
 * Origin/Host protection, the legacy handshake and every kind of bad input, each with its exact
 * status, JSON-RPC code, echoed id and `error.data.code`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { envelope, MODERN, modernRequest, postLegacy, postModern, raw, SUPPORTED_VERSIONS, type RawResponse } from '../support/mcp-http.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

const BASE_URL = 'https://agents.example.com'
const ALLOWED_ORIGIN = 'https://console.example.org'
let site: RunningSite
let disabled: RunningSite

beforeAll(async () => {
  ;[site, disabled] = await Promise.all([
    startSite({ BASE_URL, MCP_ALLOWED_ORIGINS: ALLOWED_ORIGIN }),
    startSite({ PUBLIC_AGENT_ACCESS: 'false', DISABLED_RETRY_AFTER_SECONDS: '300' }),
  ])
})
afterAll(async () => {
  await Promise.all([site?.stop(), disabled?.stop()])
})

/** Headers every MCP answer carries, whatever it is. */
function expectMcpHeaders(response: RawResponse): void {
  expect(response.headers['api-version']).toBe('2026-08-25')
  expect(response.headers['cache-control']).toBe('no-store')
  expect(response.headers['mcp-session-id']).toBeUndefined()
  if (response.text) expect(response.headers['content-type']).toBe('application/json')
}

interface ExpectedError {
  status: number
  id: string | number | null
  code: number
  dataCode?: string | undefined
}

function expectError(response: RawResponse, expected: ExpectedError): any {
  expectMcpHeaders(response)
  expect({ status: response.status, jsonrpc: response.json?.jsonrpc, id: response.json?.id, code: response.json?.error?.code }).toEqual({
    status: expected.status,
    jsonrpc: '2.0',
    id: expected.id,
    code: expected.code,
  })
  expect(response.json.error.data?.code).toBe(expected.dataCode)
  expect(typeof response.json.error.message).toBe('string')
  expect(typeof response.json.error.data?.detail).toBe('string')
  expect(typeof response.json.error.data?.resolution).toBe('string')
  return response.json.error
}

function expectResult(response: RawResponse, id: string | number): any {
  expectMcpHeaders(response)
  expect(response.status).toBe(200)
  expect(response.json).toMatchObject({ jsonrpc: '2.0', id })
  expect(response.json.error).toBeUndefined()
  return response.json.result
}

async function send(
  target: RunningSite,
  request: { headers: Record<string, string>; body: unknown },
  edit: (headers: Record<string, string>) => void = () => {},
) {
  const headers = { ...request.headers }
  edit(headers)
  return await raw(target, { headers, body: JSON.stringify(request.body) })
}

describe('row 1: a required header missing or disagreeing with the body → 400, -32020, mcp_header_mismatch', () => {
  const mismatch = { status: 400, id: 'req-1', code: -32020, dataCode: 'mcp_header_mismatch' }

  it.each([
    ['MCP-Protocol-Version missing', 'tools/list', {}, (h: Record<string, string>) => delete h['mcp-protocol-version']],
    ['Mcp-Method missing', 'tools/list', {}, (h: Record<string, string>) => delete h['mcp-method']],
    ['Mcp-Method disagreeing', 'tools/list', {}, (h: Record<string, string>) => (h['mcp-method'] = 'resources/list')],
    ['Mcp-Method in another case', 'tools/list', {}, (h: Record<string, string>) => (h['mcp-method'] = 'TOOLS/LIST')],
    [
      'Mcp-Name missing on tools/call',
      'tools/call',
      { name: 'service.get_public_capabilities', arguments: {} },
      (h: Record<string, string>) => delete h['mcp-name'],
    ],
    [
      'Mcp-Name disagreeing on tools/call',
      'tools/call',
      { name: 'service.get_public_capabilities', arguments: {} },
      (h: Record<string, string>) => (h['mcp-name'] = 'service.list_public_resources'),
    ],
    [
      'Mcp-Name missing on resources/read',
      'resources/read',
      { uri: 'service://public/product-overview' },
      (h: Record<string, string>) => delete h['mcp-name'],
    ],
    [
      'an invalid Base64 sentinel in Mcp-Name',
      'resources/read',
      { uri: 'service://public/product-overview' },
      (h: Record<string, string>) => (h['mcp-name'] = '=?base64?%%%?='),
    ],
    ['MCP-Protocol-Version disagreeing with _meta', 'tools/list', {}, (h: Record<string, string>) => (h['mcp-protocol-version'] = '2025-11-25')],
    [
      'a Base64 sentinel naming another value',
      'resources/read',
      { uri: 'service://public/product-overview' },
      (h: Record<string, string>) => (h['mcp-name'] = `=?base64?${Buffer.from('service://public/agent-boundaries').toString('base64')}?=`),
    ],
    ['Mcp-Method with a byte outside ASCII', 'tools/list', {}, (h: Record<string, string>) => (h['mcp-method'] = 'tools/list\u00e9')],
  ])('%s', async (_label, method, params, edit) => {
    const response = await send(site, modernRequest(method, params), edit)
    expectError(response, mismatch)
  })

  it.each([
    ['=?base64?SGVsbG8sIOS4lueVjA==?=', 'Hello, 世界'],
    ['=?base64?IHBhZGRlZCA=?=', ' padded '],
    ['=?base64?bGluZTEKbGluZTI=?=', 'line1\nline2'],
    ['=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=', '=?base64?literal?='],
    [`=?base64?${Buffer.from('service://public/über').toString('base64')}?=`, 'service://public/über'],
    ['=?BASE64?SGk=?=', '=?BASE64?SGk=?='],
  ])('reads the Mcp-Name %s as %j (UTF-8 in a case-sensitive sentinel): no mismatch', async (header, uri) => {
    const response = await send(site, modernRequest('resources/read', { uri }), (h) => (h['mcp-name'] = header))
    expect(expectError(response, { status: 200, id: 'req-1', code: -32602, dataCode: 'agent_resource_not_found' }).data.uri).toBe(uri)
  })

  it.each([
    ['non-canonical Base64', '=?base64?SGVsbG8?='],
    ['characters outside the alphabet', '=?base64?SGV$bG8=?='],
    ['bytes that are not UTF-8', `=?base64?${Buffer.from([0xff, 0xfe, 0xfd]).toString('base64')}?=`],
  ])('refuses an Mcp-Name sentinel with %s: 400, -32020', async (_label, header) => {
    const response = await send(site, modernRequest('resources/read', { uri: 'service://public/product-overview' }), (h) => (h['mcp-name'] = header))
    expectError(response, mismatch)
  })

  it('accepts a Base64-sentinel Mcp-Name equal to the body value', async () => {
    const request = modernRequest('resources/read', { uri: 'service://public/product-overview' })
    const response = await send(
      site,
      request,
      (h) => (h['mcp-name'] = `=?base64?${Buffer.from('service://public/product-overview').toString('base64')}?=`),
    )
    expect(expectResult(response, 'req-1').contents[0].uri).toBe('service://public/product-overview')
  })
})

describe('row 2: a required _meta key missing or of the wrong type → 400, -32602, mcp_header_mismatch', () => {
  const invalid = { status: 400, id: 'req-1', code: -32602, dataCode: 'mcp_header_mismatch' }

  it.each([
    ['no _meta', (body: any) => delete body.params._meta],
    ['no protocolVersion key, header present', (body: any) => delete body.params._meta['io.modelcontextprotocol/protocolVersion']],
    ['no clientCapabilities', (body: any) => delete body.params._meta['io.modelcontextprotocol/clientCapabilities']],
    ['clientCapabilities of the wrong type', (body: any) => (body.params._meta['io.modelcontextprotocol/clientCapabilities'] = 'all')],
    ['protocolVersion of the wrong type', (body: any) => (body.params._meta['io.modelcontextprotocol/protocolVersion'] = 20260728)],
    ['no params at all', (body: any) => delete body.params],
    ['a _meta that is not an object', (body: any) => (body.params._meta = 'x')],
    ['a clientInfo without a version', (body: any) => (body.params._meta['io.modelcontextprotocol/clientInfo'] = { name: 'c' })],
  ])('%s', async (_label, edit) => {
    const request = modernRequest('tools/list')
    edit(request.body)
    expectError(await send(site, request), invalid)
  })

  it('serves a request whose _meta has no clientInfo', async () => {
    const request = modernRequest('tools/list')
    delete request.body.params._meta['io.modelcontextprotocol/clientInfo']
    expect(expectResult(await send(site, request), 'req-1').tools).toHaveLength(3)
  })
})

describe('row 3: an unsupported pinned version on any method but initialize → 400, -32022, supported and requested', () => {
  async function expectUnsupported(response: RawResponse, id: string | number | null, requested: string) {
    const error = expectError(response, { status: 400, id, code: -32022 })
    expect(error.data).toMatchObject({ supported: SUPPORTED_VERSIONS, requested })
  }

  it('in the MCP-Protocol-Version header of a 2026-style request', async () => {
    const request = modernRequest('tools/list')
    request.body.params._meta['io.modelcontextprotocol/protocolVersion'] = '2099-01-01'
    await expectUnsupported(await send(site, request, (h) => (h['mcp-protocol-version'] = '2099-01-01')), 'req-1', '2099-01-01')
  })

  it('in the MCP-Protocol-Version header alone, the body naming 2026-07-28', async () => {
    await expectUnsupported(await send(site, modernRequest('tools/list'), (h) => (h['mcp-protocol-version'] = '2099-01-01')), 'req-1', '2099-01-01')
  })

  it('in _meta, without the header', async () => {
    const request = modernRequest('tools/list')
    request.body.params._meta['io.modelcontextprotocol/protocolVersion'] = '2099-01-01'
    await expectUnsupported(await send(site, request, (h) => delete h['mcp-protocol-version']), 'req-1', '2099-01-01')
  })

  it('in the header of a legacy batch (id null)', async () => {
    const response = await postLegacy(site, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], { 'mcp-protocol-version': '2024-11-05' })
    await expectUnsupported(response, null, '2024-11-05')
  })

  it('in the header of a legacy request', async () => {
    await expectUnsupported(
      await postLegacy(site, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, { 'mcp-protocol-version': '2024-11-05' }),
      4,
      '2024-11-05',
    )
  })

  it('but initialize negotiates whatever the header says', async () => {
    const response = await postLegacy(
      site,
      {
        jsonrpc: '2.0',
        id: 5,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      },
      { 'mcp-protocol-version': '1999-01-01' },
    )
    expect(expectResult(response, 5).protocolVersion).toBe('2025-06-18')
  })
})

describe('row 4: any method but POST → 405, Allow: POST, -31405, mcp_method_not_allowed', () => {
  it.each(['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'])('%s', async (method) => {
    const response = await raw(site, { method, headers: { accept: 'text/event-stream', 'mcp-session-id': 'abc' } })
    expect(response.headers.allow).toBe('POST')
    expectError(response, { status: 405, id: null, code: -31405, dataCode: 'mcp_method_not_allowed' })
  })

  it('HEAD gets the same status and headers without a body', async () => {
    const response = await raw(site, { method: 'HEAD' })
    expect(response.status).toBe(405)
    expect(response.headers.allow).toBe('POST')
    expect(response.text).toBe('')
    expectMcpHeaders(response)
  })
})

describe('row 5: capability disabled → 503, Retry-After, -31503, public_agent_access_disabled', () => {
  it('answers a POST with the id echoed', async () => {
    const response = await postModern(disabled, 'tools/list', {}, 'dis-1')
    expect(response.headers['retry-after']).toBe('300')
    const error = expectError(response, { status: 503, id: 'dis-1', code: -31503, dataCode: 'public_agent_access_disabled' })
    expect(error.data.retryAfterSeconds).toBe(300)
  })

  it('answers even a malformed body with 503 (id null): the state is decided first', async () => {
    const response = await raw(disabled, { headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":' })
    expect(response.headers['retry-after']).toBe('300')
    expectError(response, { status: 503, id: null, code: -31503, dataCode: 'public_agent_access_disabled' })
  })
})

describe('row 6: quota exceeded → 429, Retry-After and rate-limit headers, -31429, rate_limit_exceeded', () => {
  it('spends one token per POST and refuses the request after the burst', async () => {
    const own = await startSite({})
    try {
      const first = await postModern(own, 'server/discover', {}, 'q-0')
      expect(first.headers['ratelimit-limit']).toBe('150')
      const remaining = Number(first.headers['ratelimit-remaining'])
      const malformed = await raw(own, { headers: { 'content-type': 'application/json' }, body: '{' })
      expect(malformed.status).toBe(400)
      expect(Number(malformed.headers['ratelimit-remaining'])).toBe(remaining - 1)
      expect((await raw(own, { method: 'GET' })).headers['ratelimit-remaining']).toBeUndefined()
      let refused: RawResponse | undefined
      for (let index = 1; index <= 200 && !refused; index++) {
        const response = await postModern(own, 'server/discover', {}, `q-${index}`)
        if (response.status === 429) refused = response
      }
      expect(refused).toBeDefined()
      const response = refused as RawResponse
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'ratelimit']) {
        expect(response.headers[name]).toBeDefined()
      }
      const error = expectError(response, { status: 429, id: response.json.id, code: -31429, dataCode: 'rate_limit_exceeded' })
      expect(response.json.id).toMatch(/^q-\d+$/)
      expect(error.data.retryAfterSeconds).toBe(Number(response.headers['retry-after']))
    } finally {
      await own.stop()
    }
  })
})

describe('row 7: unknown method → 404, -32601', () => {
  it.each(['ping', 'logging/setLevel', 'prompts/list', 'completion/complete', 'resources/subscribe', 'subscriptions/listen', 'no/such-method'])(
    '2026-07-28 %s',
    async (method) => {
      expectError(await postModern(site, method, method === 'subscriptions/listen' ? { notifications: {} } : {}, 'u-1'), {
        status: 404,
        id: 'u-1',
        code: -32601,
      })
    },
  )

  it('legacy requests get the same error in-band (HTTP 200), as the 2025 transport defines', async () => {
    const response = await postLegacy(site, { jsonrpc: '2.0', id: 'u-2', method: 'prompts/list' })
    expectError(response, { status: 200, id: 'u-2', code: -32601 })
  })
})

describe('row 8: unknown resource URI → 200, -32602, data.uri, agent_resource_not_found', () => {
  it('2026-07-28', async () => {
    const error = expectError(await postModern(site, 'resources/read', { uri: 'service://public/pricing' }, 'nf-1'), {
      status: 200,
      id: 'nf-1',
      code: -32602,
      dataCode: 'agent_resource_not_found',
    })
    expect(error.data.uri).toBe('service://public/pricing')
  })

  it('legacy', async () => {
    const error = expectError(await postLegacy(site, { jsonrpc: '2.0', id: 9, method: 'resources/read', params: { uri: 'other://x' } }), {
      status: 200,
      id: 9,
      code: -32602,
      dataCode: 'agent_resource_not_found',
    })
    expect(error.data.uri).toBe('other://x')
  })
})

describe('row 9: malformed JSON → 400, -32700; not a JSON-RPC request → 400, -32600', () => {
  it.each([
    ['truncated JSON', '{"jsonrpc":"2.0","id":1,'],
    ['an empty body', ''],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
  ])('%s → -32700 with id null', async (_label, body) => {
    expectError(await raw(site, { headers: { 'content-type': 'application/json' }, body }), { status: 400, id: null, code: -32700 })
  })

  it.each([
    ['a string', '"tools/list"', null],
    ['null', 'null', null],
    ['an empty object', '{}', null],
    ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":3,"method":"tools/list"}', 3],
    ['a null id', '{"jsonrpc":"2.0","id":null,"method":"tools/list"}', null],
    ['array params', '{"jsonrpc":"2.0","id":"p","method":"tools/list","params":[]}', 'p'],
    ['a posted response', '{"jsonrpc":"2.0","id":"r","result":{}}', 'r'],
    ['a number', '42', null],
    ['a missing method', '{"jsonrpc":"2.0","id":"a"}', 'a'],
    ['a numeric method', '{"jsonrpc":"2.0","id":"a","method":7}', 'a'],
    ['a fractional id', '{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}', null],
    ['an unknown member', '{"jsonrpc":"2.0","id":4,"method":"tools/list","extra":true}', 4],
    ['a legacy request whose _meta is not an object', '{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"_meta":"x"}}', 6],
  ])('%s → -32600', async (_label, body, id) => {
    expectError(await raw(site, { headers: { 'content-type': 'application/json' }, body }), { status: 400, id, code: -32600 })
  })
})

describe('initialize (legacy handshake) always negotiates', () => {
  const initialize = (protocolVersion: string, meta?: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' }, ...(meta ? { _meta: meta } : {}) },
  })

  it.each([
    ['2026-07-28 with the modern header', initialize(MODERN), { 'mcp-protocol-version': MODERN, 'mcp-method': 'initialize' }, '2025-11-25'],
    ['2026-07-28 with a modern _meta', initialize(MODERN, envelope()), { 'mcp-protocol-version': MODERN }, '2025-11-25'],
    ['2025-11-25', initialize('2025-11-25'), {}, '2025-11-25'],
    ['2025-06-18', initialize('2025-06-18'), {}, '2025-06-18'],
    ['2025-03-26', initialize('2025-03-26'), {}, '2025-03-26'],
    ['2024-11-05', initialize('2024-11-05'), {}, '2025-11-25'],
  ])('%s → %s', async (_label, body, headers, negotiated) => {
    const response = await raw(site, { headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
    expect(expectResult(response, 'init')).toEqual({
      protocolVersion: negotiated,
      capabilities: { resources: {}, tools: {} },
      serverInfo: { name: 'com.example.agents/cadence', title: 'Cadence', version: '2026-08-25' },
      instructions: expect.stringContaining('service.get_public_capabilities'),
    })
  })

  it('still refuses an Mcp-Method header that disagrees with it: 400, -32020', async () => {
    const response = await raw(site, {
      headers: { 'content-type': 'application/json', 'mcp-method': 'tools/list' },
      body: JSON.stringify(initialize('2025-11-25')),
    })
    expectError(response, { status: 400, id: 'init', code: -32020, dataCode: 'mcp_header_mismatch' })
  })

  it('answers an initialize without its params with -32602, not an internal error', async () => {
    const response = await send(site, modernRequest('initialize'))
    expectError(response, { status: 200, id: 'req-1', code: -32602 })
  })

  it('accepts notifications/initialized with 202 and no body, and needs no session afterwards', async () => {
    const accepted = await postLegacy(site, { jsonrpc: '2.0', method: 'notifications/initialized' })
    expect(accepted.status).toBe(202)
    expect(accepted.text).toBe('')
    expectMcpHeaders(accepted)
    const listed = await postLegacy(site, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': 'made-up' })
    expect(expectResult(listed, 2).tools).toHaveLength(3)
    expect(expectResult(await postLegacy(site, { jsonrpc: '2.0', id: 3, method: 'ping' }), 3)).toEqual({})
  })
})

describe('mirrored headers a legacy client chose to send', () => {
  const call = { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'service.get_public_capabilities', arguments: {} } }

  it.each([
    ['an Mcp-Method naming another method', { 'mcp-method': 'tools/list' }],
    ['an Mcp-Name naming another tool', { 'mcp-name': 'service.list_public_resources' }],
    ['an Mcp-Name with an invalid Base64 sentinel', { 'mcp-name': '=?base64?%%%?=' }],
  ])('refuses %s: 400, -32020', async (_label, headers) => {
    expectError(await postLegacy(site, call, headers), { status: 400, id: 8, code: -32020, dataCode: 'mcp_header_mismatch' })
  })

  it('serves them when they agree with the body', async () => {
    const response = await postLegacy(site, call, { 'mcp-method': 'tools/call', 'mcp-name': 'service.get_public_capabilities' })
    expect(expectResult(response, 8).structuredContent.product).toBe('Cadence')
  })

  it('refuses a batch whose Mcp-Method is not the method of every element: 400, -32020, id null', async () => {
    const response = await postLegacy(
      site,
      [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ],
      { 'mcp-method': 'ping' },
    )
    expectError(response, { status: 400, id: null, code: -32020, dataCode: 'mcp_header_mismatch' })
  })
})

describe('2026-07-28 notifications', () => {
  it('are accepted with 202 and no body, without the request headers', async () => {
    const response = await raw(site, {
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': MODERN },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: envelope() } }),
    })
    expect(response.status).toBe(202)
    expect(response.text).toBe('')
    expectMcpHeaders(response)
  })
})

describe('answers are one JSON body', () => {
  it.each([
    [
      'a modern client accepting only JSON',
      modernRequest('tools/list').body,
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list', accept: 'application/json' },
    ],
    ['a legacy client accepting only JSON', { jsonrpc: '2.0', id: 'req-1', method: 'tools/list' }, { accept: 'application/json' }],
    ['a legacy client sending no Accept', { jsonrpc: '2.0', id: 'req-1', method: 'tools/list' }, {}],
    ['a client accepting only SSE', { jsonrpc: '2.0', id: 'req-1', method: 'tools/list' }, { accept: 'text/event-stream' }],
  ])('for %s', async (_label, body, headers) => {
    const response = await raw(site, { headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
    expect(expectResult(response, 'req-1').tools).toHaveLength(3)
  })

  it('refuses a body that is not declared as JSON with 415, -31415', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })
    expectError(await raw(site, { headers: { 'content-type': 'text/plain' }, body }), { status: 415, id: null, code: -31415 })
    expectError(await raw(site, { body }), { status: 415, id: null, code: -31415 })
  })

  it('refuses a body over 2 MiB with 413, -31413, declared or streamed', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2 * 1024 * 1024) } })
    expectError(await raw(site, { headers: { 'content-type': 'application/json' }, body: big }), { status: 413, id: null, code: -31413 })
    expectError(await raw(site, { headers: { 'content-type': 'application/json' }, body: big, chunked: true }), {
      status: 413,
      id: null,
      code: -31413,
    })
  })

  it('reads a body of exactly 2 MiB', async () => {
    const prefix = '{"jsonrpc":"2.0","id":"big","method":"ping","params":{"_meta":{"pad":"'
    const suffix = '"}}}'
    const body = prefix + 'x'.repeat(2 * 1024 * 1024 - prefix.length - suffix.length) + suffix
    expect(Buffer.byteLength(body)).toBe(2 * 1024 * 1024)
    expect(expectResult(await postLegacy(site, JSON.parse(body), { 'mcp-protocol-version': '2025-03-26' }), 'big')).toEqual({})
  })
})

describe('legacy batches (2025-03-26)', () => {
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' })
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    raw(site, { headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

  it('answers a batch with an array of the responses', async () => {
    const response = await post([ping(1), { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 'b', method: 'tools/list' }])
    expectMcpHeaders(response)
    expect(response.status).toBe(200)
    expect(response.json).toHaveLength(2)
    expect(response.json.find((item: any) => item.id === 1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
    expect(response.json.find((item: any) => item.id === 'b').result.tools).toHaveLength(3)
  })

  it('answers a batch of one request with an array of one', async () => {
    const response = await post([ping(7)])
    expect(response.json).toEqual([{ jsonrpc: '2.0', id: 7, result: {} }])
  })

  it('accepts a batch of notifications with 202', async () => {
    expect((await post([{ jsonrpc: '2.0', method: 'notifications/initialized' }])).status).toBe(202)
  })

  it.each([
    ['empty', [], {}],
    [
      'with initialize',
      [
        ping(1),
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'initialize',
          params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        },
      ],
      {},
    ],
    ['under the modern header', [ping(1)], { 'mcp-protocol-version': MODERN }],
    ['with a 2026-07-28 element', [ping(1), modernRequest('tools/list').body], {}],
    ['of 21 messages', Array.from({ length: 21 }, (_, index) => ping(index)), {}],
    ['with a repeated id', [ping(1), { jsonrpc: '2.0', id: 1, method: 'tools/list' }], {}],
    ['with an initialize missing its params', [ping(1), { jsonrpc: '2.0', id: 2, method: 'initialize', params: {} }], {}],
    ['with an element that is not a message', [ping(1), 5], {}],
    ['with a posted response', [ping(1), { jsonrpc: '2.0', id: 9, result: {} }], {}],
  ])('refuses a batch %s with 400, -32600', async (_label, body, headers) => {
    expectError(await post(body, headers), { status: 400, id: null, code: -32600 })
  })
})

describe('Origin and Host (DNS-rebinding protection)', () => {
  it.each([
    ['no Origin', {}],
    ["the site's own origin", { origin: BASE_URL }],
    ['an origin from MCP_ALLOWED_ORIGINS', { origin: ALLOWED_ORIGIN }],
  ])('serves %s', async (_label, headers) => {
    const request = modernRequest('server/discover')
    expect(expectResult(await send(site, request, (h) => Object.assign(h, headers)), 'req-1').supportedVersions).toEqual(SUPPORTED_VERSIONS)
  })

  it.each([
    ['a foreign Origin', { origin: 'https://evil.example.com' }],
    ['Origin null', { origin: 'null' }],
    ['an unparsable Origin', { origin: 'definitely not an origin' }],
    ['a foreign Host on the loopback bind', { host: 'evil.example.com' }],
    ['a foreign Host and Origin', { host: 'evil.example.com', origin: 'http://evil.example.com' }],
  ])('refuses %s with 403, -32600 and no id', async (_label, headers) => {
    const response = await send(site, modernRequest('server/discover'), (h) => Object.assign(h, headers))
    expectError(response, { status: 403, id: null, code: -32600 })
  })
})

describe('results of the 2026-07-28 methods', () => {
  const serverInfo = { name: 'com.example.agents/cadence', title: 'Cadence', version: '2026-08-25' }

  it('server/discover lists all four versions, resources and tools, and caches for an hour, public', async () => {
    expect(expectResult(await postModern(site, 'server/discover'), 'req-1')).toEqual({
      resultType: 'complete',
      supportedVersions: SUPPORTED_VERSIONS,
      capabilities: { resources: {}, tools: {} },
      instructions: expect.stringContaining('service.get_public_capabilities'),
      ttlMs: 3_600_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
    })
  })

  it.each([
    ['tools/list', {}],
    ['resources/list', {}],
    ['resources/templates/list', {}],
    ['resources/read', { uri: 'service://public/agent-boundaries' }],
  ])('%s carries ttlMs 300000, public', async (method, params) => {
    const result = expectResult(await postModern(site, method, params), 'req-1')
    expect(result).toMatchObject({
      resultType: 'complete',
      ttlMs: 300_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
    })
  })

  it('tools/call answers an unknown tool with -32602 in-band', async () => {
    expectError(await postModern(site, 'tools/call', { name: 'service.delete_everything', arguments: {} }, 't-1'), {
      status: 200,
      id: 't-1',
      code: -32602,
    })
  })

  it('tools/call answers an unknown resourceId with a tool error naming the valid ids', async () => {
    const result = expectResult(
      await postModern(site, 'tools/call', { name: 'service.read_public_resource', arguments: { resourceId: 'pricing' } }, 't-2'),
      't-2',
    )
    expect(result.isError).toBe(true)
    expect(result.content[0].text).toContain('product-overview, developer-resources, agent-boundaries')
    expect(result.ttlMs).toBeUndefined()
  })
})
