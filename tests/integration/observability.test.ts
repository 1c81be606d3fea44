/**
 * Observability of the agent surface against the built site (`npm start`): with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointing at a loopback OTLP/HTTP JSON receiver, REST and MCP requests
 * (one carrying `params._meta.traceparent`, one tool error, one 429) are exported as spans with their
 * attributes and parent trace, and as metrics; every agent request prints one JSON access-log line;
 * AGENT_ACCESS_LOG=false prints none, and without an endpoint nothing is exported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loopbackClientPool, type LoopbackClient, type SimpleResponse } from '../support/http-client.ts'
import { modernRequest } from '../support/mcp-http.ts'
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.ts'
import { startRedis, type RunningRedis } from '../../harness/redis.ts'
import { startUpstashBridge, type UpstashBridge } from '../../harness/upstash-bridge.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

const CLAUDEBOT_UA = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)'
const GPTBOT_UA = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot'
const CLIENT_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
const CLIENT_SPAN_ID = '00f067aa0ba902b7'
const SERVER = 2 // OTLP SpanKind: 1 internal, 2 server, 3 client
const CLIENT_KIND = 3
const INTERNAL = 1

let receiver: OtlpReceiver
let nextReceiver: OtlpReceiver
let quietReceiver: OtlpReceiver
let site: RunningSite
let quietSite: RunningSite
let nextSite: RunningSite
let sent = 0
const { client, closeAll: closeClients } = loopbackClientPool()

type SendOptions = { method?: string; headers?: Record<string, string>; body?: string }

async function send(from: LoopbackClient, target: RunningSite, path: string, options: SendOptions = {}) {
  if (target === site) sent++
  return await from.request(`${target.origin}${path}`, options)
}

async function mcp(from: LoopbackClient, target: RunningSite, request: ReturnType<typeof modernRequest>): Promise<SimpleResponse> {
  return await send(from, target, '/mcp', { method: 'POST', headers: request.headers, body: JSON.stringify(request.body) })
}

async function eventually<T>(read: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`not exported within ${timeoutMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const spanNamed = (name: string, where: (span: ReceivedSpan) => boolean = () => true) => spanIn(receiver, (span) => span.name === name && where(span))
const spanIn = (from: OtlpReceiver, where: (span: ReceivedSpan) => boolean) => () => from.spans.find(where)

/** Every JSON line of a server's output with `"type":"agent_request"`. */
function accessLogLines(target: RunningSite): Record<string, unknown>[] {
  return target
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.type === 'agent_request')
}

// Responses of the requests the tests below assert on.
const answers: Record<string, SimpleResponse> = {}
/** The contact form's answers, and a name that must appear in no telemetry. */
const leadStatuses: number[] = []
const LEAD_NAME = 'Observed "Person" <i>Lead</i>'

