/**
 * The access log of the agent surface: one JSON object per line on stdout, a shape `jq` and Vercel's
 * log drains read as is. Lines written in the same turn of the event loop go out in one write, except
 * on Vercel, where a function may be frozen once it answered: there each line goes out at once.
 */
import { getConfig } from '../env.ts'

/**
 * One agent request. Absent values are null, so every line has the same keys. `status` and
 * `duration_ms` are null on the lines proxy.ts writes (next start, Vercel): the build's static output
 * answers after it.
 */
export interface AccessLogLine {
  time: string
  type: 'agent_request'
  method: string
  route: string
  path: string
  status: number | null
  duration_ms: number | null
  agent_class: string
  /** `verified`, `invalid`, `unverified` or `unsigned` (lib/agent-signature/web-bot-auth.ts). */
  agent_signature: string
  /** The verified signer's directory origin, else null. */
  agent_signer: string | null
  admission: string | null
  quota_store: string | null
  quota_remaining: number | null
  mcp_method: string | null
  mcp_tool: string | null
  mcp_error: string | null
  request_id: string
  trace_id: string | null
}

let pending = ''
let scheduled = false

function flush(): void {
  scheduled = false
  if (pending === '') return
  const text = pending
  pending = ''
  process.stdout.write(text)
}

export function writeAccessLogLine(line: AccessLogLine): void {
  const text = `${JSON.stringify(line)}\n`
  if (getConfig().onVercel) {
    process.stdout.write(text)
    return
  }
  pending += text
  if (scheduled) return
  scheduled = true
  setImmediate(flush)
}

// npm start exits on SIGTERM with process.exit: the last lines still go out.
process.once('exit', flush)
