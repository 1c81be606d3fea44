import { NavList } from './nav-list.tsx'
import { PRODUCT_NAME } from '@/lib/contract/constants.ts'
import { headerLinks } from '@/lib/pages/navigation.ts'

export function SiteHeader({ currentPath }: { currentPath: string }) {
  return (
    <header className="site-header">
      <div className="container header-inner">
        <a className="brand" href="/">
          {PRODUCT_NAME}
        </a>
        <nav className="site-nav" aria-label="Main">
          <NavList links={headerLinks()} currentPath={currentPath} />
        </nav>
      </div>
    </header>
  )
}
