/**
 * What each agent request (REST under /api/agent/v1 and POST /mcp) leaves behind: an HTTP span, an MCP
 * span per the OpenTelemetry MCP conventions, metrics, and one access-log line. The route handlers are
 * wrapped once (`observeAgentRoute`, lib/agent-routes.ts); each handler returns its answer together with
 * what it decided on the way (admission, quota store, the MCP call), and the wrapper records those values.
 *
 * Without an OTLP endpoint nothing here touches OpenTelemetry; with the access log off as well, the
 * wrapper returns the handler's answer and nothing else.
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
import type { AdmissionRecord } from '../admission.ts'
import type { AgentRequest, HeaderReader } from '../http/agent-request.ts'
import { getConfig, telemetryExportOf } from '../env.ts'
import { loadOpenTelemetryCore } from '../on-demand.ts'
import { processSingleton } from '../process-singleton.ts'
import { writeAccessLogLine, type AccessLogLine } from './access-log.ts'
import { classifyAgent } from './agent-classes.ts'
import { ATTR, TELEMETRY_SERVICE_NAME, METRIC } from './names.ts'

/** The MCP request as its handler read it, and how it was answered. */
interface McpCallRecord {
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

/**
 * What the request's Web Bot Auth signature showed (lib/agent-signature): `verified`, `invalid`,
 * `unverified` or `unsigned`, and the verified signer's origin. Telemetry records it as it comes.
 */
export interface SignatureRecord {
  signature: string
  signer: string | null
}

export const UNSIGNED_RECORD: SignatureRecord = Object.freeze({ signature: 'unsigned', signer: null })

/** Reads a request's signature: at once, or once a shared replay check answered (never a directory fetch). */
export type SignatureInspector = (request: AgentRequest) => SignatureRecord | Promise<SignatureRecord>

/** A handler's answer (any value with an HTTP status) with what it decided: each value is null when the request never got that far. */
export interface AgentOutcome<Answer extends { status: number } = { status: number }> {
  answer: Answer
  /** The operation's path template (`http.route`) when the request named one. */
  route: string | null
  admission: AdmissionRecord | null
  mcp: McpCallRecord | null
}

interface Instruments {
  requestDuration: Histogram
  mcpDuration: Histogram
  refusals: Counter
  signedRequests: Counter
  failovers: Counter
  leadForm: Counter
  leadDeliveries: Counter
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
      const meter = metrics.getMeter(TELEMETRY_SERVICE_NAME)
      const advice = { explicitBucketBoundaries: DURATION_BUCKETS_S }
      instruments = {
        requestDuration: meter.createHistogram(METRIC.requestDuration, { unit: 's', description: 'Duration of agent HTTP requests.', advice }),
        mcpDuration: meter.createHistogram(METRIC.mcpDuration, { unit: 's', description: 'Duration of MCP operations on the server.', advice }),
        refusals: meter.createCounter(METRIC.refusals, { unit: '{request}', description: 'Agent requests refused: 429 (quota), 503 (access off).' }),
        signedRequests: meter.createCounter(METRIC.signedRequests, {
          unit: '{request}',
          description: 'Agent requests that carried a Web Bot Auth signature, by verdict and verified signer.',
        }),
        failovers: meter.createCounter(METRIC.failovers, { unit: '{failover}', description: 'Switches from Upstash to the in-process quota store.' }),
        leadForm: meter.createCounter(METRIC.leadForm, {
          unit: '{submission}',
          description: 'Contact form posts by outcome (stored, spam, invalid, limited, …); never a field of the lead.',
        }),
        leadDeliveries: meter.createCounter(METRIC.leadDeliveries, {
          unit: '{attempt}',
          description: 'Lead delivery attempts by destination kind and outcome (delivered, HTTP 503, timeout, …).',
        }),
      }
    }
    return { spans: Boolean(exported?.traces), metrics: instruments, log: config.agentAccessLog, onVercel: config.onVercel }
  })
}

/** Counts one post of the contact form by its outcome: the only thing telemetry learns of a lead. */
export function recordLeadFormOutcome(outcome: string): void {
  getTelemetry().metrics?.leadForm.add(1, { [ATTR.leadFormOutcome]: outcome })
}

/** One lead delivery attempt as telemetry may see it: the destination's kind and origin, when, and what came of it. */
interface LeadDeliveryReport {
  destination: string
  /** An origin (scheme, host, port): a destination's path or query may hold a credential, and is never given. */
  origin: string
  startedAt: number
  endedAt: number
  outcome: string
}

