/**
 * What is a page, stated once: the paths that are, or could have been, a page. A page path that names
 * no page is answered with the 404 page (HTML, or the Markdown 404 when Markdown is preferred). The
 * same pattern is the source of the 404 page's header rule in next.config.ts (so Next and Vercel give
 * those paths the page headers) and the test `isPagePath` that the negotiation (proxy.ts) and
 * npm start apply.
 */
import { API_BASE_PATH, MCP_PATH } from '../contract/constants.ts'
import { PROBLEMS_PATH } from './document-paths.ts'
import { EDITOR_PATH } from './editor-paths.ts'
import { LEAD_FORM_PATH, TWIN_ROUTE_BASE } from './site-pages.ts'

/** Where Next prerenders app/global-not-found.tsx, the HTML answer for paths that name nothing. */
export const NOT_FOUND_ROUTE = '/_not-found'

const firstSegment = (path: string) => path.split('/')[1] as string

/** Routes that answer at their own path and below: the agent API, MCP and the visual editor. */
const ROUTE_TREES = [firstSegment(API_BASE_PATH), firstSegment(MCP_PATH), firstSegment(EDITOR_PATH)].map(RegExp.escape)
/** Single routes among the pages' paths, whose answers are their own: the contact form's posts. */
const ROUTE_PATHS = [LEAD_FORM_PATH.slice(1)].map(RegExp.escape)
/** Trees whose paths are never pages (problem types, the twin route, Next's files); their bare name is a missing page. */
const NON_PAGE_TREES = [firstSegment(PROBLEMS_PATH), firstSegment(TWIN_ROUTE_BASE), '_next'].map(RegExp.escape)

/**
 * A page path without its leading `/`: non-empty segments without a dot (documents and files have
 * one), no trailing slash, outside the trees above. A path-to-regexp parameter pattern (no capturing
 * group), so that Next compiles it into the same regular expression as `isPagePath`.
 */
const PAGE_PATH_PATTERN = `(?!(?:${ROUTE_TREES.join('|')})(?:/|$)|(?:${ROUTE_PATHS.join('|')})$|(?:${NON_PAGE_TREES.join('|')})/)[^/.]+(?:/[^/.]+)*`

/** The header rule source (path-to-regexp, as next.config headers() takes it) of every page path, `/` included. */
export const PAGE_PATHS_SOURCE = `/:path(${PAGE_PATH_PATTERN})?`

/** Case-insensitive, as Next and Vercel match header rules (routes-manifest `caseSensitive: false`). */
const PAGE_PATH = new RegExp(`^/(?:${PAGE_PATH_PATTERN})?$`, 'i')

/** A path that is, or could have been, a page. */
export function isPagePath(pathname: string): boolean {
  return PAGE_PATH.test(pathname)
}
