/**
 * Reading the MCP request headers that mirror the body: the RFC 9110 character check and the
 * `=?base64?…?=` sentinel of `Mcp-Name` (2026-07-28 transport, Value Encoding). Pure functions.
 */

const SENTINEL_PREFIX = '=?base64?'
const SENTINEL_SUFFIX = '?='
/** Canonical padded Base64 (the sentinel carries no whitespace and no URL-safe alphabet). */
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
/** Visible ASCII, space and horizontal tab: what an HTTP field value may carry. */
const PLAIN_FIELD_VALUE = /^[\t\x20-\x7e]*$/

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Whether a header value uses only characters RFC 9110 allows (no obs-text, no controls). */
export function isPlainFieldValue(value: string): boolean {
  return PLAIN_FIELD_VALUE.test(value)
}

export type DecodedHeader = { ok: true; value: string } | { ok: false; reason: string }

/**
 * Decodes an `Mcp-Name` value: a Base64 sentinel is decoded (UTF-8); any other value must be plain
 * and is returned as is. Returns the reason when the value is not acceptable.
 */
export function decodeMcpNameHeader(raw: string): DecodedHeader {
  if (!isPlainFieldValue(raw)) return { ok: false, reason: 'the Mcp-Name header contains characters outside visible ASCII' }
  if (!(raw.startsWith(SENTINEL_PREFIX) && raw.endsWith(SENTINEL_SUFFIX) && raw.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length)) {
    return { ok: true, value: raw }
  }
  const encoded = raw.slice(SENTINEL_PREFIX.length, raw.length - SENTINEL_SUFFIX.length)
  if (!CANONICAL_BASE64.test(encoded)) return { ok: false, reason: 'the Mcp-Name header carries an invalid Base64 sentinel value' }
  try {
    return { ok: true, value: utf8.decode(Buffer.from(encoded, 'base64')) }
  } catch {
    return { ok: false, reason: 'the Mcp-Name header carries a Base64 sentinel value that is not UTF-8' }
  }
}
