/**
 * The build's last step on every prerendered page (npm's postbuild, which `vercel build` runs too):
 * what Next rendered, made into what the site serves.
 * - Next's client runtime goes. The pages are static HTML with every word in the markup, and React
 *   would only hydrate them again: its scripts (about 137 KB) and the inline flight data that repeats
 *   the page (four fifths of each page's bytes) cost visitors download and main-thread time for
 *   nothing they see. Their one script is the site's own module (lib/pages/page-script.ts). Next's
 *   runtime is exactly the scripts without a `type` and their preloads: the site's own scripts all
 *   declare one (`module`, `application/json`, `application/ld+json`).
 * - Each page's Content-Security-Policy names where its forms submit (its page model says), so it is
 *   written per page into `.next/routes-manifest.json`, next to the page's other headers, where Next,
 *   Vercel and npm start take response headers from.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pageContentSecurityPolicy } from '../http/security-headers.ts'
import type { Site } from '../site.ts'
import { NOT_FOUND_ROUTE, PAGE_PATHS_SOURCE } from '../routes/page-paths.ts'
import { NOT_FOUND_TWIN, SITE_PAGES } from '../routes/site-pages.ts'
import { LEAD_THANKS_PATH } from '../leads/form-fields.ts'
import { buildPageModels, formActionOrigins, type PageModel } from './page-model.ts'

interface RoutesManifest {
  headers: Array<{ source: string; headers: Array<{ key: string; value: string }> }>
}

const UNTYPED_SCRIPT = /<script(?![^>]*\stype=)[^>]*>[\s\S]*?<\/script>/g
const SCRIPT_PRELOAD = /<link(?=[^>]*\sas="script")[^>]*>/g

/** The page's HTML without Next's client runtime: no untyped script, no script preload. */
export function withoutClientRuntime(html: string): string {
  return html.replace(UNTYPED_SCRIPT, '').replace(SCRIPT_PRELOAD, '')
}

/** Where Next writes the prerendered HTML of a page path. */
function prerenderedHtmlPath(distDir: string, pagePath: string): string {
  return path.join(distDir, 'server', 'app', `${pagePath === '/' ? 'index' : pagePath.slice(1)}.html`)
}

export function finishPrerenderedPages(distDir: string, site: Site): void {
  const manifestPath = path.join(distDir, 'routes-manifest.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as RoutesManifest
  const models = buildPageModels(site)
  const rules: Array<{ source: string; html: string; model: PageModel | null }> = [
    ...SITE_PAGES.map((page) => ({ source: page.path, html: page.path, model: models[page.key] })),
    { source: LEAD_THANKS_PATH, html: LEAD_THANKS_PATH, model: null },
    { source: PAGE_PATHS_SOURCE, html: NOT_FOUND_ROUTE, model: models[NOT_FOUND_TWIN] },
  ]
  for (const { source, html, model } of rules) {
    const entry = manifest.headers.find((candidate) => candidate.source === source)
    if (!entry) throw new Error(`${manifestPath} has no headers for ${source}: next.config.ts headers() must list it`)
    const htmlPath = prerenderedHtmlPath(distDir, html)
    const page = withoutClientRuntime(readFileSync(htmlPath, 'utf8'))
    writeFileSync(htmlPath, page)
    const policy = pageContentSecurityPolicy(formActionOrigins(model, site.config.appUrl), site.config.baseUrl)
    entry.headers = [...entry.headers.filter((header) => header.key !== 'Content-Security-Policy'), { key: 'Content-Security-Policy', value: policy }]
  }
  writeFileSync(manifestPath, JSON.stringify(manifest))
}
