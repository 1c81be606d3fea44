/**
 * Compression of bodies built once (prerendered output, the agent API's answers): gzip and brotli at
 * their best settings, computed once per body, never per request; the client's Accept-Encoding picks
 * one (RFC 9110 §12.5.3). Small bodies go as they are: the saving would not pay for the work.
 */
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import { parseAcceptEncoding, qualityOfCoding } from './negotiate.ts'

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

/** br, then gzip, when the client accepts it with q > 0 (lib/http/negotiate.ts reads the q-values); identity otherwise. */
export function chooseEncoding(acceptEncoding: string | null | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null
  const codings = parseAcceptEncoding(acceptEncoding)
  if (qualityOfCoding(codings, 'br') > 0) return 'br'
  if (qualityOfCoding(codings, 'gzip') > 0) return 'gzip'
  return null
}

/** `Vary` with Accept-Encoding added (a compressed answer varies by it). */
export function varyOnEncoding(vary: string | null | undefined): string {
  return vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding'
}