/**
 * One delivery attempt: a client span over its time and a count by outcome. The attempt itself runs
 * with tracing suppressed (`leadDeliveryTelemetry.untraced`), so no HTTP client instrumentation (Next's
 * or @vercel/otel's, which patch fetch and node:http alike) names a span after its URL.
 */
function recordLeadDelivery(report: LeadDeliveryReport): void {
  const telemetry = getTelemetry()
  const attributes: Attributes = {
    [ATTR.leadDeliveryDestination]: report.destination,
    [ATTR.leadDeliveryOutcome]: report.outcome,
  }
  telemetry.metrics?.leadDeliveries.add(1, attributes)
  if (!telemetry.spans) return
  const span = trace.getTracer(TELEMETRY_SERVICE_NAME).startSpan(`lead delivery ${report.destination}`, {
    kind: SpanKind.CLIENT,
    startTime: report.startedAt,
    attributes: { ...attributes, [ATTR.leadDeliveryOrigin]: report.origin },
  })
  if (report.outcome !== 'delivered') span.setStatus({ code: SpanStatusCode.ERROR })
  span.end(report.endedAt)
}

/** What telemetry does with lead deliveries (lib/leads/delivery.ts `DeliveryTelemetry`). */
export const leadDeliveryTelemetry = {
  record: recordLeadDelivery,
  async untraced<T>(send: () => Promise<T>): Promise<T> {
    // Loaded by the first delivery attempt: no request of the agent surface needs it.
    const { suppressTracing } = await loadOpenTelemetryCore()
    return context.with(suppressTracing(context.active()), send)
  },
}

/** Counts one switch of the quota store to its in-process stand-in. */
function recordQuotaFailover(): void {
  getTelemetry().metrics?.failovers.add(1)
}

/** The Upstash call as a client span, when spans are exported; else the call alone. */
function withUpstashSpan<T>(operation: string, call: () => Promise<T>): Promise<T> {
  if (!getTelemetry().spans) return call()
  const tracer = trace.getTracer(TELEMETRY_SERVICE_NAME)
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

/** What telemetry sees of the quota's shared store (lib/quota/quota.ts `observeQuota`). */
export const quotaTelemetry = { upstashCall: withUpstashSpan, failover: recordQuotaFailover }

const headerGetter: TextMapGetter<HeaderReader> = {
  keys: (carrier) => [...carrier.keys()],
  get: (carrier, key) => carrier.get(key) ?? undefined,
}

const recordGetter: TextMapGetter<Record<string, string>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
}

const NOTHING_DECIDED: Omit<AgentOutcome, 'answer'> = { route: null, admission: null, mcp: null }

/**
 * `handler` with its request observed. `route`: the route template reported when the outcome names
 * none (`http.route`). `inspect` reads the request's signature beside the handler; the answer is the
 * handler's, unchanged, and waits for nothing but a shared replay check that runs beside it.
 */
export function observeAgentRoute<Answer extends { status: number }>(
  route: string,
  handler: (request: AgentRequest) => Promise<AgentOutcome<Answer>>,
  inspect?: SignatureInspector,
): (request: AgentRequest) => Promise<Answer> {
  return async (request) => {
    const telemetry = getTelemetry()
    if (!telemetry.spans && !telemetry.metrics && !telemetry.log) return (await handler(request)).answer
    const startedAt = performance.timeOrigin + performance.now()
    const inspected = inspect ? inspect(request) : UNSIGNED_RECORD
    const path = new URL(request.url).pathname
    let span: Span | undefined
    let spanContext: Context | undefined
    if (telemetry.spans) {
      const tracer = trace.getTracer(TELEMETRY_SERVICE_NAME)
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
    let outcome: Omit<AgentOutcome, 'answer'> = NOTHING_DECIDED
    let status = 500
    let signature = inspected instanceof Promise ? UNSIGNED_RECORD : inspected
    try {
      const answered = spanContext ? await context.with(spanContext, handler, undefined, request) : await handler(request)
      outcome = answered
      status = answered.answer.status
      if (inspected instanceof Promise) signature = await inspected
      return answered.answer
    } finally {
      finish(telemetry, request, outcome, signature, route, path, status, startedAt, span, spanContext)
    }
  }
}

function finish(
  telemetry: Telemetry,
  request: AgentRequest,
  seen: Omit<AgentOutcome, 'answer'>,
  signature: SignatureRecord,
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
  const agentClass = classifyAgent(request.headers.get('user-agent'), mcp?.clientName, signature.signer)
  const common: Attributes = {
    [ATTR.httpMethod]: request.method,
    [ATTR.httpRoute]: route,
    [ATTR.httpStatus]: status,
    [ATTR.agentClass]: agentClass,
    [ATTR.agentSignature]: signature.signature,
  }
  if (signature.signer) common[ATTR.agentSigner] = signature.signer
  const admission = seen.admission
  if (admission) common[ATTR.admission] = admission.outcome
  if (admission?.quotaStore) common[ATTR.quotaStore] = admission.quotaStore

  let traceId: string | null = null
  if (span) {
    span.updateName(`${request.method} ${route}`)
    span.setAttributes(common)
    if (admission && admission.quotaRemaining !== null) span.setAttribute(ATTR.quotaRemaining, admission.quotaRemaining)
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
    if (signature.signature !== UNSIGNED_RECORD.signature) instruments.signedRequests.add(1, signedAttributes(route, agentClass, signature))
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
      agent_signature: signature.signature,
      agent_signer: signature.signer,
      admission: admission?.outcome ?? null,
      quota_store: admission?.quotaStore ?? null,
      quota_remaining: admission?.quotaRemaining ?? null,
      mcp_method: mcp?.method ?? null,
      mcp_tool: mcp?.tool ?? null,
      mcp_error: mcp?.error ?? null,
      request_id: requestId(telemetry, request.headers.get('x-vercel-id')),
      trace_id: traceId,
    }
    writeAccessLogLine(line)
  }
}

