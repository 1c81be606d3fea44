/**
 * Which representation a GET of a page path gets: its Markdown twin when `Accept` prefers Markdown
 * (lib/http/negotiate.ts, standards.md §8), else the HTML page. A Markdown-preferring request for a
 * path that names no page gets the Markdown 404. proxy.ts applies this on Next (and Vercel), and
 * npm start applies the same function to the same requests.
 */
import { prefersMarkdown } from '../http/negotiate.ts'
import { isPagePath } from '../routes/page-paths.ts'
import { NOT_FOUND_TWIN, pageAtPath, type TwinKey } from '../routes/site-pages.ts'

/** The twin that answers this request, or null when the HTML page (or whatever else is there) answers. */
export function negotiatedTwin(pathname: string, accept: string | null): TwinKey | null {
  if (!isPagePath(pathname) || !prefersMarkdown(accept)) return null
  return pageAtPath(pathname)?.key ?? NOT_FOUND_TWIN
}
