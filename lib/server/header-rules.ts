/**
 * The header rules of a build as Next and Vercel apply them: `headers` of `.next/routes-manifest.json`
 * (next.config.ts headers(), the pages' CSP added by the postbuild step). npm start applies the same
 * rules to what it serves from the build, with Next's semantics: every rule whose `regex` matches the
 * path and whose `has`/`missing` conditions hold adds its headers, in order, a later rule replacing a
 * header of the same name (case-insensitive). Parameters are not substituted into header values
 * (Next does that for `:name` in a value; no rule of this site writes one).
 */
import type { RouteCondition, RoutesManifest } from './routes-manifest.ts'

/** What a condition can look at. */
export interface RuleRequest {
  headers: Record<string, string | string[] | undefined>
  /** The query string, with or without its `?`. */
  search: string
}

export interface CompiledCondition {
  type: RouteCondition['type']
  key: string
  value: RegExp | null
}

interface CompiledRule {
  path: RegExp
  has: CompiledCondition[]
  missing: CompiledCondition[]
  headers: Array<[string, string]>
}

/** The headers of the rules that matched, in order; a later rule replaces a same-named header. */
function merge(rules: readonly CompiledRule[]): Array<[string, string]> {
  const byName = new Map<string, [string, string]>()
  for (const rule of rules) for (const [name, value] of rule.headers) byName.set(name.toLowerCase(), [name, value])
  return [...byName.values()]
}

function conditionValue(condition: CompiledCondition, request: RuleRequest): string | undefined {
  switch (condition.type) {
    case 'header': {
      const value = request.headers[condition.key]
      // Next matches the last of repeated header lines.
      return Array.isArray(value) ? value.at(-1) : value
    }
    case 'cookie':
      return cookieValue(request.headers.cookie, condition.key)
    case 'query':
      return new URLSearchParams(request.search).get(condition.key) ?? undefined
    case 'host': {
      const host = request.headers.host
      return typeof host === 'string' ? host.split(':', 1)[0]?.toLowerCase() : undefined
    }
  }
}

function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  const text = Array.isArray(header) ? header.join('; ') : header
  if (!text) return undefined
  for (const pair of text.split(';')) {
    const equals = pair.indexOf('=')
    if (equals > 0 && pair.slice(0, equals).trim() === name) {
      const raw = pair.slice(equals + 1).trim()
      try {
        return decodeURIComponent(raw)
      } catch {
        return raw
      }
    }
  }
  return undefined
}

/** Next's matchHas: a condition holds when its value is present (and, with a `value`, matches it whole). */
export function holds(condition: CompiledCondition, request: RuleRequest): boolean {
  const value = conditionValue(condition, request)
  if (!value) return false
  return condition.value === null || condition.value.test(value)
}

export function compileCondition(condition: RouteCondition): CompiledCondition {
  const key = condition.type === 'header' ? (condition.key ?? '').toLowerCase() : (condition.key ?? '')
  return { type: condition.type, key, value: condition.value ? new RegExp(`^${condition.value}$`) : null }
}

export class HeaderRules {
  private readonly rules: CompiledRule[]

  constructor(manifest: Pick<RoutesManifest, 'caseSensitive' | 'headers'>) {
    const flags = manifest.caseSensitive ? '' : 'i'
    this.rules = manifest.headers.map((rule) => ({
      path: new RegExp(rule.regex, flags),
      has: (rule.has ?? []).map(compileCondition),
      missing: (rule.missing ?? []).map(compileCondition),
      headers: rule.headers.map(({ key, value }): [string, string] => [key, value]),
    }))
  }

  /**
   * The headers of a path, when they do not depend on the request (no rule that matches the path has
   * a condition): computed once and kept by the caller. `null` when they do: use `forRequest`.
   */
  forPath(pathname: string): Array<[string, string]> | null {
    const matching = this.rules.filter((rule) => rule.path.test(pathname))
    if (matching.some((rule) => rule.has.length > 0 || rule.missing.length > 0)) return null
    return merge(matching)
  }

  /** The headers of one request: the rules matching its path whose conditions hold. */
  forRequest(pathname: string, request: RuleRequest): Array<[string, string]> {
    return merge(
      this.rules.filter(
        (rule) =>
          rule.path.test(pathname) &&
          rule.has.every((condition) => holds(condition, request)) &&
          !rule.missing.some((condition) => holds(condition, request)),
      ),
    )
  }
}
