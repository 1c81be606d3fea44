/**
 * A small OTLP/HTTP JSON receiver on loopback: it keeps every span and metric data point the site
 * exports (POST /v1/traces, /v1/metrics), with attributes flattened to plain values.
 */
import { createServer, type Server } from 'node:http'
import { gunzipSync } from 'node:zlib'

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] } }
type KeyValue = { key: string; value: AnyValue }

type Attributes = Record<string, string | number | boolean | unknown[]>

export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId: string
  name: string
  kind: number
  attributes: Attributes
  links: { traceId: string; spanId: string }[]
  status: { code?: number }
  resource: Attributes
}

interface ReceivedPoint {
  metric: string
  unit: string
  attributes: Attributes
  /** Histogram count, or the sum's value. */
  count: number
  sum: number
}

export interface OtlpReceiver {
  url: string
  spans: ReceivedSpan[]
  /** Data points of the latest export of each metric stream (exports are cumulative). */
  points: () => ReceivedPoint[]
  requests: { path: string; contentType: string | undefined }[]
  /** Every byte received, each export's body as it arrived (JSON or protobuf). */
  bytes: () => Buffer
  close: () => Promise<void>
}

function value(any: AnyValue): string | number | boolean | unknown[] {
  if (any.stringValue !== undefined) return any.stringValue
  if (any.intValue !== undefined) return Number(any.intValue)
  if (any.doubleValue !== undefined) return any.doubleValue
  if (any.boolValue !== undefined) return any.boolValue
  return (any.arrayValue?.values ?? []).map(value)
}

function attributesOf(list: KeyValue[] | undefined): Attributes {
  return Object.fromEntries((list ?? []).map(({ key, value: any }) => [key, value(any)]))
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = []
  const latest = new Map<string, ReceivedPoint>()
  const requests: OtlpReceiver['requests'] = []
  const bodies: Buffer[] = []
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      requests.push({ path: request.url ?? '', contentType: request.headers['content-type'] })
      // Kept as the exporter meant it: a gzip body is unpacked, so a search of the bytes sees its text.
      const body = Buffer.concat(chunks)
      bodies.push(request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body)
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
        if (request.url === '/v1/traces') collectSpans(body, spans)
        if (request.url === '/v1/metrics') collectPoints(body, latest)
      } catch {
        // Not JSON (a protobuf export): recorded in `requests` only, so a test sees the content type.
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    points: () => [...latest.values()],
    requests,
    bytes: () => Buffer.concat(bodies),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

function collectSpans(body: any, spans: ReceivedSpan[]): void {
  for (const resourceSpans of body.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes)
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind,
          attributes: attributesOf(span.attributes),
          links: (span.links ?? []).map((link: any) => ({ traceId: link.traceId, spanId: link.spanId })),
          status: span.status ?? {},
          resource,
        })
      }
    }
  }
}

function collectPoints(body: any, latest: Map<string, ReceivedPoint>): void {
  for (const resourceMetrics of body.resourceMetrics ?? []) {
    for (const scopeMetrics of resourceMetrics.scopeMetrics ?? []) {
      for (const metric of scopeMetrics.metrics ?? []) {
        const points = metric.histogram?.dataPoints ?? metric.sum?.dataPoints ?? []
        for (const point of points) {
          const attributes = attributesOf(point.attributes)
          const count = metric.histogram ? Number(point.count) : Number(point.asInt ?? point.asDouble)
          const sum = metric.histogram ? Number(point.sum) : count
          const stream = `${metric.name} ${JSON.stringify(Object.entries(attributes).sort())}`
          latest.set(stream, { metric: metric.name, unit: metric.unit, attributes, count, sum })
        }
      }
    }
  }
}
