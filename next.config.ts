import type { NextConfig } from 'next'
import { writeBuildRecord } from './lib/build-record.ts'
import { loadContent } from './lib/content/parse.ts'
import { CONTENT_SNAPSHOT_FILE } from './lib/content/site-content.ts'
import { loadSettingsOrExit } from './lib/env-files.ts'
import { CACHE_CONTROL } from './lib/http/headers.ts'
import type { HeaderList } from './lib/http/header-list.ts'
import { PAGE_SECURITY_HEADERS, RESOURCE_SECURITY_HEADERS, siteWideHeaders } from './lib/http/security-headers.ts'
import { editorHeaderRules, editorPageExtensions } from './lib/editor/serving.ts'
import { PAGE_PATHS_SOURCE } from './lib/routes/page-paths.ts'
import { LEAD_THANKS_PATH } from './lib/leads/form-fields.ts'
import { pageHeaders } from './lib/pages/page-headers.ts'
import { NOT_FOUND_TWIN, SITE_PAGES, twinRoutePath } from './lib/routes/site-pages.ts'
import { buildSiteUrls } from './lib/routes/site-urls.ts'
import { buildSite } from './lib/site-model.ts'
import { PREBUNDLED_ALIASES } from './scripts/prebundled-packages.ts'

// Read at build time: every page and document is prerendered with this deployment's settings (a
// Vercel preview knows it is one, and its own URL, when it is built). npm start refuses to serve a
// build made with other settings (scripts/start.ts). Next has loaded the `.env` files by now; a wrong
// setting stops `next dev` or `next build` in one line.
const config = loadSettingsOrExit()
const urls = buildSiteUrls(config.baseUrl)

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The visual editor's route files (`*.admin.tsx`, `*.admin.ts`) are built only where there is an editor.
  pageExtensions: ['tsx', 'ts', ...editorPageExtensions(config)],
  // The site has two root layouts (its pages, the editor's): the 404 page is app/global-not-found.tsx.
  // A server loads each route when it first answers it: npm start answers most requests itself.
  experimental: { globalNotFound: true, preloadEntriesOnStart: false },
  // The agent API answers its own trailing-slash paths (404 agent_endpoint_not_found); Next's redirect must not.
  skipTrailingSlashRedirect: true,
  // This directory is the project, whatever lockfiles lie above it (tests build copies of it). zod
  // and the MCP SDK come from one-file bundles of each (scripts/prebundled-packages.ts).
  turbopack: { root: process.cwd(), resolveAlias: PREBUNDLED_ALIASES },
  outputFileTracingRoot: process.cwd(),
  // Loaded from node_modules rather than bundled: Turbopack would copy each into every route's chunks
  // (the Upstash client twice in the agent API's function). The OpenTelemetry API is the copy Next's
  // own server loads: bundled, the function would build two more (an ES module copy for lib/telemetry,
  // a CommonJS one for Next's tracer in the routes' chunks).
  serverExternalPackages: ['@opentelemetry/api', '@upstash/redis', '@upstash/ratelimit', 'flags', 'marked', 'yaml'],
  // The functions (agent API, MCP) load the content the build checked, not content/ (lib/content/load.ts).
  outputFileTracingIncludes: { '/**': [`./${CONTENT_SNAPSHOT_FILE}`] },
  compiler: {
    // The build record hashes the content the build was made from, read from content/ (not from the
    // snapshot the servers load: `next typegen` and `next build` load this file before any snapshot is
    // needed, or written). Read here rather than when this file loads, so that `next dev` starts
    // whatever state content/ is in: its visual editor is where a file broken by hand or by a merge
    // gets fixed, and its pages re-read content/ and say what is wrong.
    async runAfterProductionCompile({ distDir }) {
      writeBuildRecord(distDir, buildSite(config, loadContent()))
    },
  },
  // What every prerendered URL answers beyond its body is stated here, in the build output (the
  // routes manifest): Next and Vercel serve these rules, and npm start applies the same rules from the
  // manifest (lib/server/static-output.ts) rather than computing headers of its own.
  async headers() {
    // Pages cannot set headers themselves: both representations of a page (its HTML here, its twin at
    // the `.md` URL) get the same Vary, Link and cache policy from lib/pages/page-headers.ts.
    // The HTML also gets the page security headers (its CSP is added after the build: lib/pages/prerendered-pages.ts).
    const list = (headers: HeaderList) => headers.map(([key, value]) => ({ key, value }))
    const pages = SITE_PAGES.flatMap((page) => [
      { source: page.path, headers: list([...pageHeaders({ urls }, page.key), ...PAGE_SECURITY_HEADERS]) },
      { source: page.markdownPath, headers: list([...pageHeaders({ urls }, page.key), ...RESOURCE_SECURITY_HEADERS]) },
    ])
    const siteWide = siteWideHeaders(config)
    // Page paths that name no page get the 404 page (lib/routes/page-paths.ts): its cache policy and the
    // page set here, its CSP after the build. First, so that the rules of the pages (same header
    // names) come after it and win. Next itself answers its 404 with `private, no-store` instead.
    const notFound = { source: PAGE_PATHS_SOURCE, headers: list([['Cache-Control', CACHE_CONTROL.notFound], ...PAGE_SECURITY_HEADERS]) }
    const editorRules = editorHeaderRules(config).map(({ source, headers }) => ({ source, headers: list(headers) }))
    // The contact form's thank-you page: a page like the others, for the visitor alone (noindex, in no sitemap).
    const thanks = {
      source: LEAD_THANKS_PATH,
      headers: list([['Cache-Control', CACHE_CONTROL.page], ['X-Robots-Tag', 'noindex'], ...PAGE_SECURITY_HEADERS]),
    }
    return [notFound, ...pages, thanks, ...editorRules, ...(siteWide.length > 0 ? [{ source: '/:path*', headers: list(siteWide) }] : [])]
  },
  async rewrites() {
    return {
      beforeFiles: [],
      afterFiles: SITE_PAGES.map((page) => ({ source: page.markdownPath, destination: twinRoutePath(page.key) })),
      // Any other `.md` URL that no route serves: the Markdown 404.
      fallback: [{ source: '/:path*.md', destination: twinRoutePath(NOT_FOUND_TWIN) }],
    }
  },
}

export default nextConfig
