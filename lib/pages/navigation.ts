/**
 * The site chrome's links, defined once: the React layout (app/_components) and the HTML homepage
 * template (lib/pages/html.ts) both render these lists, so every page has the same header and footer.
 */
import type { SiteUrls } from '../site-urls.ts'

export interface NavLink {
  label: string
  href: string
  /** The page path this link marks as current (`aria-current="page"`), if it points at a page. */
  path?: string
}

/** Header navigation: the visitor's next steps, then the developer entry point. */
export function headerLinks(urls: SiteUrls): NavLink[] {
  return [
    { label: 'Pricing', href: urls.pricing, path: '/pricing' },
    { label: 'Contact', href: urls.contact, path: '/contact' },
    { label: 'Log in', href: urls.login, path: '/login' },
    { label: 'Developers', href: urls.developers },
  ]
}

/** Footer groups: the product pages and the machine-readable entry points for agents. */
export function footerGroups(urls: SiteUrls): Array<{ heading: string; links: NavLink[] }> {
  return [
    {
      heading: 'Product',
      links: [
        { label: 'Home', href: urls.home, path: '/' },
        { label: 'Pricing', href: urls.pricing, path: '/pricing' },
        { label: 'Contact', href: urls.contact, path: '/contact' },
        { label: 'Log in', href: urls.login, path: '/login' },
      ],
    },
    {
      heading: 'Developers and agents',
      links: [
        { label: 'Developer index', href: urls.developers },
        { label: 'OpenAPI description', href: urls.openapi },
        { label: 'MCP server card', href: urls.mcpServerCard },
        { label: 'llms.txt', href: urls.llms },
      ],
    },
  ]
}

export const SKIP_LINK_TARGET = 'main'
export const STYLESHEET_PATH = '/site.css'
