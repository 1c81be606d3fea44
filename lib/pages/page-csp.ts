/**
 * Each prerendered page's Content-Security-Policy, added to the build after Next has rendered it:
 * the policy names the page's inline scripts by hash, which exist only once the HTML does. Next,
 * Vercel and npm start take response headers from `.next/routes-manifest.json` (where next.config.ts
 * headers() went at build time), so the policy goes there, next to the page's other headers.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pageContentSecurityPolicy } from '../http/security-headers.ts'
import type { Site } from '../site.ts'
import { NOT_FOUND_ROUTE, PAGE_PATHS_SOURCE } from '../routes/page-paths.ts'
import { SITE_PAGES } from '../routes/site-pages.ts'

interface RoutesManifest {
  headers: Array<{ source: string; headers: Array<{ key: string; value: string }> }>
}

/** Where Next writes the prerendered HTML of a page path. */
export function prerenderedHtmlPath(distDir: string, pagePath: string): string {
  return path.join(distDir, 'server', 'app', `${pagePath === '/' ? 'index' : pagePath.slice(1)}.html`)
}

export function addPageContentSecurityPolicies(distDir: string, site: Site): void {
  const manifestPath = path.join(distDir, 'routes-manifest.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as RoutesManifest
  const rules = [...SITE_PAGES.map((page) => ({ source: page.path, html: page.path })), { source: PAGE_PATHS_SOURCE, html: NOT_FOUND_ROUTE }]
  for (const { source, html } of rules) {
    const entry = manifest.headers.find((candidate) => candidate.source === source)
    if (!entry) throw new Error(`${manifestPath} has no headers for ${source}: next.config.ts headers() must list it`)
    const policy = pageContentSecurityPolicy(readFileSync(prerenderedHtmlPath(distDir, html), 'utf8'), site.config.baseUrl)
    entry.headers = [...entry.headers.filter((header) => header.key !== 'Content-Security-Policy'), { key: 'Content-Security-Policy', value: policy }]
  }
  writeFileSync(manifestPath, JSON.stringify(manifest))
}