beforeAll(async () => {
  ;[receiver, nextReceiver, quietReceiver] = await Promise.all([startOtlpReceiver(), startOtlpReceiver(), startOtlpReceiver()])
  const otel = (url: string) => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'cadence-observability-test',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_METRIC_EXPORT_INTERVAL: '300',
  })
  ;[site, quietSite, nextSite] = await Promise.all([
    startSite(otel(receiver.url)),
    // Agent access switched off, and no access log: telemetry still sees the 503s.
    startSite({ ...otel(quietReceiver.url), AGENT_ACCESS_LOG: 'false', PUBLIC_AGENT_ACCESS: 'false' }),
    startSite(otel(nextReceiver.url), { server: 'next-start' }),
  ])

  const claude = client()
  answers.rest = await send(claude, site, '/api/agent/v1/resources/product-overview', { headers: { 'user-agent': CLAUDEBOT_UA } })

  const traced = modernRequest('tools/call', { name: 'service.get_public_capabilities', arguments: {} }, 'traced-1')
  traced.body.params._meta.traceparent = `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01`
  answers.traced = await mcp(client(), site, traced)

  const badArguments = { name: 'service.read_public_resource', arguments: { resourceId: 'no-such-resource' } }
  answers.toolError = await mcp(client(), site, modernRequest('tools/call', badArguments, 7))

  // One client spends its whole bucket (150 tokens, one back per 500 ms) until it is refused.
  const gpt = client()
  for (let i = 0; i < 400; i++) {
    const response = await send(gpt, site, '/api/agent/v1/health', { headers: { 'user-agent': GPTBOT_UA } })
    if (response.status === 429) {
      answers.refused = response
      break
    }
  }

  answers.quiet = await send(client(), quietSite, '/api/agent/v1/health', { headers: { 'user-agent': GPTBOT_UA } })

  // The contact form: one mistake, one lead (not through send(): they are no agent requests).
  const form = {
    name: LEAD_NAME,
    email: 'observed@example.org',
    company: 'Observed Co',
    teamSize: '1-10',
    goal: 'Watch the metrics.',
    topic: 'programme',
  }
  const post = (body: Record<string, string>) =>
    site.fetch('/contact/send', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams(body).toString(),
    })
  for (const body of [{ ...form, email: 'observed@localhost' }, form]) {
    const response = await post(body)
    await response.arrayBuffer()
    leadStatuses.push(response.status)
  }

  answers.nextRest = await send(client(), nextSite, '/api/agent/v1/resources/product-overview', { headers: { 'user-agent': CLAUDEBOT_UA } })
  answers.nextTraced = await mcp(client(), nextSite, traced)
}, 240_000)

afterAll(async () => {
  closeClients()
  await Promise.all([site?.stop(), quietSite?.stop(), nextSite?.stop()])
  await Promise.all([receiver?.close(), nextReceiver?.close(), quietReceiver?.close()])
})

describe('spans', () => {
  it('a REST request is one server span with the route template, status, path, admission, quota store and agent class', async () => {
    expect(answers.rest?.status).toBe(200)
    const span = await eventually(spanNamed('GET /api/agent/v1/resources/{resourceId}'), 'REST span')
    expect(span.kind).toBe(SERVER)
    expect(span.parentSpanId).toBe('')
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'url.path': '/api/agent/v1/resources/product-overview',
      'http.route': '/api/agent/v1/resources/{resourceId}',
      'http.response.status_code': 200,
      'cadence.agent.class': 'ClaudeBot',
      'cadence.agent.signature': 'unsigned',
      'cadence.admission': 'admitted',
      'cadence.quota.store': 'in-process',
      'cadence.quota.remaining': 149,
      // @vercel/otel's own: `{instrumentation scope}.{span kind}`.
      'operation.name': 'cadence-site.server',
    })
    expect(span.resource['service.name']).toBe('cadence-observability-test')
    const traceExports = receiver.requests.filter((request) => request.path === '/v1/traces')
    expect(traceExports.map((request) => request.contentType)).toEqual(traceExports.map(() => 'application/json'))
  })

  it("an MCP call is a span named '{mcp.method.name} {gen_ai.tool.name}' whose parent is the client's _meta.traceparent", async () => {
    expect(answers.traced?.status).toBe(200)
    expect(JSON.parse(answers.traced?.body ?? '{}').result.isError).toBeUndefined()
    const span = await eventually(spanNamed('tools/call service.get_public_capabilities'), 'MCP span')
    expect(span.kind).toBe(SERVER)
    expect(span.traceId).toBe(CLIENT_TRACE_ID)
    expect(span.parentSpanId).toBe(CLIENT_SPAN_ID)
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'service.get_public_capabilities',
      'mcp.protocol.version': '2026-07-28',
      'jsonrpc.request.id': 'traced-1',
      'cadence.agent.class': 'mcp:raw-test',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'operation.name': 'cadence-site.server',
    })
    // The HTTP span of the same request is its own trace, linked from the MCP span.
    const http = await eventually(
      spanNamed('POST /mcp', (candidate) => candidate.spanId === span.links[0]?.spanId),
      'HTTP span of the MCP call',
    )
    expect(span.links).toEqual([{ traceId: http.traceId, spanId: http.spanId }])
    expect(http.attributes['http.route']).toBe('/mcp')
    expect(http.attributes['http.response.status_code']).toBe(200)
    expect(http.attributes['cadence.agent.class']).toBe('mcp:raw-test')
  })

  it('a tool answering isError gives error.type tool_error, under the HTTP span', async () => {
    expect(answers.toolError?.status).toBe(200)
    expect(JSON.parse(answers.toolError?.body ?? '{}').result.isError).toBe(true)
    const span = await eventually(spanNamed('tools/call service.read_public_resource'), 'tool error span')
    expect(span.attributes['error.type']).toBe('tool_error')
    expect(span.attributes['jsonrpc.request.id']).toBe('7')
    expect(span.status.code).toBe(2)
    const http = receiver.spans.find((candidate) => candidate.spanId === span.parentSpanId)
    expect(http?.name).toBe('POST /mcp')
    expect(http?.traceId).toBe(span.traceId)
  })

  it('a 429 is a server span with admission rate-limited', async () => {
    expect(answers.refused?.status).toBe(429)
    const refused = (candidate: ReceivedSpan) => candidate.attributes['http.response.status_code'] === 429
    const span = await eventually(spanNamed('GET /api/agent/v1/health', refused), '429 span')
    expect(span.attributes).toMatchObject({
      'http.route': '/api/agent/v1/health',
      'cadence.agent.class': 'GPTBot',
      'cadence.admission': 'rate-limited',
      'cadence.quota.store': 'in-process',
      'cadence.quota.remaining': 0,
    })
    expect(receiver.spans.some((candidate) => candidate.kind === CLIENT_KIND)).toBe(false)
  })
})

