/**
 * What each agent request (REST under /api/agent/v1 and POST /mcp) leaves behind: an HTTP span, an MCP
 * span per the OpenTelemetry MCP conventions, metrics, and one access-log line. The route handlers are
 * wrapped once (`observeAgentRoute`); the handlers only note what they decided (admission, quota store,
 * the MCP call) on the request's observation, which exists only while something will read it.
 *
 * Without an OTLP endpoint nothing here touches OpenTelemetry; with the access log off as well, the
 * wrapper calls the handler and nothing else.
 */
import { randomUUID } from 'node:crypto'
import {
  context,
  metrics,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  type Span,
  type TextMapGetter,
} from '@opentelemetry/api'
import { getConfig, telemetryExportOf } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'
import { writeAccessLogLine, type AccessLogLine } from './access-log.ts'
import { classifyAgent } from './agent-classes.ts'
import { ATTR, INSTRUMENTATION_SCOPE, METRIC } from './names.ts'

export type AdmissionOutcome = 'admitted' | 'rate-limited' | 'disabled'
export type QuotaStoreUsed = 'in-process' | 'upstash' | 'failed-over'

/** The MCP request as read from its body (only the fields telemetry reports). */
export interface McpCallNote {
  method: string | null
  tool: string | null
  resourceUri: string | null
  protocolVersion: string | null
  requestId: string | null
  clientName: unknown
  traceparent: string | null
  tracestate: string | null
  /** Epoch ms when the body was read: the MCP operation starts there. */
  startedAt: number
  /** `tool_error`, a JSON-RPC error code, or null. */
  error: string | null
}

/** What the handlers note about one request. */
export interface AgentObservation {
  route: string | null
  admission: AdmissionOutcome | null
  quotaStore: QuotaStoreUsed | null
  quotaRemaining: number | null
  mcp: McpCallNote | null
}

type WebRequestHandler = (request: Request) => Promise<Response>

const observations = new WeakMap<Request, AgentObservation>()

/** The request's observation, or undefined when nothing records this request. */
export function observationOf(request: Request): AgentObservation | undefined {
  return observations.get(request)
}

interface Instruments {
  requestDuration: Histogram
  mcpDuration: Histogram
  refusals: Counter
  failovers: Counter
}

interface Telemetry {
  spans: boolean
  metrics: Instruments | null
  log: boolean
  onVercel: boolean
}

const DURATION_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** Decided once per process from the settings: the OTLP endpoint variables and AGENT_ACCESS_LOG. */
function getTelemetry(): Telemetry {
  return processSingleton('telemetry', () => {
    const config = getConfig()
    const exported = telemetryExportOf()
    let instruments: Instruments | null = null
    if (exported?.metrics) {
      const meter = metrics.getMeter(INSTRUMENTATION_SCOPE)
      const advice = { explicitBucketBoundaries: DURATION_BUCKETS_S }
      instruments = {
        requestDuration: meter.createHistogram(METRIC.requestDuration, { unit: 's', description: 'Duration of agent HTTP requests.', advice }),
        mcpDuration: meter.createHistogram(METRIC.mcpDuration, { unit: 's', description: 'Duration of MCP operations on the server.', advice }),
        refusals: meter.createCounter(METRIC.refusals, { unit: '{request}', description: 'Agent requests refused: 429 (quota), 503 (access off).' }),
        failovers: meter.createCounter(METRIC.failovers, { unit: '{failover}', description: 'Switches from Upstash to the in-process quota store.' }),
      }
    }
    return { spans: Boolean(exported?.traces), metrics: instruments, log: config.agentAccessLog, onVercel: config.onVercel }
  })
}

/** Counts one switch of the quota store to its in-process stand-in (lib/quota/quota.ts). */
export function recordQuotaFailover(): void {
  getTelemetry().metrics?.failovers.add(1)
}

