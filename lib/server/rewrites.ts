/**
 * The rewrites of a build as Next applies them: `rewrites` of `.next/routes-manifest.json`
 * (next.config.ts rewrites(): a page's `.md` URL → its twin route, any other `.md` URL → the Markdown
 * 404). In a phase, the first rewrite whose `regex` matches the path and whose `has`/`missing`
 * conditions hold names the route that answers. npm start serves a destination only when it is a
 * route path as it stands; one with parameters to substitute or a query is left to Next.
 */
import { compileCondition, holds, type CompiledCondition, type RuleRequest } from './header-rules.ts'
import type { ManifestRewrite, ManifestRewrites, RoutesManifest } from './routes-manifest.ts'

export type RewritePhase = keyof ManifestRewrites

interface CompiledRewrite {
  source: string
  path: RegExp
  has: CompiledCondition[]
  missing: CompiledCondition[]
  /** The route that answers, or null when its destination is not a plain path (Next answers). */
  destination: string | null
}

/** A path-to-regexp source without parameters, wildcards or groups: it matches itself alone. */
const LITERAL_SOURCE = /^\/[^:*?+(){}]*$/
/** A destination npm start can serve as it stands: no parameter to fill in, no query. */
const PLAIN_DESTINATION = /^\/[^:?#]*$/

/** What a path is rewritten to: the route that answers it, Next (a rewrite npm start does not apply), or nothing. */
export type RewriteTarget = { route: string } | 'next' | null

export class Rewrites {
  private readonly phases: Record<RewritePhase, CompiledRewrite[]>

  constructor(manifest: Pick<RoutesManifest, 'caseSensitive' | 'rewrites'>) {
    const flags = manifest.caseSensitive ? '' : 'i'
    const rewrites = manifest.rewrites ?? []
    const phases: ManifestRewrites = Array.isArray(rewrites) ? { beforeFiles: [], afterFiles: rewrites, fallback: [] } : rewrites
    const compile = (rewrite: ManifestRewrite): CompiledRewrite => ({
      source: rewrite.source,
      path: new RegExp(rewrite.regex, flags),
      has: (rewrite.has ?? []).map(compileCondition),
      missing: (rewrite.missing ?? []).map(compileCondition),
      destination: PLAIN_DESTINATION.test(rewrite.destination) ? rewrite.destination : null,
    })
    this.phases = {
      beforeFiles: phases.beforeFiles.map(compile),
      afterFiles: phases.afterFiles.map(compile),
      fallback: phases.fallback.map(compile),
    }
  }

  /** Whether a phase has any rewrite (most requests need not look). */
  has(phase: RewritePhase): boolean {
    return this.phases[phase].length > 0
  }

  /**
   * The rewrites of a phase whose source is one path and that apply to every request of it (no
   * condition, no earlier rewrite matching that path), as [path, route]: what answers them can be
   * computed once.
   */
  literal(phase: RewritePhase): Array<[string, string]> {
    const rewrites = this.phases[phase]
    return rewrites.flatMap((rewrite, index): Array<[string, string]> => {
      const unconditional = rewrite.has.length === 0 && rewrite.missing.length === 0
      const first = !rewrites.slice(0, index).some((earlier) => earlier.path.test(rewrite.source))
      return rewrite.destination && unconditional && first && LITERAL_SOURCE.test(rewrite.source) ? [[rewrite.source, rewrite.destination]] : []
    })
  }

  /**
   * What the first rewrite of a phase that applies to this request names. A path with a trailing slash
   * is never rewritten here: Next first redirects it to the path without (the manifest's own redirect).
   */
  match(phase: RewritePhase, pathname: string, request: RuleRequest): RewriteTarget {
    if (pathname.length > 1 && pathname.endsWith('/')) return null
    for (const rewrite of this.phases[phase]) {
      if (!rewrite.path.test(pathname)) continue
      if (!rewrite.has.every((condition) => holds(condition, request)) || rewrite.missing.some((condition) => holds(condition, request))) continue
      return rewrite.destination ? { route: rewrite.destination } : 'next'
    }
    return null
  }
}
