/**
 * HTTP `Accept` and `Accept-Encoding` parsing (RFC 9110 §12.5.1, §12.5.3; one q-value parser for
 * both) and the homepage's one negotiation rule: Markdown only when `text/markdown` is listed
 * explicitly with q > 0 and q ≥ the q of `text/html` (standards.md §8). Parsing never throws: a
 * malformed element is skipped, the rest of the header still counts.
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
  // The usual header has no quoted string: a plain split gives the same parts, without a loop per character.
  if (!value.includes('"')) return value.split(separator)
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

/** One element of a q-weighted list (Accept, Accept-Encoding): its name, its parameters before `q`, and `q`. */
interface WeightedElement {
  /** Lower-cased, trimmed; not yet checked (a media range or a coding has its own form). */
  name: string
  params: Record<string, string>
  q: number
}

/** RFC 9110 §12.4.2's weight and the parameters before it; null when a parameter or the q-value is malformed. */
function parseWeightedElement(text: string): WeightedElement | null {
  const [name = '', ...paramTexts] = splitOutsideQuotes(text, ';')
  const params: Record<string, string> = {}
  let q = 1
  for (const paramText of paramTexts) {
    const trimmed = paramText.trim()
    if (!trimmed) continue
    const equals = trimmed.indexOf('=')
    if (equals < 0) return null
    const paramName = trimmed.slice(0, equals).trim().toLowerCase()
    const value = unquote(trimmed.slice(equals + 1).trim())
    if (!TOKEN.test(paramName) || value === null) return null
    if (paramName === 'q') {
      if (!QVALUE.test(value)) return null
      q = Number(value)
      // Everything after q are accept-extensions, not parameters.
      break
    }
    params[paramName] = value
  }
  return { name: name.trim().toLowerCase(), params, q }
}

/** Every well-formed element of a q-weighted list, in header order (a cut header's last, maybe incomplete, one left out). */
function parseWeightedList<T>(value: string | null | undefined, element: (parsed: WeightedElement, index: number) => T | null): T[] {
  if (!value) return []
  const elements: T[] = []
  const parts = splitOutsideQuotes(value.slice(0, MAX_ACCEPT_LENGTH), ',')
  // A cut header ends in an element that may have lost its parameters (`text/markdown;q=0` cut to
  // `text/markdown` would reverse the client's preference): only complete elements count.
  if (value.length > MAX_ACCEPT_LENGTH) parts.pop()
  for (const part of parts) {
    if (!part.trim()) continue
    const parsed = parseWeightedElement(part)
    const item = parsed && element(parsed, elements.length)
    if (item) elements.push(item)
  }
  return elements
}

function toMediaRange({ name, params, q }: WeightedElement, index: number): MediaRange | null {
  const slash = name.indexOf('/')
  if (slash < 0) return null
  const type = name.slice(0, slash).trim()
  const subtype = name.slice(slash + 1).trim()
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return null
  // `*/html` is not a media range.
  if (type === '*' && subtype !== '*') return null
  return { type, subtype, params, q, index }
}

/** Every well-formed media range of an `Accept` value, in header order. */
export function parseAccept(accept: string | null | undefined): MediaRange[] {
  return parseWeightedList(accept, toMediaRange)
}

/** A content coding of `Accept-Encoding` (RFC 9110 §12.5.3): lower-cased, `*` for any, `identity` included. */
export interface WeightedCoding {
  coding: string
  q: number
}

/** Every well-formed coding of an `Accept-Encoding` value, in header order. */
export function parseAcceptEncoding(acceptEncoding: string | null | undefined): WeightedCoding[] {
  return parseWeightedList(acceptEncoding, ({ name, q }) => (TOKEN.test(name) ? { coding: name, q } : null))
}

/** The quality the client gives a coding: the highest q it is listed with, else that of `*`, else 0. */
export function qualityOfCoding(codings: readonly WeightedCoding[], coding: string): number {
  let named: number | null = null
  let any: number | null = null
  for (const item of codings) {
    if (item.coding === coding) named = Math.max(named ?? 0, item.q)
    else if (item.coding === '*') any = Math.max(any ?? 0, item.q)
  }
  return named ?? any ?? 0
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
