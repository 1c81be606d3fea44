/**
 * One verification of a running deployment (scripts/verify/checks.ts over a bounded client) and its
 * report: one line per check, the state the deployment is in, the requests spent, and the summary.
 */
import { QUOTA } from '../../lib/contract/constants.ts'
import { type AgentAccess, type CheckResult, type Indexing, runChecks } from './checks.ts'
import { BoundedClient } from './client.ts'

export const VERIFY_DEFAULTS = {
  timeoutMs: 10_000,
  totalTimeoutMs: 120_000,
  /** Well under the quota's burst, so a verify run never empties it for the operator's own address. */
  maxRequests: 100,
  /** llms-full.txt, the largest document, is far below this. */
  maxBodyBytes: 4 * 1024 * 1024,
  concurrency: 4,
} as const

export interface VerifyOptions {
  /** The deployment's origin, where requests go. */
  origin: string
  /** The origin its documents must name, or `announced` (the one its homepage names); default: `origin`. */
  publicOrigin?: string
  allowDisabled?: boolean
  expectIndexing?: Indexing
  timeoutMs?: number
  totalTimeoutMs?: number
  extraHeaders?: Record<string, string>
}

export interface VerifyReport {
  origin: string
  publicOrigin: string
  agentAccess: AgentAccess
  indexing: Indexing | 'unknown'
  checks: CheckResult[]
  passed: number
  failed: number
  requests: { sent: number; spentQuota: number; limit: number; quotaCapacity: number }
  durationMs: number
}

export async function verifyDeployment(options: VerifyOptions): Promise<VerifyReport> {
  const started = Date.now()
  const client = new BoundedClient({
    origin: options.origin,
    timeoutMs: options.timeoutMs ?? VERIFY_DEFAULTS.timeoutMs,
    totalTimeoutMs: options.totalTimeoutMs ?? VERIFY_DEFAULTS.totalTimeoutMs,
    maxRequests: VERIFY_DEFAULTS.maxRequests,
    maxBodyBytes: VERIFY_DEFAULTS.maxBodyBytes,
    concurrency: VERIFY_DEFAULTS.concurrency,
    extraHeaders: options.extraHeaders,
  })
  const run = await runChecks(client, {
    publicOrigin: options.publicOrigin ?? options.origin,
    allowDisabled: options.allowDisabled ?? false,
    ...(options.expectIndexing ? { expectIndexing: options.expectIndexing } : {}),
  })
  const passed = run.checks.filter((check) => check.passed).length
  return {
    origin: options.origin,
    publicOrigin: run.publicOrigin,
    agentAccess: run.agentAccess,
    indexing: run.indexing,
    checks: run.checks,
    passed,
    failed: run.checks.length - passed,
    requests: { ...client.counts, limit: VERIFY_DEFAULTS.maxRequests, quotaCapacity: QUOTA.capacity },
    durationMs: Date.now() - started,
  }
}

/** The report as printed: a line per check, then the state, the requests spent and `N passed, M failed`. */
export function reportLines(report: VerifyReport): string[] {
  const origin = report.publicOrigin === report.origin ? report.origin : `${report.origin} (public origin ${report.publicOrigin})`
  return [
    `verify ${origin}`,
    ...report.checks.map((check) => `${check.passed ? 'PASS' : 'FAIL'}  ${check.name}${check.detail ? ` — ${check.detail}` : ''}`),
    `agent access: ${report.agentAccess}; indexing: ${report.indexing}`,
    `requests: ${report.requests.sent} sent (at most ${report.requests.limit}), ${report.requests.spentQuota} of them to the agent API and MCP, ` +
      `which share a quota of ${report.requests.quotaCapacity} per client; ${(report.durationMs / 1000).toFixed(1)} s`,
    `${report.passed} passed, ${report.failed} failed`,
  ]
}
