/**
 * Compression of bodies built once (prerendered output, the agent API's answers): gzip and brotli at
 * their best settings, computed once per body on the first request that asks for a compressed answer,
 * never per request and never for a body nobody asks for; the client's Accept-Encoding picks one
 * (RFC 9110 §12.5.3). Small bodies go as they are: the saving would not pay for the work.
 */
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import { parseAcceptEncoding, qualityOfCoding } from './negotiate.ts'

const MIN_COMPRESSIBLE_BYTES = 1024

interface EncodedBodies {
  gzip: Uint8Array
  br: Uint8Array
}

/** A body built once, and its encodings. */
export interface EncodableBody {
  readonly bytes: Uint8Array
  /** Whether the body is large enough to be compressed (answers of it then vary by Accept-Encoding). */
  readonly compressible: boolean
  /** Both encodings, or null when the body is not compressible: made when first read, then kept. */
  readonly encoded: EncodedBodies | null
}

export function encodableBody(bytes: Uint8Array): EncodableBody {
  const compressible = bytes.byteLength >= MIN_COMPRESSIBLE_BYTES
  let encoded: EncodedBodies | null | undefined
  return {
    bytes,
    compressible,
    get encoded() {
      encoded ??= compressible ? encode(bytes) : null
      return encoded
    },
  }
}

function encode(bytes: Uint8Array): EncodedBodies {
  return {
    gzip: gzipSync(bytes, { level: 9 }),
    br: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } }),
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

/**
 * What goes to a client with this Accept-Encoding: the body encoded when it is compressible and the
 * client takes an encoding, else as it is. Reading `encoded` makes the encodings: only for a client
 * that takes one.
 */
export function bodyForClient(
  body: Pick<EncodableBody, 'bytes'> & Partial<Pick<EncodableBody, 'compressible' | 'encoded'>>,
  acceptEncoding: string | null | undefined,
): { bytes: Uint8Array; encoding: 'br' | 'gzip' | null } {
  const encoding = body.compressible ? chooseEncoding(acceptEncoding) : null
  const encoded = encoding && body.encoded
  return encoding && encoded ? { bytes: encoded[encoding], encoding } : { bytes: body.bytes, encoding: null }
}

/** `Vary` with Accept-Encoding added (a compressed answer varies by it). */
export function varyOnEncoding(vary: string | null | undefined): string {
  return vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding'
}
