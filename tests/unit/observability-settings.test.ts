/**
 * The observability settings (lib/env.ts): AGENT_ACCESS_LOG in the settings' style (empty is unset,
 * one-line errors), and when OpenTelemetry has an endpoint to export to.
 */
import { describe, expect, it } from 'vitest'
import { parseConfig, telemetryExportOf } from '../../lib/env.ts'

describe('AGENT_ACCESS_LOG', () => {
  it('is on unless set to a false word; empty means unset', () => {
    expect(parseConfig({}).agentAccessLog).toBe(true)
    expect(parseConfig({ AGENT_ACCESS_LOG: '' }).agentAccessLog).toBe(true)
    expect(parseConfig({ AGENT_ACCESS_LOG: 'false' }).agentAccessLog).toBe(false)
    expect(parseConfig({ AGENT_ACCESS_LOG: 'OFF' }).agentAccessLog).toBe(false)
    expect(parseConfig({ AGENT_ACCESS_LOG: '1' }).agentAccessLog).toBe(true)
  })

  it('a wrong value is one line naming the variable', () => {
    expect(() => parseConfig({ AGENT_ACCESS_LOG: 'quiet' })).toThrow(
      /^Invalid setting AGENT_ACCESS_LOG: expected true or false \(or 1\/0, yes\/no, on\/off\), got "quiet"$/,
    )
  })
})

describe('telemetryExportOf', () => {
  it('nothing without an endpoint, or when the SDK is disabled', () => {
    expect(telemetryExportOf({})).toBeNull()
    expect(telemetryExportOf({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ', OTEL_SERVICE_NAME: 'x' })).toBeNull()
    expect(telemetryExportOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBeNull()
  })

  it('one endpoint for both signals, or one per signal; Vercel trace drains count for traces', () => {
    const both = { traces: true, metrics: true, metricIntervalMs: 60_000 }
    expect(telemetryExportOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual(both)
    expect(telemetryExportOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/v1/traces' })).toEqual({ ...both, metrics: false })
    expect(telemetryExportOf({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://c/v1/metrics', OTEL_METRIC_EXPORT_INTERVAL: '5000' })).toEqual({
      traces: false,
      metrics: true,
      metricIntervalMs: 5000,
    })
    expect(telemetryExportOf({ VERCEL_OTEL_ENDPOINTS: '[]' })?.traces).toBe(true)
  })
})
