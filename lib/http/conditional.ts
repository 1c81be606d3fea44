/**
 * Conditional requests (RFC 9110 §13.1.2): whether an `If-None-Match` value names the current
 * representation, compared weakly as the RFC requires for this header.
 */

/** `*`, or any listed entity-tag equal to ours under weak comparison. */
export function ifNoneMatchMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false
  const value = ifNoneMatch.trim()
  if (value === '*') return true
  const opaque = etag.replace(/^W\//, '')
  for (const tag of value.match(/(?:W\/)?"[^"]*"/g) ?? []) {
    if (tag.replace(/^W\//, '') === opaque) return true
  }
  return false
}
