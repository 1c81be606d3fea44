/**
 * The build's last step on every prerendered page (npm's postbuild, which `vercel build` runs too):
 * what Next rendered, made into what the site serves.
 * - Next's client runtime goes. The pages are static HTML with every word in the markup, and React
 *   would only hydrate them again: its scripts (about 137 KB) and the inline flight data that repeats
 *   the page (four fifths of each page's bytes) cost visitors download and main-thread time for
 *   nothing they see. Their one script is the site's own module (lib/pages/page-script.ts). Next's
 *   runtime is exactly the scripts without a `type` and their preloads: the site's own scripts all
 *   declare one (`module`, `application/json`, `application/ld+json`).
 * - Each page's Content-Security-Policy names where its forms submit, so it depends on the HTML: it
 *   goes into `.next/routes-manifest.json`, next to the page's other headers, where Next, Vercel and
 *   npm start take response headers from.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pageContentSecurityPolicy } from '../http/security-headers.ts'
import type { Site } from '../site.ts'
import { NOT_FOUND_ROUTE, PAGE_PATHS_SOURCE } from '../routes/page-paths.ts'
import { LEAD_FORM_PATH, SITE_PAGES, sitePage } from '../routes/site-pages.ts'
import { LEAD_THANKS_PATH } from '../leads/form-fields.ts'

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
export function prerenderedHtmlPath(distDir: string, pagePath: string): string {
  return path.join(distDir, 'server', 'app', `${pagePath === '/' ? 'index' : pagePath.slice(1)}.html`)
}

export function finishPrerenderedPages(distDir: string, site: Site): void {
  const manifestPath = path.join(distDir, 'routes-manifest.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as RoutesManifest
  const rules = [
    ...SITE_PAGES.map((page) => ({ source: page.path, html: page.path })),
    { source: LEAD_THANKS_PATH, html: LEAD_THANKS_PATH },
    { source: PAGE_PATHS_SOURCE, html: NOT_FOUND_ROUTE },
  ]
  for (const { source, html } of rules) {
    const entry = manifest.headers.find((candidate) => candidate.source === source)
    if (!entry) throw new Error(`${manifestPath} has no headers for ${source}: next.config.ts headers() must list it`)
    const htmlPath = prerenderedHtmlPath(distDir, html)
    const page = withoutClientRuntime(readFileSync(htmlPath, 'utf8'))
    writeFileSync(htmlPath, page)
    const policy = pageContentSecurityPolicy(page, site.config.baseUrl)
    entry.headers = [...entry.headers.filter((header) => header.key !== 'Content-Security-Policy'), { key: 'Content-Security-Policy', value: policy }]
  }
  writeFileSync(manifestPath, JSON.stringify(manifest))
  traceContactPageIntoFormRoute(distDir)
}

interface FileTrace {
  files: string[]
}

/**
 * The contact form's route answers with the prerendered contact page, filled in (lib/leads/form-page.ts).
 * Next traces each function's files while it is still prerendering, so the page cannot be named in
 * next.config's outputFileTracingIncludes: it is added to the route's trace here, once it exists, for
 * Vercel to pack into the route's function (npm start and next start read it from `.next` as it is).
 */
export function traceContactPageIntoFormRoute(distDir: string): void {
  const routes = JSON.parse(readFileSync(path.join(distDir, 'server', 'app-paths-manifest.json'), 'utf8')) as Record<string, string>
  const entry = Object.entries(routes).find(([route]) => route.replace(/\/\([^/]+\)/g, '').replace(/\/route$/, '') === LEAD_FORM_PATH)
  if (!entry) throw new Error(`${distDir}: no route for ${LEAD_FORM_PATH} in app-paths-manifest.json`)
  const tracePath = path.join(distDir, 'server', `${entry[1]}.nft.json`)
  const trace = JSON.parse(readFileSync(tracePath, 'utf8')) as FileTrace
  const page = path.relative(path.dirname(tracePath), prerenderedHtmlPath(distDir, sitePage('contact').path))
  if (!trace.files.includes(page)) trace.files.push(page)
  writeFileSync(tracePath, JSON.stringify(trace))
}
