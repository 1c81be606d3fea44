/**
 * Answers remembered. What gate.ts and the SDK answer to a request depends only on its message without
 * the id and on the three mirrored headers gate.ts reads, so a request seen before gets the same bytes
 * with its own id spliced in, without a per-request SDK server (which costs about three times as much
 * CPU). Memory stays bounded whatever clients send: requests with an id, of at most 4 KiB, and only
 * the latest 256 of them.
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

export function rememberAnswers(serve: Serve): Serve {
  // Each answer cut where the request's id goes (one part: the answer names no id).
  const remembered = new Map<string, Omit<McpAnswer, 'body'> & { parts: Buffer[] | null }>()
  const marker = `remembered-${randomUUID()}`
  return async (body, headers) => {
    const id = readableId(body)
    const message = id === null ? undefined : { ...(body as object), id: marker }
    const key = message && keyOf(headers, message)
    if (key === undefined || key.length > MAX_KEY_LENGTH) return serve(body, headers)
    let answer = remembered.get(key)
    if (!answer) {
      const { body: bytes, ...rest } = await serve(message, headers)
      const parts = bytes && Buffer.from(bytes).toString().split(JSON.stringify(marker))
      answer = { ...rest, parts: parts ? parts.map((part) => Buffer.from(part)) : null }
      if (remembered.size >= MAX_ENTRIES) remembered.delete(remembered.keys().next().value as string)
      remembered.set(key, answer)
    }
    const { parts, ...rest } = answer
    const idBytes = Buffer.from(JSON.stringify(id))
    return { ...rest, body: parts && Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [idBytes, part]))) }
  }
}
