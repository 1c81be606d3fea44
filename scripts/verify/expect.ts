/**
 * The small vocabulary the checks of `npm run verify` are written in: a check collects findings
 * (what is wrong, in words an operator can act on) and passes when it has none. Header comparisons
 * follow HTTP's rules (case-insensitive names, comma-separated list fields, Cache-Control as a set of
 * directives), so a CDN that reorders or re-spaces a value is not reported.
 */
import type { z } from 'zod'
import type { Fetched } from './client.ts'

export class Findings {
  readonly problems: string[] = []

  add(problem: string): void {
    this.problems.push(problem)
  }

  /** Records `problem` unless `condition` holds; returns `condition`. */
  that(condition: boolean, problem: string): boolean {
    if (!condition) this.add(problem)
    return condition
  }

  /** The answer arrived with this status (else the reason it did not, or what it was). */
  status(response: Fetched, expected: number): boolean {
    if (response.error) return this.that(false, `${response.method} ${response.path}: ${response.error}`)
    if (!response.answered) return this.that(false, `${response.method} ${response.path}: no answer`)
    const location = response.headers.get('location')
    const redirect = location ? ` (redirect to ${location})` : ''
    return this.that(response.status === expected, `${response.method} ${response.path}: status ${response.status}${redirect}, expected ${expected}`)
  }

  header(response: Fetched, name: string, expected: string): boolean {
    const actual = response.headers.get(name)
    return this.that(actual === expected, `${name}: ${show(actual)}, expected ${JSON.stringify(expected)}`)
  }

  /** The media type (and its parameters, compared without regard to spacing and case). */
  contentType(response: Fetched, expected: string): boolean {
    const actual = response.headers.get('content-type')
    return this.that(
      actual !== null && normalizeMediaType(actual) === normalizeMediaType(expected),
      `Content-Type: ${show(actual)}, expected ${JSON.stringify(expected)}`,
    )
  }

  /** A list header (Vary, Access-Control-Expose-Headers) names every one of `tokens`. */
  listHas(response: Fetched, name: string, tokens: readonly string[]): boolean {
    const present = new Set(listTokens(response.headers.get(name)))
    const missing = tokens.filter((token) => !present.has(token.toLowerCase()))
    return this.that(missing.length === 0, `${name}: ${show(response.headers.get(name))} lacks ${missing.join(', ')}`)
  }

  /**
   * Cache-Control with the expected directives. `s-maxage` is for shared caches: Vercel's CDN consumes
   * it and does not pass it on, so it may be absent, but when present it must be the expected one.
   */
  cacheControl(response: Fetched, expected: string): boolean {
    const actual = response.headers.get('cache-control')
    const want = cacheDirectives(expected)
    const got = cacheDirectives(actual ?? '')
    const sharedOk = !got.has('s-maxage') || got.get('s-maxage') === want.get('s-maxage')
    want.delete('s-maxage')
    got.delete('s-maxage')
    const same = want.size === got.size && [...want].every(([key, value]) => got.get(key) === value)
    return this.that(actual !== null && same && sharedOk, `Cache-Control: ${show(actual)}, expected ${JSON.stringify(expected)}`)
  }

  /** The body is JSON matching the contract's schema; returns the parsed value (undefined when it is not). */
  json<T>(response: Fetched, schema: z.ZodType<T>, label: string): T | undefined {
    let value: unknown
    try {
      value = JSON.parse(response.text)
    } catch {
      this.add(`${label}: body is not JSON (${describeBody(response.text)})`)
      return undefined
    }
    const parsed = schema.safeParse(value)
    if (parsed.success) return parsed.data
    const issues = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    this.add(`${label}: ${issues.join('; ')}${parsed.error.issues.length > 3 ? `; and ${parsed.error.issues.length - 3} more` : ''}`)
    return undefined
  }
}

export function show(value: string | null): string {
  return value === null ? 'absent' : JSON.stringify(value.length > 120 ? `${value.slice(0, 117)}...` : value)
}

/** What a body that is not what was expected starts with, for the report. */
function describeBody(text: string): string {
  if (text.length === 0) return 'empty body'
  const start = text.slice(0, 60).replace(/\s+/g, ' ')
  return `starts ${JSON.stringify(start)}${text.length > 60 ? '…' : ''}`
}

function listTokens(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter(Boolean)
}

function normalizeMediaType(value: string): string {
  return value
    .split(';')
    .map((part) =>
      part
        .trim()
        .toLowerCase()
        .replace(/\s*=\s*/, '='),
    )
    .filter(Boolean)
    .join(';')
}

function cacheDirectives(value: string): Map<string, string> {
  return new Map(
    listTokens(value).map((directive) => {
      const [name = '', argument = ''] = directive.split('=', 2)
      return [name.trim(), argument.trim().replace(/^"|"$/g, '')]
    }),
  )
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
