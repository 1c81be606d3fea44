/**
 * Security headers, fitted to what each answer is. Pages get a strict Content-Security-Policy whose
 * only script source is the site's own files: the pages hold no inline script (the build removes
 * Next's, lib/pages/prerendered-pages.ts), so no 'unsafe-inline', no hash, no nonce, and the page
 * stays static. Everything else (the agent API, MCP, documents, Markdown) is data, never a document to
 * render: it gets the API set, `default-src 'none'` and no framing, while CORS keeps it readable.
 */
import type { HeaderList } from './header-list.ts'

/** Two years, the preload list's expectation; no includeSubDomains: other hosts of the domain are not ours to pin. */
const HSTS = 'max-age=63072000'

/**
 * Powerful features no page of this site uses. WebMCP's `tools` is left out on purpose: its default
 * allowlist is 'self', which is what the pages need to register their tools, and naming it makes
 * browsers outside its origin trial log a warning on every page.
 */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()'

/**
 * Data answers: nothing to load, nothing to frame, readable cross-origin (CORS is set beside these).
 * The same header names as the page set, so that where a page path answers Markdown (negotiation
 * under Next, whose next.config headers for the path and the twin's own headers merge) these values
 * replace the page's rather than mixing with them.
 */
export const RESOURCE_SECURITY_HEADERS: HeaderList = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
  ['Permissions-Policy', PERMISSIONS_POLICY],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'cross-origin'],
]

/** An HTML page's headers but its CSP, which depends on where the page's forms submit (pageContentSecurityPolicy). */
export const PAGE_SECURITY_HEADERS: HeaderList = [
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['Permissions-Policy', PERMISSIONS_POLICY],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
]

const isHttps = (baseUrl: string) => baseUrl.startsWith('https:')

/**
 * Headers of every answer of the deployment, whatever serves it (next.config.ts for Next and Vercel,
 * scripts/start.ts for npm start): HSTS where the site is https, and a preview's noindex.
 */
export function siteWideHeaders(config: { baseUrl: string; noindex: boolean }): HeaderList {
  return [
    ...(isHttps(config.baseUrl) ? [['Strict-Transport-Security', HSTS] as const] : []),
    ...(config.noindex ? [['X-Robots-Tag', 'noindex'] as const] : []),
  ]
}

/**
 * The CSP of one prerendered page: its own files only ('self': /site.css, /site.js, images), no
 * inline script (the pages have none: lib/pages/prerendered-pages.ts), no plugins, no base URL
 * changes, forms only to the site and to the other origins the page's own forms go to (its page model
 * says which: lib/pages/page-model.ts `formActionOrigins`), never framed.
 */
export function pageContentSecurityPolicy(formActionOrigins: readonly string[], baseUrl: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    ["form-action 'self'", ...formActionOrigins].join(' '),
    "frame-ancestors 'none'",
    ...(isHttps(baseUrl) ? ['upgrade-insecure-requests'] : []),
  ].join('; ')
}