describe('metrics', () => {
  it('http.server.request.duration per route, status and agent class; mcp.server.operation.duration; refusals', async () => {
    const find = (metric: string, attributes: Record<string, unknown>) => () =>
      receiver.points().find((point) => point.metric === metric && Object.entries(attributes).every(([key, v]) => point.attributes[key] === v))
    const ok = (route: string) => ({ 'http.route': route, 'http.response.status_code': 200 })
    const rest = await eventually(find('http.server.request.duration', ok('/api/agent/v1/resources/{resourceId}')), 'REST duration')
    expect(rest.unit).toBe('s')
    expect(rest.count).toBe(1)
    expect(rest.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/api/agent/v1/resources/{resourceId}',
      'http.response.status_code': 200,
      'cadence.agent.class': 'ClaudeBot',
      'cadence.agent.signature': 'unsigned',
      'cadence.admission': 'admitted',
      'cadence.quota.store': 'in-process',
    })
    const refused = await eventually(find('cadence.agent.refusals', { 'http.response.status_code': 429 }), '429 count')
    expect(refused.count).toBe(1)
    expect(refused.attributes['cadence.agent.class']).toBe('GPTBot')
    const toolError = await eventually(find('mcp.server.operation.duration', { 'error.type': 'tool_error' }), 'MCP duration')
    expect(toolError.count).toBe(1)
    expect(toolError.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'service.read_public_resource',
      'mcp.protocol.version': '2026-07-28',
      'error.type': 'tool_error',
      'cadence.agent.class': 'mcp:raw-test',
    })
    const admittedHealth = await eventually(find('http.server.request.duration', ok('/api/agent/v1/health')), 'health')
    // Every admitted request of the burst, counted once.
    expect(admittedHealth.count).toBe(sent - 4)
  })
})

describe('the contact form', () => {
  it('counts posts by outcome only: no field of a lead in metrics, spans or the access log', async () => {
    expect(leadStatuses).toEqual([422, 303])
    const outcome = (value: string) => () =>
      receiver.points().find((point) => point.metric === 'cadence.lead_form.submissions' && point.attributes['cadence.lead_form.outcome'] === value)
    const stored = await eventually(outcome('stored'), 'stored count')
    expect(stored.count).toBe(1)
    expect(stored.attributes).toEqual({ 'cadence.lead_form.outcome': 'stored' })
    expect((await eventually(outcome('invalid'), 'invalid count')).count).toBe(1)
    const exported = JSON.stringify([receiver.points(), receiver.spans])
    for (const typed of [LEAD_NAME, 'observed@example.org', 'Observed Co']) expect(exported).not.toContain(typed)
    expect(site.output()).not.toContain(LEAD_NAME)
  })
})