/** The Upstash call as a client span, when spans are exported; else the call alone. */
export function withUpstashSpan<T>(operation: string, call: () => Promise<T>): Promise<T> {
  if (!getTelemetry().spans) return call()
  const tracer = trace.getTracer(INSTRUMENTATION_SCOPE)
  const attributes: Attributes = { [ATTR.dbSystem]: 'redis', [ATTR.dbOperation]: operation, [ATTR.serverAddress]: 'upstash' }
  return tracer.startActiveSpan(`${operation} upstash`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await call()
    } catch (error) {
      span.setAttribute(ATTR.errorType, error instanceof Error ? error.name : 'error')
      span.setStatus({ code: SpanStatusCode.ERROR })
      throw error
    } finally {
      span.end()
    }
  })
}

const headerGetter: TextMapGetter<Headers> = {
  keys: (carrier) => [...carrier.keys()],
  get: (carrier, key) => carrier.get(key) ?? undefined,
}

const recordGetter: TextMapGetter<Record<string, string>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
}

/**
 * `handler` with its request observed. `route`: the route template reported when the handler notes
 * none (`http.route`). The answer is the handler's, unchanged.
 */
export function observeAgentRoute(route: string, handler: WebRequestHandler): WebRequestHandler {
  return async (request) => {
    const telemetry = getTelemetry()
    if (!telemetry.spans && !telemetry.metrics && !telemetry.log) return handler(request)
    const startedAt = performance.timeOrigin + performance.now()
    const seen: AgentObservation = { route: null, admission: null, quotaStore: null, quotaRemaining: null, mcp: null }
    observations.set(request, seen)
    const path = new URL(request.url).pathname
    let span: Span | undefined
    let spanContext: Context | undefined
    if (telemetry.spans) {
      const tracer = trace.getTracer(INSTRUMENTATION_SCOPE)
      const active = context.active()
      // Under Next (and on Vercel) Next's own server span is active: ours is its child. Under npm start
      // ours is the server span, continuing the caller's traceparent header.
      const outer = trace.getSpan(active) !== undefined
      const parent = outer ? active : propagation.extract(ROOT_CONTEXT, request.headers, headerGetter)
      span = tracer.startSpan(
        `${request.method} ${route}`,
        {
          kind: outer ? SpanKind.INTERNAL : SpanKind.SERVER,
          startTime: startedAt,
          attributes: { [ATTR.httpMethod]: request.method, [ATTR.urlPath]: path },
        },
        parent,
      )
      spanContext = trace.setSpan(parent, span)
    }
    let status = 500
    try {
      const response = spanContext ? await context.with(spanContext, handler, undefined, request) : await handler(request)
      status = response.status
      return response
    } finally {
      finish(telemetry, request, seen, route, path, status, startedAt, span, spanContext)
    }
  }
}

