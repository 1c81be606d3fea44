/**
 * The four REST operations against the built site: exact bodies, headers and statuses, errors as
 * ProblemDetails, HEAD, CORS, unknown paths and methods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AgentCapabilitiesSchema,
  AgentHealthSchema,
  AgentResourceListSchema,
  AgentResourceSchema,
  ProblemDetailsSchema,
} from '../../lib/contract/schemas.ts'
import { expectedMarkdown, readJson } from '../support/http.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

const BASE = 'https://agents.example.com'
const API = `${BASE}/api/agent/v1`
let site: RunningSite

beforeAll(async () => {
  site = await startSite({ BASE_URL: BASE })
})
afterAll(async () => {
  await site?.stop()
})

function expectApiHeaders(response: Response, contentType: string) {
  expect(response.headers.get('content-type')).toBe(contentType)
  expect(response.headers.get('api-version')).toBe('2026-08-25')
  expect(response.headers.get('cache-control')).toBe('no-store')
  expect(response.headers.get('access-control-allow-origin')).toBe('*')
  expect(response.headers.get('access-control-expose-headers')).toBe(
    'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, RateLimit, Retry-After, API-Version, Link, Deprecation, Sunset, ETag',
  )
  expect(response.headers.has('deprecation')).toBe(false)
  expect(response.headers.has('sunset')).toBe(false)
}

const DESCRIPTORS = [
  {
    id: 'product-overview',
    uri: 'service://public/product-overview',
    name: 'Product overview',
    description: "What Cadence is, who it serves, and the execution loop that turns a goal into finished work with a mentor's help.",
    mimeType: 'text/markdown',
    href: `${API}/resources/product-overview`,
  },
  {
    id: 'developer-resources',
    uri: 'service://public/developer-resources',
    name: 'Developer resources',
    description: 'Machine-readable entry points for developers and agents, with their URLs, transports and limits.',
    mimeType: 'text/markdown',
    href: `${API}/resources/developer-resources`,
  },
  {
    id: 'agent-boundaries',
    uri: 'service://public/agent-boundaries',
    name: 'Agent boundaries',
    description:
      'Security and product-authority limits that bind every agent using the public surface, and the invariants a future authenticated API must keep.',
    mimeType: 'text/markdown',
    href: `${API}/resources/agent-boundaries`,
  },
]

describe('GET /api/agent/v1/health', () => {
  it('answers the exact AgentHealth body', async () => {
    const response = await site.fetch('/api/agent/v1/health')
    expect(response.status).toBe(200)
    expectApiHeaders(response, 'application/json')
    const body = await readJson(response)
    expect(AgentHealthSchema.parse(body)).toEqual(body)
    expect(body).toEqual({
      service: 'Cadence Public Agent API',
      status: 'ok',
      version: '2026-08-25',
      access: 'public_read_only',
      authenticationRequired: false,
      privateUserDataExposed: false,
      writesSupported: false,
      openapi: `${BASE}/openapi.json`,
      mcp: { endpoint: `${BASE}/mcp`, transport: 'streamable_http', protocolVersion: '2026-07-28' },
    })
  })
})

describe('GET /api/agent/v1/capabilities', () => {
  it('answers the capability catalog with absolute endpoints and the published limits', async () => {
    const response = await site.fetch('/api/agent/v1/capabilities')
    expect(response.status).toBe(200)
    expectApiHeaders(response, 'application/json')
    const body = AgentCapabilitiesSchema.parse(await readJson(response))
    expect(body).toMatchObject({
      service: 'Cadence Public Agent API',
      product: 'Cadence',
      version: '2026-08-25',
      access: 'public_read_only',
      authenticationRequired: false,
      privateUserDataExposed: false,
      writesSupported: false,
    })
    expect(body.endpoints).toEqual({
      health: `${API}/health`,
      capabilities: `${API}/capabilities`,
      resources: `${API}/resources`,
      openapi: `${BASE}/openapi.json`,
      mcp: `${BASE}/mcp`,
      mcpServerCard: `${BASE}/.well-known/mcp/server-card.json`,
      mcpManifest: `${BASE}/.well-known/mcp.json`,
      llmsTxt: `${BASE}/llms.txt`,
      developers: `${BASE}/developers.md`,
      sitemap: `${BASE}/sitemap.xml`,
      protectedResourceMetadata: `${BASE}/.well-known/oauth-protected-resource`,
    })
    expect(body.resources).toEqual(DESCRIPTORS)
    expect(new Set(Object.values(body.boundaries))).toEqual(new Set(['not_exposed']))
    expect(Object.keys(body.boundaries)).toEqual(
      expect.arrayContaining([
        'goalPlans',
        'tasks',
        'blockers',
        'evidence',
        'mentorRooms',
        'tenantData',
        'userRecords',
        'roleChanges',
        'billingState',
        'executionMutations',
      ]),
    )
    expect(body.versioning).toEqual({
      scheme: 'url_path',
      currentVersion: '2026-08-25',
      currentMajor: 'v1',
      basePath: '/api/agent/v1',
      policyUrl: `${BASE}/developers.md#versioning`,
      minimumSunsetNoticeDays: 180,
      breakingChangePolicy: 'new_major_path_segment',
      deprecatedVersions: [],
    })
    expect(body.authorization).toEqual({
      model: 'public_read_only',
      authenticationRequired: false,
      oauthAuthorizationServer: null,
      scopesRequired: [],
      documentation: `${BASE}/developers.md#authentication`,
      futureScopes: [
        { name: 'goals:read', description: expect.any(String), grantable: false },
        { name: 'progress:read', description: expect.any(String), grantable: false },
        { name: 'mentoring:read', description: expect.any(String), grantable: false },
        { name: 'execution:propose', description: expect.any(String), grantable: false },
      ],
    })
    expect(body.rateLimit).toEqual({
      requestsPerWindow: 120,
      windowSeconds: 60,
      burst: 30,
      scope: 'client_ip',
      headers: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'RateLimit'],
      retryAfterOn429: true,
      documentation: `${BASE}/developers.md#rate-limits`,
    })
    expect(body.onboarding).toEqual({
      zeroAuthAccess: true,
      apiKeyRequired: false,
      selfServeSignup: `${BASE}/login#create-account`,
      freeTierAvailable: true,
      pricing: `${BASE}/pricing`,
      sandbox: { available: true, description: expect.stringContaining('its own sandbox'), baseUrl: API },
      contactSalesRequired: false,
    })
  })
})

describe('GET /api/agent/v1/resources', () => {
  it('lists the three stable resources', async () => {
    const response = await site.fetch('/api/agent/v1/resources')
    expect(response.status).toBe(200)
    expectApiHeaders(response, 'application/json')
    const body = await readJson(response)
    expect(AgentResourceListSchema.parse(body)).toEqual({ resources: DESCRIPTORS })
  })
})

describe('GET /api/agent/v1/resources/{resourceId}', () => {
  for (const descriptor of DESCRIPTORS) {
    it(`reads ${descriptor.id} with its Markdown from content/`, async () => {
      const response = await site.fetch(`/api/agent/v1/resources/${descriptor.id}`)
      expect(response.status).toBe(200)
      expectApiHeaders(response, 'application/json')
      const body = AgentResourceSchema.parse(await readJson(response))
      const content = await expectedMarkdown(`content/resources/${descriptor.id}.md`, {
        base_url: BASE,
        service: 'service',
      })
      expect(body).toEqual({ ...descriptor, content })
    })
  }

  it('accepts a percent-encoded id', async () => {
    const response = await site.fetch('/api/agent/v1/resources/agent%2Dboundaries')
    expect(response.status).toBe(200)
    expect(((await readJson(response)) as { id: string }).id).toBe('agent-boundaries')
  })

  for (const id of ['nope', 'PRODUCT-OVERVIEW', '%E0%A4%A', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(3000)]) {
    it(`answers 404 agent_resource_not_found for ${id.slice(0, 30)}`, async () => {
      const response = await site.fetch(`/api/agent/v1/resources/${id}`)
      expect(response.status).toBe(404)
      expectApiHeaders(response, 'application/problem+json')
      const body = ProblemDetailsSchema.parse(await readJson(response))
      expect(body).toEqual({
        type: `${BASE}/problems/agent_resource_not_found`,
        title: 'Public resource not found',
        status: 404,
        code: 'agent_resource_not_found',
        detail: 'No public resource has this id.',
        resolution: 'List /api/agent/v1/resources and retry with a returned id.',
        instance: `${API}/resources/${id}`,
      })
    })
  }
})

describe('paths that are not operations', () => {
  for (const path of [
    '/api/agent/v1',
    '/api/agent/v1/',
    '/api/agent/v1/health/',
    '/api/agent/v1/resources/',
    '/api/agent/v1/resources/product-overview/',
    '/api/agent/v1/resources/product-overview/content',
    '/api/agent/v1/unknown',
    '/api/agent/v1/HEALTH',
    '/api/agent/v1/health.json',
  ]) {
    it(`${path} → 404 agent_endpoint_not_found`, async () => {
      const response = await site.fetch(path)
      expect(response.status).toBe(404)
      expectApiHeaders(response, 'application/problem+json')
      expect(ProblemDetailsSchema.parse(await readJson(response))).toEqual({
        type: `${BASE}/problems/agent_endpoint_not_found`,
        title: 'Agent endpoint not found',
        status: 404,
        code: 'agent_endpoint_not_found',
        detail: 'This path is not an operation of the public agent API under /api/agent/v1.',
        resolution:
          'Use one of /api/agent/v1/health, /api/agent/v1/capabilities, /api/agent/v1/resources or /api/agent/v1/resources/{resourceId}; /openapi.json describes them.',
        instance: `${BASE}${path}`,
      })
    })
  }

  it('ignores query strings on operations', async () => {
    const response = await site.fetch('/api/agent/v1/health?verbose=1')
    expect(response.status).toBe(200)
  })
})

describe('methods', () => {
  it('HEAD returns the GET headers without a body', async () => {
    const get = await site.fetch('/api/agent/v1/capabilities')
    const getBody = await get.text()
    const head = await site.fetch('/api/agent/v1/capabilities', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    expectApiHeaders(head, 'application/json')
    expect(getBody.length).toBeGreaterThan(100)
  })

  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    it(`${method} → 405 method_not_allowed with Allow: GET, HEAD`, async () => {
      const response = await site.fetch('/api/agent/v1/resources', { method, body: method === 'DELETE' ? undefined : '{"x":1}' })
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe('GET, HEAD')
      expectApiHeaders(response, 'application/problem+json')
      expect(ProblemDetailsSchema.parse(await readJson(response))).toMatchObject({
        type: `${BASE}/problems/method_not_allowed`,
        status: 405,
        code: 'method_not_allowed',
      })
    })
  }

  it('answers a CORS preflight from any origin', async () => {
    const response = await site.fetch('/api/agent/v1/health', {
      method: 'OPTIONS',
      headers: { Origin: 'https://agent.example.org', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-trace' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD')
    expect(response.headers.get('access-control-allow-headers')).toBe('*')
  })

  it('answers OPTIONS without a preflight as 405', async () => {
    const response = await site.fetch('/api/agent/v1/health', { method: 'OPTIONS' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
  })
})

describe('while public_agent_access is disabled', () => {
  let disabled: RunningSite
  beforeAll(async () => {
    disabled = await startSite({ BASE_URL: BASE, PUBLIC_AGENT_ACCESS: 'false', DISABLED_RETRY_AFTER_SECONDS: '120' })
  })
  afterAll(async () => {
    await disabled?.stop()
  })

  for (const path of ['/api/agent/v1/health', '/api/agent/v1/capabilities', '/api/agent/v1/resources', '/api/agent/v1/resources/product-overview']) {
    it(`${path} → 503 public_agent_access_disabled with Retry-After`, async () => {
      const response = await disabled.fetch(path)
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('120')
      expectApiHeaders(response, 'application/problem+json')
      expect(ProblemDetailsSchema.parse(await readJson(response))).toMatchObject({
        type: `${BASE}/problems/public_agent_access_disabled`,
        title: 'Public agent access is disabled',
        status: 503,
        code: 'public_agent_access_disabled',
      })
    })
  }

  for (const path of ['/openapi.json', '/llms.txt', '/robots.txt', '/sitemap.xml', '/developers.md', '/.well-known/mcp/server-card.json']) {
    it(`${path} stays readable`, async () => {
      expect((await disabled.fetch(path)).status).toBe(200)
    })
  }
})

describe('compression (npm start)', () => {
  it.each([
    ['/api/agent/v1/capabilities', 'br'],
    ['/api/agent/v1/resources/product-overview', 'gzip'],
    ['/openapi.json', 'br'],
    ['/pricing', 'gzip'],
  ])('%s goes %s-encoded to a client that accepts it, from bytes encoded once, and as is to one that does not', async (path, encoding) => {
    const plain = await site.fetch(path, { headers: { 'accept-encoding': 'identity' } })
    const packed = await site.fetch(path, { headers: { 'accept-encoding': encoding } })
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(packed.headers.get('content-encoding')).toBe(encoding)
    expect(
      packed.headers
        .get('vary')
        ?.split(',')
        .map((token) => token.trim()),
    ).toContain('Accept-Encoding')
    expect(Number(packed.headers.get('content-length'))).toBeLessThan(Number(plain.headers.get('content-length')) / 2)
    expect(await packed.text()).toBe(await plain.text())
  })
})
