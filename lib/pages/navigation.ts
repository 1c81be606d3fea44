/**
 * The site chrome's links, defined once for the header and footer of every page. Links between the
 * site's own pages are root-relative, so a page works on whatever host serves it; the absolute
 * canonical URL of each page is in its metadata (lib/pages/page-model.ts).
 */
import { DOCUMENT_PATHS } from '../routes/document-paths.ts'
import { type PageKey, SITE_PAGES, sitePage } from '../routes/site-pages.ts'

export interface NavLink {
  label: string
  href: string
  /** The page path this link marks as current (`aria-current="page"`), if it points at a page. */
  path?: string
}

const page = (key: PageKey): NavLink => ({ label: sitePage(key).label, href: sitePage(key).path, path: sitePage(key).path })

/** Header navigation: the visitor's next steps, then the developer entry point. */
export function headerLinks(): NavLink[] {
  return [page('pricing'), page('contact'), page('login'), page('developers')]
}

/** Footer groups: the product pages and the machine-readable entry points for agents. */
export function footerGroups(): Array<{ heading: string; links: NavLink[] }> {
  return [
    {
      heading: 'Product',
      links: SITE_PAGES.filter((entry) => entry.key !== 'developers').map((entry) => page(entry.key)),
    },
    {
      heading: 'Developers and agents',
      links: [
        { label: 'Developer index', href: sitePage('developers').path },
        { label: 'OpenAPI description', href: DOCUMENT_PATHS.openapi },
        { label: 'MCP server card', href: DOCUMENT_PATHS.mcpServerCard },
        { label: 'llms.txt', href: DOCUMENT_PATHS.llms },
      ],
    },
  ]
}

export const SKIP_LINK_TARGET = 'main'
export const STYLESHEET_PATH = '/site.css'
