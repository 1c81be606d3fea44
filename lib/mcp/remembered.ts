/**
 * Answers remembered. What gate.ts and the SDK answer to a request depends only on its message without
 * the id and on the three mirrored headers gate.ts reads, so a request seen before gets the same bytes
 * with its own id put in, without a per-request SDK server (which costs about three times as much
 * CPU). The answer is kept as the bytes it went out as, cut where the id goes. Memory stays bounded
 * whatever clients send: requests with an id, of at most 4 KiB, and only the latest 256 of them.
 */
import { randomUUID } from 'node:crypto'
import { readableId } from '../contract/mcp-errors.ts'
import type { MirroredHeaders } from './gate.ts'
import type { McpAnswer } from './protocol.ts'

type Serve = (body: unknown, headers: MirroredHeaders) => Promise<McpAnswer>

const MAX_KEY_LENGTH = 4096
const MAX_ENTRIES = 256

/** The key of a message, or undefined for one nested too deeply to serialize (it is answered, not remembered). */
function keyOf(headers: MirroredHeaders, message: object): string | undefined {
  try {
    return JSON.stringify([headers.protocolVersionHeader, headers.mcpMethodHeader, headers.mcpNameHeader, message])
  } catch {
    return undefined
  }
}

/** `bytes` cut around each occurrence of `marker` (one part when there is none), as views of the same bytes. */
function cutAt(bytes: Uint8Array, marker: Uint8Array): Buffer[] {
  const whole = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const parts: Buffer[] = []
  let start = 0
  for (let at = whole.indexOf(marker); at !== -1; at = whole.indexOf(marker, start)) {
    parts.push(whole.subarray(start, at))
    start = at + marker.length
  }
  parts.push(whole.subarray(start))
  return parts
}

export function rememberAnswers(serve: Serve): Serve {
  // Each answer cut where the request's id goes (one part: the answer names no id).
  const remembered = new Map<string, Omit<McpAnswer, 'body'> & { parts: Buffer[] | null }>()
  const marker = `remembered-${randomUUID()}`
  const markerBytes = Buffer.from(JSON.stringify(marker))
  return async (body, headers) => {
    const id = readableId(body)
    const message = id === null ? undefined : { ...(body as object), id: marker }
    const key = message && keyOf(headers, message)
    if (key === undefined || key.length > MAX_KEY_LENGTH) return serve(body, headers)
    let answer = remembered.get(key)
    if (!answer) {
      const { body: bytes, ...rest } = await serve(message, headers)
      answer = { ...rest, parts: bytes && cutAt(bytes, markerBytes) }
      if (remembered.size >= MAX_ENTRIES) remembered.delete(remembered.keys().next().value as string)
      remembered.set(key, answer)
    }
    const { parts, ...rest } = answer
    const idBytes = Buffer.from(JSON.stringify(id))
    return { ...rest, body: parts && Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [idBytes, part]))) }
  }
}
