/**
 * The quota, exact after the soak: a fresh client sends until refused; the i-th admitted answer shows
 * Remaining = 150 − i + refills (bracketed by the clock), its headers agree (standards §1.4), and the
 * first refusal is the exact 429 of §1.5 once every token is spent. Deviations are problem lines.
 */
import { MCP_PATH, MCP_PROTOCOL_VERSION } from '../../lib/contract/constants.ts'
import { operationPath } from '../../lib/contract/operations.ts'
import { mcpAnswerProblems, quotaHeaderProblems, restAnswerProblems } from '../../harness/contract-answers.ts'
import { toAnswer } from './cases.ts'
import { createAgent, sendHttp, type HttpSpec } from './wire.ts'

const REFILL_MS = 500
/** Wall clock (server) versus monotonic clock (here): a decision next to a refill boundary may be misjudged by this much. */
const CLOCK_SLACK_MS = 25

export interface BurstResult {
  label: string
  admitted: number
  /** Refills the bucket may have received by the refusal: [min, max]. */
  refills: [number, number]
  elapsedMs: number
  /** The refusal's headers as sent, for the report. */
  refusal: string
  problems: string[]
}

export interface BurstClient {
  label: string
  /** Forwarded addresses used in turn (all the same client to the server). */
  addresses: string[]
  /** Alternate REST and MCP requests (one bucket for both). */
  mixTransports: boolean
}

function requestFor(address: string, mcp: boolean): HttpSpec {
  if (!mcp) return { method: 'GET', path: operationPath('getAgentHealth'), headers: { 'x-forwarded-for': address } }
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 'burst',
    method: 'tools/list',
    params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MCP_PROTOCOL_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} } },
  })
  return {
    method: 'POST',
    path: MCP_PATH,
    headers: {
      'x-forwarded-for': address,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MCP_PROTOCOL_VERSION,
      'mcp-method': 'tools/list',
    },
    body,
  }
}

export async function burstUntilRefused(port: number, baseUrl: string, client: BurstClient): Promise<BurstResult> {
  const agent = createAgent(1)
  const problems: string[] = []
  let admitted = 0
  let firstSent = 0
  let firstAnswered = 0
  const started = performance.now()
  try {
    for (let i = 0; i < 150 + 60; i++) {
      const mcp = client.mixTransports && i % 2 === 1
      const spec = requestFor(client.addresses[i % client.addresses.length] as string, mcp)
      const sentAt = performance.now()
      const outcome = await sendHttp(port, agent, spec, 10_000)
      const answeredAt = performance.now()
      if (i === 0) {
        firstSent = sentAt
        firstAnswered = answeredAt
      }
      if (!outcome.answer) {
        problems.push(`request ${i + 1}: ${outcome.end} (${outcome.error ?? ''})`)
        break
      }
      const answer = toAnswer(outcome.answer)
      const min = Math.max(0, Math.floor((sentAt - firstAnswered - CLOCK_SLACK_MS) / REFILL_MS))
      const max = Math.floor((answeredAt - firstSent + CLOCK_SLACK_MS) / REFILL_MS)
      const contract = mcp
        ? mcpAnswerProblems({ body: JSON.parse(spec.body as string) }, answer)
        : restAnswerProblems({ method: 'GET', target: spec.path, baseUrl }, answer)
      problems.push(...contract.map((p) => `request ${i + 1}: ${p}`))
      if (answer.status === 429) {
        problems.push(...quotaHeaderProblems(answer.headers, 'refused').map((p) => `the 429: ${p}`))
        if (admitted < 150 + min || admitted > 150 + max) problems.push(`refused after ${admitted} admitted; expected 150 + ${min}…${max} refills`)
        const h = answer.headers
        return {
          label: client.label,
          admitted,
          refills: [min, max],
          elapsedMs: answeredAt - started,
          refusal: `429 Retry-After ${h['retry-after']}, RateLimit-Remaining ${h['ratelimit-remaining']}, RateLimit-Reset ${h['ratelimit-reset']}, RateLimit: ${h.ratelimit}`,
          problems,
        }
      }
      admitted++
      const remaining = Number(answer.headers['ratelimit-remaining'])
      const low = 150 - admitted + min
      const high = Math.min(149, 150 - admitted + max)
      if (!(remaining >= low && remaining <= high)) problems.push(`admitted request ${admitted}: Remaining ${remaining}, expected ${low}…${high}`)
    }
    problems.push(`no 429 after ${admitted} admitted requests`)
    return { label: client.label, admitted, refills: [0, 0], elapsedMs: performance.now() - started, refusal: 'none', problems }
  } finally {
    agent.destroy()
  }
}