function finish(
  telemetry: Telemetry,
  request: Request,
  seen: AgentObservation,
  defaultRoute: string,
  path: string,
  status: number,
  startedAt: number,
  span: Span | undefined,
  spanContext: Context | undefined,
): void {
  const endedAt = performance.timeOrigin + performance.now()
  const route = seen.route ?? defaultRoute
  const mcp = seen.mcp
  const agentClass = classifyAgent(request.headers.get('user-agent'), mcp?.clientName)
  const common: Attributes = { [ATTR.httpMethod]: request.method, [ATTR.httpRoute]: route, [ATTR.httpStatus]: status, [ATTR.agentClass]: agentClass }
  if (seen.admission) common[ATTR.admission] = seen.admission
  if (seen.quotaStore) common[ATTR.quotaStore] = seen.quotaStore

  let traceId: string | null = null
  if (span) {
    span.updateName(`${request.method} ${route}`)
    span.setAttributes(common)
    if (seen.quotaRemaining !== null) span.setAttribute(ATTR.quotaRemaining, seen.quotaRemaining)
    if (status >= 500) {
      span.setAttribute(ATTR.errorType, String(status))
      span.setStatus({ code: SpanStatusCode.ERROR })
    }
    traceId = span.spanContext().traceId
    if (mcp?.method) mcpSpan(mcp, agentClass, endedAt, spanContext as Context)
    span.end(endedAt)
  }

  const instruments = telemetry.metrics
  if (instruments) {
    instruments.requestDuration.record((endedAt - startedAt) / 1000, common)
    if (status === 429 || status === 503) instruments.refusals.add(1, common)
    if (mcp?.method) instruments.mcpDuration.record((endedAt - mcp.startedAt) / 1000, mcpAttributes(mcp, agentClass))
  }

  if (telemetry.log) {
    const line: AccessLogLine = {
      time: new Date(startedAt).toISOString(),
      type: 'agent_request',
      method: request.method,
      route,
      path,
      status,
      duration_ms: Math.round((endedAt - startedAt) * 1000) / 1000,
      agent_class: agentClass,
      admission: seen.admission,
      quota_store: seen.quotaStore,
      quota_remaining: seen.quotaRemaining,
      mcp_method: mcp?.method ?? null,
      mcp_tool: mcp?.tool ?? null,
      mcp_error: mcp?.error ?? null,
      // Vercel's request id when Vercel set it; a client's header of that name means nothing elsewhere.
      request_id: (telemetry.onVercel && request.headers.get('x-vercel-id')) || randomUUID(),
      trace_id: traceId,
    }
    writeAccessLogLine(line)
  }
}

function mcpAttributes(mcp: McpCallNote, agentClass: string): Attributes {
  const attributes: Attributes = { [ATTR.mcpMethod]: mcp.method as string, [ATTR.agentClass]: agentClass }
  if (mcp.tool !== null) attributes[ATTR.toolName] = mcp.tool
  if (mcp.protocolVersion !== null) attributes[ATTR.mcpProtocolVersion] = mcp.protocolVersion
  if (mcp.error !== null) attributes[ATTR.errorType] = mcp.error
  return attributes
}

/**
 * The MCP server span: named `{mcp.method.name} {target}`, started when the body was read. Its parent
 * is the client's `params._meta.traceparent` when it sent one (the MCP 2026-07-28 way to carry a
 * trace), linked to the HTTP span; otherwise the HTTP span.
 */
function mcpSpan(mcp: McpCallNote, agentClass: string, endedAt: number, httpContext: Context): void {
  const tracer = trace.getTracer(INSTRUMENTATION_SCOPE)
  const attributes = mcpAttributes(mcp, agentClass)
  if (mcp.requestId !== null) attributes[ATTR.jsonrpcId] = mcp.requestId
  if (mcp.resourceUri !== null) attributes[ATTR.resourceUri] = mcp.resourceUri
  if (mcp.error !== null && mcp.error !== 'tool_error') attributes[ATTR.rpcStatus] = mcp.error
  attributes[ATTR.networkTransport] = 'tcp'
  attributes[ATTR.networkProtocol] = 'http'
  let parent = httpContext
  const links = []
  if (mcp.traceparent !== null) {
    const carrier: Record<string, string> = { traceparent: mcp.traceparent }
    if (mcp.tracestate !== null) carrier.tracestate = mcp.tracestate
    const extracted = propagation.extract(ROOT_CONTEXT, carrier, recordGetter)
    if (trace.getSpanContext(extracted)) {
      parent = extracted
      const http = trace.getSpanContext(httpContext)
      if (http) links.push({ context: http })
    }
  }
  const target = mcp.tool ?? null
  const name = target ? `${mcp.method} ${target}` : (mcp.method as string)
  const span = tracer.startSpan(name, { kind: SpanKind.SERVER, startTime: mcp.startedAt, attributes, links }, parent)
  if (mcp.error !== null) span.setStatus({ code: SpanStatusCode.ERROR })
  span.end(endedAt)
}
