/**
 * The soak's upload flood: many clients each start a 2 MB POST /mcp at once and send its body slowly.
 * The server must keep its memory bounded (it reads large bodies a few at a time, the rest wait on
 * the clients: lib/http/body-budget.ts), cut every too-slow upload off within the request timeout, and
 * keep answering everyone else meanwhile.
 */
import { connect } from 'node:net'
import { MCP_MAX_BODY_BYTES } from '../../lib/contract/constants.ts'
import { operationPath } from '../../lib/contract/operations.ts'
import { cutOffBoundMs } from '../../lib/server/server-options.ts'
import { processRssMb } from '../../harness/proc-stats.ts'
import { LOOPBACK } from './wire.ts'

export interface UploadFloodOptions {
  uploaders: number
  /** Bytes per second each uploader sends. */
  bytesPerSecond: number
}

export interface UploadFloodResult {
  uploaders: number
  bytesPerSecond: number
  /** How each upload ended: `408`, `400`, `closed` (cut off before an answer was read), … */
  endings: Record<string, number>
  /** Slowest end of an upload, ms after it started. */
  longestMs: number
  peakRssMb: number
  /** Status and latency of health checks sent during the flood. */
  healthChecks: { status: number; ms: number }[]
}

const HEALTH_EVERY_MS = 1_000

function upload(port: number, index: number, bytesPerSecond: number): Promise<{ ending: string; ms: number }> {
  const started = performance.now()
  const body = MCP_MAX_BODY_BYTES
  return new Promise((resolve) => {
    const socket = connect(port, LOOPBACK)
    let answer = ''
    let timer: NodeJS.Timeout | undefined
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]
      resolve({ ending: status ?? 'closed', ms: performance.now() - started })
    })
    // Each uploader is a distinct client behind the trusted proxy, so the quota does not refuse them first.
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: ${LOOPBACK}:${port}\r\nX-Forwarded-For: 198.18.${index >> 8}.${index & 255}\r\n` +
        `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body}\r\nConnection: close\r\n\r\n`,
    )
    const slice = Buffer.alloc(Math.max(1, Math.round(bytesPerSecond / 10)), 0x20)
    let sent = 0
    const send = () => {
      if (socket.destroyed || sent >= body) return
      const chunk = slice.subarray(0, Math.min(slice.length, body - sent))
      sent += chunk.length
      socket.write(chunk)
      timer = setTimeout(send, 100)
    }
    send()
  })
}

export async function runUploadFlood(port: number, pid: number, options: UploadFloodOptions): Promise<UploadFloodResult> {
  let peakRssMb = processRssMb(pid)
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, processRssMb(pid))), 200)
  const healthChecks: UploadFloodResult['healthChecks'] = []
  let flooding = true
  const checker = (async () => {
    while (flooding) {
      const sent = performance.now()
      const status = await fetch(`http://${LOOPBACK}:${port}${operationPath('getAgentHealth')}`, {
        headers: { 'x-forwarded-for': '198.19.0.1' },
        signal: AbortSignal.timeout(10_000),
      }).then(
        async (response) => {
          await response.arrayBuffer()
          return response.status
        },
        () => 0,
      )
      healthChecks.push({ status, ms: performance.now() - sent })
      await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS))
    }
  })()
  try {
    const ends = await Promise.all(Array.from({ length: options.uploaders }, (_, index) => upload(port, index, options.bytesPerSecond)))
    const endings: Record<string, number> = {}
    for (const { ending } of ends) endings[ending] = (endings[ending] ?? 0) + 1
    return { ...options, endings, longestMs: Math.max(...ends.map((end) => end.ms)), peakRssMb, healthChecks }
  } finally {
    flooding = false
    await checker
    clearInterval(sampler)
  }
}

export interface UploadFloodProblem {
  kind: 'memory' | 'cut-off timing' | 'wrong answer' | 'unanswered'
  detail: string
}

/** Problems of a flood: memory above the bound, uploads held past the request timeout, health unanswered. */
export function uploadFloodProblems(result: UploadFloodResult, rssBoundMb: number, slackMs: number): UploadFloodProblem[] {
  const problems: UploadFloodProblem[] = []
  if (result.peakRssMb > rssBoundMb) {
    problems.push({ kind: 'memory', detail: `server RSS peaked at ${result.peakRssMb.toFixed(0)} MB during the flood, above ${rssBoundMb} MB` })
  }
  const bound = cutOffBoundMs('requestTimeout') + slackMs
  if (result.longestMs > bound) {
    problems.push({
      kind: 'cut-off timing',
      detail: `an upload lasted ${(result.longestMs / 1000).toFixed(1)} s, past the request timeout's ${(bound / 1000).toFixed(1)} s`,
    })
  }
  const unexpected = Object.keys(result.endings).filter((ending) => !['408', '400', '413', 'closed'].includes(ending))
  if (unexpected.length) problems.push({ kind: 'wrong answer', detail: `uploads ended with ${unexpected.join(', ')}` })
  const failed = result.healthChecks.filter((check) => check.status !== 200)
  if (failed.length)
    problems.push({ kind: 'unanswered', detail: `${failed.length} of ${result.healthChecks.length} health checks during the flood failed` })
  return problems
}
