/**
 * The build's `.next/routes-manifest.json`, the one statement of how Next (and Vercel) route the
 * site: the header rules and the rewrites of next.config.ts, compiled to regular expressions by Next.
 * npm start reads its rules from here (./header-rules.ts, ./rewrites.ts) rather than deriving them
 * again from the page list.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'

/** A `has` or `missing` condition of a rule (Next's RouteHas). */
export interface RouteCondition {
  type: 'header' | 'cookie' | 'query' | 'host'
  key?: string
  value?: string
}

export interface ManifestHeaderRule {
  source: string
  regex: string
  has?: RouteCondition[]
  missing?: RouteCondition[]
  headers: Array<{ key: string; value: string }>
}

export interface ManifestRewrite {
  source: string
  destination: string
  regex: string
  has?: RouteCondition[]
  missing?: RouteCondition[]
}

/** Next's three phases: before the routes, after them (before dynamic routes), and when nothing else answered. */
export interface ManifestRewrites {
  beforeFiles: ManifestRewrite[]
  afterFiles: ManifestRewrite[]
  fallback: ManifestRewrite[]
}

export interface RoutesManifest {
  /** Whether paths match case-sensitively (Next's default: not). */
  caseSensitive?: boolean
  headers: ManifestHeaderRule[]
  /** A plain list when next.config.ts returns one: those are after-files rewrites. */
  rewrites?: ManifestRewrites | ManifestRewrite[]
}

/** The routes manifest of the build at `distDir`. */
export function readRoutesManifest(distDir: string): RoutesManifest {
  return JSON.parse(readFileSync(path.join(distDir, 'routes-manifest.json'), 'utf8')) as RoutesManifest
}
