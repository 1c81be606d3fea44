/**
 * HTTP `Accept` parsing (RFC 9110 §12.5.1) and the homepage's one negotiation rule: Markdown only when
 * `text/markdown` is listed explicitly with q > 0 and q ≥ the q of `text/html` (standards.md §8).
 * Parsing never throws: a malformed media range is skipped, the rest of the header still counts.
 */

export interface MediaRange {
  /** Lower-cased type, `*` for a wildcard. */
  type: string
  /** Lower-cased subtype, `*` for a wildcard. */
  subtype: string
  /** Media-type parameters before `q`, names lower-cased, quoted values unquoted. */
  params: Readonly<Record<string, string>>
  /** Quality between 0 and 1 (default 1). */
  q: number
  /** Position in the header, for stable ordering. */
  index: number
}

// RFC 9110 §5.6.2 token characters.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
// RFC 9110 §12.4.2: "0" [ "." 0*3DIGIT ] / "1" [ "." 0*3("0") ]
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

/** Headers longer than this are cut (Node already refuses headers over 16 KiB). */
const MAX_ACCEPT_LENGTH = 8192

/**
 * Splits a header value on `separator`, outside quoted strings (a `\` escapes the next character).
 */
function splitOutsideQuotes(value: string, separator: string): string[] {
  const parts: string[] = []
  let current = ''
  let quoted = false
  for (let i = 0; i < value.length; i++) {
    const char = value[i] as string
    if (quoted) {
      current += char
      if (char === '\\' && i + 1 < value.length) current += value[++i]
      else if (char === '"') quoted = false
    } else if (char === '"') {
      quoted = true
      current += char
    } else if (char === separator) {
      parts.push(current)
      current = ''
    } else {
      current += char
    }
  }
  parts.push(current)
  return parts
}

function unquote(value: string): string | null {
  if (!value.startsWith('"')) return TOKEN.test(value) ? value : null
  if (value.length < 2 || !value.endsWith('"')) return null
  return value.slice(1, -1).replace(/\\(.)/g, '$1')
}

function parseMediaRange(text: string, index: number): MediaRange | null {
  const [range = '', ...paramTexts] = splitOutsideQuotes(text, ';')
  const slash = range.indexOf('/')
  if (slash < 0) return null
  const type = range.slice(0, slash).trim().toLowerCase()
  const subtype = range
    .slice(slash + 1)
    .trim()
    .toLowerCase()
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return null
  // `*/html` is not a media range.
  if (type === '*' && subtype !== '*') return null

  const params: Record<string, string> = {}
  let q = 1
  for (const paramText of paramTexts) {
    const trimmed = paramText.trim()
    if (!trimmed) continue
    const equals = trimmed.indexOf('=')
    if (equals < 0) return null
    const name = trimmed.slice(0, equals).trim().toLowerCase()
    const value = unquote(trimmed.slice(equals + 1).trim())
    if (!TOKEN.test(name) || value === null) return null
    if (name === 'q') {
      if (!QVALUE.test(value)) return null
      q = Number(value)
      // Everything after q are accept-extensions, not media-type parameters.
      break
    }
    params[name] = value
  }
  return { type, subtype, params, q, index }
}

/** Every well-formed media range of an `Accept` value, in header order. */
export function parseAccept(accept: string | null | undefined): MediaRange[] {
  if (!accept) return []
  const ranges: MediaRange[] = []
  const parts = splitOutsideQuotes(accept.slice(0, MAX_ACCEPT_LENGTH), ',')
  // A cut header ends in a range that may have lost its parameters (`text/markdown;q=0` cut to
  // `text/markdown` would reverse the client's preference): only complete ranges count.
  if (accept.length > MAX_ACCEPT_LENGTH) parts.pop()
  for (const part of parts) {
    if (!part.trim()) continue
    const range = parseMediaRange(part, ranges.length)
    if (range) ranges.push(range)
  }
  return ranges
}

/**
 * The quality the client gives `type/subtype`: that of the most specific matching range
 * (`type/subtype` over `type/*` over `*\/*`; the highest q among equally specific ones), 0 when none
 * matches. Parameters do not select: this site has one representation per media type.
 */
export function qualityOf(ranges: readonly MediaRange[], mediaType: string): number {
  const [type = '', subtype = ''] = mediaType.toLowerCase().split('/')
  let bestSpecificity = -1
  let bestQ = 0
  for (const range of ranges) {
    let specificity: number
    if (range.type === type && range.subtype === subtype) specificity = 2
    else if (range.type === type && range.subtype === '*') specificity = 1
    else if (range.type === '*' && range.subtype === '*') specificity = 0
    else continue
    if (specificity > bestSpecificity || (specificity === bestSpecificity && range.q > bestQ)) {
      bestSpecificity = specificity
      bestQ = range.q
    }
  }
  return bestQ
}

/** The highest q of ranges naming exactly `type/subtype` (no wildcard), or null when it is not listed. */
export function explicitQualityOf(ranges: readonly MediaRange[], mediaType: string): number | null {
  const [type = '', subtype = ''] = mediaType.toLowerCase().split('/')
  let best: number | null = null
  for (const range of ranges) {
    if (range.type === type && range.subtype === subtype && (best === null || range.q > best)) best = range.q
  }
  return best
}

/**
 * True when the homepage should answer Markdown: `text/markdown` listed by name with q > 0 and
 * q ≥ the q of `text/html`. `*\/*` or `text/*` alone, no header, or nothing acceptable → HTML.
 */
export function prefersMarkdown(accept: string | null | undefined): boolean {
  const ranges = parseAccept(accept)
  const markdown = explicitQualityOf(ranges, 'text/markdown')
  if (markdown === null || markdown <= 0) return false
  return markdown >= qualityOf(ranges, 'text/html')
}