describe('access log', () => {
  it('one JSON line per agent request, with the exact shape', async () => {
    const lines = await eventually(() => {
      const found = accessLogLines(site)
      return found.length >= sent ? found : undefined
    }, 'access-log lines')
    expect(lines).toHaveLength(sent)
    const rest = lines.find((line) => line.path === '/api/agent/v1/resources/product-overview')
    expect(Object.keys(rest ?? {})).toEqual([
      'time',
      'type',
      'method',
      'route',
      'path',
      'status',
      'duration_ms',
      'agent_class',
      'agent_signature',
      'agent_signer',
      'admission',
      'quota_store',
      'quota_remaining',
      'mcp_method',
      'mcp_tool',
      'mcp_error',
      'request_id',
      'trace_id',
    ])
    expect(rest).toMatchObject({
      type: 'agent_request',
      method: 'GET',
      route: '/api/agent/v1/resources/{resourceId}',
      status: 200,
      agent_class: 'ClaudeBot',
      agent_signature: 'unsigned',
      agent_signer: null,
      admission: 'admitted',
      quota_store: 'in-process',
      quota_remaining: 149,
      mcp_method: null,
      mcp_tool: null,
      mcp_error: null,
    })
    expect(Date.parse(String(rest?.time))).toBeGreaterThan(Date.now() - 600_000)
    expect(typeof rest?.duration_ms).toBe('number')
    expect(rest?.request_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(rest?.trace_id).toMatch(/^[0-9a-f]{32}$/)

    const toolError = lines.find((line) => line.mcp_error === 'tool_error')
    expect(toolError).toMatchObject({ method: 'POST', route: '/mcp', status: 200, mcp_method: 'tools/call' })
    expect(toolError?.mcp_tool).toBe('service.read_public_resource')
    expect(toolError?.agent_class).toBe('mcp:raw-test')
    const refused = lines.filter((line) => line.status === 429)
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatchObject({ route: '/api/agent/v1/health', agent_class: 'GPTBot', admission: 'rate-limited', quota_remaining: 0 })
    // No client address, raw or otherwise, in any line.
    expect(lines.some((line) => JSON.stringify(line).includes('127.0.'))).toBe(false)
  })

  it('AGENT_ACCESS_LOG=false prints none; a 503 while agent access is off is still traced and counted', async () => {
    expect(answers.quiet?.status).toBe(503)
    const span = await eventually(
      spanIn(quietReceiver, (candidate) => candidate.name === 'GET /api/agent/v1/health'),
      '503 span',
    )
    expect(span.attributes).toMatchObject({ 'http.response.status_code': 503, 'cadence.admission': 'disabled', 'cadence.agent.class': 'GPTBot' })
    expect(span.attributes['cadence.quota.store']).toBeUndefined()
    const refused = await eventually(() => quietReceiver.points().find((point) => point.metric === 'cadence.agent.refusals'), '503 count')
    expect([refused.count, refused.attributes['http.response.status_code']]).toEqual([1, 503])
    expect(accessLogLines(quietSite)).toEqual([])
  })
})

describe('next start (as on Vercel): the same registration from instrumentation.ts', () => {
  it("the agent span is a child of Next's own server span, with the same attributes", async () => {
    expect(answers.nextRest?.status).toBe(200)
    const name = 'GET /api/agent/v1/resources/{resourceId}'
    const span = await eventually(() => nextReceiver.spans.find((candidate) => candidate.name === name), 'REST span under Next')
    expect(span.kind).toBe(INTERNAL)
    expect(span.attributes).toMatchObject({
      'http.route': '/api/agent/v1/resources/{resourceId}',
      'http.response.status_code': 200,
      'url.path': '/api/agent/v1/resources/product-overview',
      'cadence.agent.class': 'ClaudeBot',
      'cadence.admission': 'admitted',
      'cadence.quota.store': 'in-process',
    })
    const next = await eventually(() => nextReceiver.spans.find((candidate) => candidate.spanId === span.parentSpanId), "Next's span")
    expect(next.traceId).toBe(span.traceId)
    expect(span.resource['service.name']).toBe('cadence-observability-test')
  })

  it("the MCP span continues the client's _meta.traceparent; one access-log line per request", async () => {
    expect(answers.nextTraced?.status).toBe(200)
    const span = await eventually(
      spanIn(nextReceiver, (candidate) => candidate.name === 'tools/call service.get_public_capabilities'),
      'MCP span',
    )
    expect(span.traceId).toBe(CLIENT_TRACE_ID)
    expect(span.parentSpanId).toBe(CLIENT_SPAN_ID)
    expect(span.attributes['mcp.method.name']).toBe('tools/call')
    const lines = await eventually(() => {
      const found = accessLogLines(nextSite)
      return found.length >= 2 ? found : undefined
    }, 'access-log lines of next start')
    expect(lines.map((line) => [line.route, line.status, line.agent_class, line.mcp_tool])).toEqual([
      ['/api/agent/v1/resources/{resourceId}', 200, 'ClaudeBot', null],
      ['/mcp', 200, 'mcp:raw-test', 'service.get_public_capabilities'],
    ])
  })
})

describe('Upstash quota store', () => {
  let redis: RunningRedis
  let bridge: UpstashBridge
  let upstashReceiver: OtlpReceiver
  let upstashSite: RunningSite

  beforeAll(async () => {
    redis = await startRedis()
    ;[bridge, upstashReceiver] = await Promise.all([startUpstashBridge({ redisPort: redis.port }), startOtlpReceiver()])
    upstashSite = await startSite({
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: bridge.token,
      REDIS_KEY_PREFIX: `observability-test-${process.pid}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: upstashReceiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_METRIC_EXPORT_INTERVAL: '300',
    })
  }, 120_000)

  afterAll(async () => {
    await upstashSite?.stop()
    await Promise.all([bridge?.stop(), redis?.dispose(), upstashReceiver?.close()])
  })

  it('the Upstash call is a client span under the request; when it fails the request is served failed-over, counted once', async () => {
    const from = client()
    const shared = await from.get(`${upstashSite.origin}/api/agent/v1/health`, { 'user-agent': GPTBOT_UA })
    expect(shared.status).toBe(200)
    const storeIs = (store: string) => spanIn(upstashReceiver, (span) => span.attributes['cadence.quota.store'] === store)
    const upstashCallUnder = (parent: ReceivedSpan) =>
      spanIn(upstashReceiver, (span) => span.parentSpanId === parent.spanId && span.name === 'ratelimit upstash')
    const first = await eventually(storeIs('upstash'), 'upstash request span')
    const call = await eventually(upstashCallUnder(first), 'client span')
    expect(call.kind).toBe(CLIENT_KIND)
    expect(call.attributes).toMatchObject({ 'db.system.name': 'redis', 'db.operation.name': 'ratelimit' })

    await redis.stop()
    const failed = await from.get(`${upstashSite.origin}/api/agent/v1/health`, { 'user-agent': GPTBOT_UA })
    expect(failed.status).toBe(200)
    const over = await eventually(storeIs('failed-over'), 'failed-over span')
    expect(over.attributes['http.response.status_code']).toBe(200)
    const failedCall = await eventually(upstashCallUnder(over), 'failed call')
    expect(failedCall.status.code).toBe(2)
    const failovers = await eventually(() => upstashReceiver.points().find((point) => point.metric === 'cadence.quota.failovers'), 'failover count')
    expect(failovers.count).toBe(1)
    // The once-per-outage warning stays beside the access log.
    expect(
      upstashSite
        .output()
        .split('\n')
        .filter((line) => line.includes('[quota] Upstash Redis failed')),
    ).toHaveLength(1)
    expect(accessLogLines(upstashSite).map((line) => line.quota_store)).toEqual(['upstash', 'failed-over'])
  })
})
