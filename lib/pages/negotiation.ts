/**
 * Which representation a GET of a page path gets: its Markdown twin when `Accept` prefers Markdown
 * (lib/http/negotiate.ts, standards.md §8), else the HTML page. A Markdown-preferring request for a
 * path that names no page gets the Markdown 404. proxy.ts applies this on Next (and Vercel), and
 * npm start applies the same function to the same requests.
 */
import { MCP_PATH } from '../contract/constants.ts'
import { PROBLEMS_PATH } from '../discovery/document-paths.ts'
import { prefersMarkdown } from '../http/negotiate.ts'
import { NOT_FOUND_TWIN, pageAtPath, TWIN_ROUTE_BASE, type TwinKey } from './site-pages.ts'

/** Where pages never are: the APIs, MCP, problem types, the twins themselves and Next's assets. */
const NOT_PAGES = ['/api', MCP_PATH, PROBLEMS_PATH, TWIN_ROUTE_BASE, '/_next']

/** Page paths are `/` or non-empty segments without a dot and without a trailing slash. */
const PAGE_SHAPED = /^\/(?:[^/.]+(?:\/[^/.]+)*)?$/

/** A path that is, or could have been, a page: page-shaped and outside the trees above. */
export function isPagePath(pathname: string): boolean {
  return PAGE_SHAPED.test(pathname) && !NOT_PAGES.some((base) => pathname === base || pathname.startsWith(`${base}/`))
}

/** The twin that answers this request, or null when the HTML page (or whatever else is there) answers. */
export function negotiatedTwin(pathname: string, accept: string | null): TwinKey | null {
  if (!isPagePath(pathname) || !prefersMarkdown(accept)) return null
  return pageAtPath(pathname)?.key ?? NOT_FOUND_TWIN
}
