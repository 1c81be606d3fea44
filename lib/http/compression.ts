/**
 * Compression of bodies built once (prerendered output, the agent API's answers): gzip and brotli at
 * their best settings, computed once per body, never per request; the client's Accept-Encoding picks
 * one (RFC 9110 §12.5.3). Small bodies go as they are: the saving would not pay for the work.
 */
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'

export const MIN_COMPRESSIBLE_BYTES = 1024

export interface EncodedBodies {
  gzip: Uint8Array
  br: Uint8Array
}

/** Both encodings of a body, or null when it is too small to compress. */
export function encodeBody(identity: Uint8Array): EncodedBodies | null {
  if (identity.byteLength < MIN_COMPRESSIBLE_BYTES) return null
  return {
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.byteLength } }),
  }
}

/** br, then gzip, when the client accepts it with q > 0; identity otherwise. */
export function chooseEncoding(acceptEncoding: string | null | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null
  const accepted = new Map<string, number>()
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [coding = '', ...params] = part.split(';').map((item) => item.trim())
    const q = params.find((param) => param.startsWith('q='))
    const quality = q ? Number(q.slice(2)) : 1
    if (coding) accepted.set(coding, Number.isFinite(quality) ? quality : 0)
  }
  const quality = (coding: string) => accepted.get(coding) ?? accepted.get('*') ?? 0
  if (quality('br') > 0) return 'br'
  if (quality('gzip') > 0) return 'gzip'
  return null
}

/** `Vary` with Accept-Encoding added (a compressed answer varies by it). */
export function varyOnEncoding(vary: string | null | undefined): string {
  return vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding'
}

/**
 * Whether the agent API's answers go compressed: only where this code writes them to the socket
 * itself (`npm start`). Next strips a route handler's Content-Encoding and compresses by itself
 * (`next start`), and so does Vercel's edge.
 */
let answersCompressedHere = false

export function compressAnswersHere(): void {
  answersCompressedHere = true
}

export function areAnswersCompressedHere(): boolean {
  return answersCompressedHere
}
