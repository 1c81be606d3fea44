/**
 * The site's pages, listed once: each page's link label, HTML path and the path of its Markdown twin. The React
 * pages, the twin route (app/md/[page]), the proxy's negotiation, next.config's headers and
 * rewrites, npm start, the sitemap and llms.txt all read this list.
 */

export const SITE_PAGES = [
  { key: 'home', label: 'Home', path: '/', markdownPath: '/index.md' },
  { key: 'pricing', label: 'Pricing', path: '/pricing', markdownPath: '/pricing.md' },
  { key: 'contact', label: 'Contact', path: '/contact', markdownPath: '/contact.md' },
  { key: 'login', label: 'Log in', path: '/login', markdownPath: '/login.md' },
  { key: 'developers', label: 'Developers', path: '/developers', markdownPath: '/developers.md' },
] as const

export type SitePage = (typeof SITE_PAGES)[number]
export type PageKey = SitePage['key']

/** Where the contact page's sales form posts (lib/leads/submission.ts): a route, not a page. */
export const LEAD_FORM_PATH = '/contact/send'

/** Where a visitor who chose a plan creates an account: the login page's create-account section. */
export const SIGNUP_PATH = '/login#create-account'

/** The Markdown answer for a path that names no page (a missing `.md`, or an agent asking for Markdown). */
export const NOT_FOUND_TWIN = 'not-found'
export type TwinKey = PageKey | typeof NOT_FOUND_TWIN
export const TWIN_KEYS: readonly TwinKey[] = [...SITE_PAGES.map((page) => page.key), NOT_FOUND_TWIN]

/**
 * The internal route every twin is prerendered at; `/pricing.md` (a rewrite) and `/pricing` asked for
 * as Markdown (the proxy) both land here, so the two answers are the same bytes.
 */
export const TWIN_ROUTE_BASE = '/md'

export function twinRoutePath(key: TwinKey): string {
  return `${TWIN_ROUTE_BASE}/${key}`
}

const BY_PATH = new Map<string, SitePage>(SITE_PAGES.map((page) => [page.path, page]))

export function pageAtPath(pathname: string): SitePage | undefined {
  return BY_PATH.get(pathname)
}

export function sitePage(key: PageKey): SitePage {
  return SITE_PAGES.find((page) => page.key === key) as SitePage
}
