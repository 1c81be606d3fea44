import { NavList } from './nav-list.tsx'
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
          <NavList links={headerLinks(urls)} currentPath={currentPath} />
        </nav>
      </div>
    </header>
  )
}
