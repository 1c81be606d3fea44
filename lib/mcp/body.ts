/**
 * Reads a POST body as UTF-8 text under a byte limit: a declared or streamed body over the limit
 * stops being read at once; invalid UTF-8 is reported as unreadable. Never throws.
 */

export type BodyText = { kind: 'text'; text: string } | { kind: 'too-large' } | { kind: 'unreadable' }

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

export async function readBodyText(request: Request, maxBytes: number): Promise<BodyText> {
  const declared = request.headers.get('content-length')
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => {})
    return { kind: 'too-large' }
  }
  if (request.body === null) return { kind: 'text', text: '' }
  try {
    if (declared !== null) return decode(new Uint8Array(await request.arrayBuffer()), maxBytes)
    const reader = request.body.getReader()
    const chunks: Uint8Array[] = []
    let total = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > maxBytes) {
        await reader.cancel().catch(() => {})
        return { kind: 'too-large' }
      }
      chunks.push(value)
    }
    return decode(Buffer.concat(chunks, total), maxBytes)
  } catch {
    return { kind: 'unreadable' }
  }
}

function decode(bytes: Uint8Array, maxBytes: number): BodyText {
  if (bytes.byteLength > maxBytes) return { kind: 'too-large' }
  try {
    return { kind: 'text', text: utf8.decode(bytes) }
  } catch {
    return { kind: 'unreadable' }
  }
}
