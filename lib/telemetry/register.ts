/**
 * Registers OpenTelemetry for this process: `@vercel/otel` (Next's own registration, used on Vercel,
 * under `next start` and, through instrumentation.ts, under `npm start`), configured only by the
 * standard OTEL_* variables, which the SDK reads itself. Traces go over OTLP/HTTP as
 * OTEL_EXPORTER_OTLP_PROTOCOL says (http/protobuf by default, http/json); metrics over OTLP/HTTP JSON.
 * Without an endpoint nothing is imported or registered: the OpenTelemetry API stays a no-op.
 */
import { telemetryExportOf } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'
import { TELEMETRY_SERVICE_NAME } from './names.ts'

/**
 * Once per process: under `npm start`, Next's own server (used for the pages) loads the built
 * instrumentation.ts as well, after scripts/start.ts registered natively.
 */
export function registerTelemetry(): Promise<void> {
  return processSingleton('telemetry-registration', register)
}

async function register(): Promise<void> {
  const exported = telemetryExportOf()
  if (!exported) return
  const [{ registerOTel }, { PeriodicExportingMetricReader }, { OTLPMetricExporter }] = await Promise.all([
    import('@vercel/otel'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
  ])
  const metricReaders = exported.metrics
    ? [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: exported.metricIntervalMs })]
    : undefined
  // OTEL_SERVICE_NAME overrides this name (the SDK's rule). With a metrics endpoint only, no span
  // processor: @vercel/otel's default would otherwise send traces to localhost:4318.
  registerOTel({ serviceName: TELEMETRY_SERVICE_NAME, metricReaders, ...(exported.traces ? {} : { spanProcessors: [] }) })
}
