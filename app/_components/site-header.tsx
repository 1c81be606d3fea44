import { PRODUCT_NAME } from '@/lib/contract/constants.ts'
import { headerLinks } from '@/lib/pages/navigation.ts'
import type { SiteUrls } from '@/lib/site-urls.ts'

/** Same markup as renderSiteHeader in lib/pages/html.ts (the HTML homepage); tests compare them. */
export function SiteHeader({ urls, currentPath }: { urls: SiteUrls; currentPath: string }) {
  return (
    <header className="site-header">
      <div className="container header-inner">
        <a className="brand" href={urls.home}>
          {PRODUCT_NAME}
        </a>
        <nav className="site-nav" aria-label="Main">
          <ul>
            {headerLinks(urls).map((link) => (
              <li key={link.href}>
                <a href={link.href} aria-current={link.path === currentPath ? 'page' : undefined}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  )
}