/** Vercel's request id when Vercel set it; a client's header of that name means nothing elsewhere. */
function requestId(telemetry: Telemetry, vercelId: string | null): string {
  return (telemetry.onVercel && vercelId) || randomUUID()
}

function signedAttributes(route: string, agentClass: string, signature: SignatureRecord): Attributes {
  const attributes: Attributes = { [ATTR.httpRoute]: route, [ATTR.agentClass]: agentClass, [ATTR.agentSignature]: signature.signature }
  if (signature.signer) attributes[ATTR.agentSigner] = signature.signer
  return attributes
}

/** A prerendered answer for agents (a document, a problem page, a twin, a page asked for as Markdown) that a signed request got. */
export interface StaticAgentAnswer {
  method: string
  /** The route template (lib/routes/agent-answer-paths.ts), or the page path asked for as Markdown. */
  route: string
  path: string
  /** Null where the answer is given after the observer (proxy.ts under Next and Vercel). */
  status: number | null
  /** Epoch ms when the request arrived. */
  startedAt: number
  /** Null where the answer is given after the observer. */
  durationMs: number | null
  userAgent: string | null
  vercelId: string | null
}

/**
 * Records a signed request for a prerendered agent answer: its access-log line and the
 * `cadence.agent.signed_requests` count (no span: the answer is served from the build's output).
 */
export function recordStaticAgentAnswer(answer: StaticAgentAnswer, signature: SignatureRecord): void {
  const telemetry = getTelemetry()
  if (!telemetry.metrics && !telemetry.log) return
  const agentClass = classifyAgent(answer.userAgent, undefined, signature.signer)
  telemetry.metrics?.signedRequests.add(1, signedAttributes(answer.route, agentClass, signature))
  if (!telemetry.log) return
  writeAccessLogLine({
    time: new Date(answer.startedAt).toISOString(),
    type: 'agent_request',
    method: answer.method,
    route: answer.route,
    path: answer.path,
    status: answer.status,
    duration_ms: answer.durationMs === null ? null : Math.round(answer.durationMs * 1000) / 1000,
    agent_class: agentClass,
    agent_signature: signature.signature,
    agent_signer: signature.signer,
    admission: null,
    quota_store: null,
    quota_remaining: null,
    mcp_method: null,
    mcp_tool: null,
    mcp_error: null,
    request_id: requestId(telemetry, answer.vercelId),
    trace_id: null,
  })
}

/** Whether signed static answers are observed at all: with no log and no metrics, nothing is verified for them. */
export function observesStaticAgentAnswers(): boolean {
  const telemetry = getTelemetry()
  return telemetry.log || telemetry.metrics !== null
}

function mcpAttributes(mcp: McpCallRecord, agentClass: string): Attributes {
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
function mcpSpan(mcp: McpCallRecord, agentClass: string, endedAt: number, httpContext: Context): void {
  const tracer = trace.getTracer(TELEMETRY_SERVICE_NAME)
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
