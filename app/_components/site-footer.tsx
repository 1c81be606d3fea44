import { NavList } from './nav-list.tsx'
import { PRODUCT_NAME } from '@/lib/contract/constants.ts'
import { footerGroups } from '@/lib/pages/navigation.ts'

export function SiteFooter({ currentPath, tagline }: { currentPath: string; tagline: string }) {
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <div className="footer-brand">
          <p className="footer-name">{PRODUCT_NAME}</p>
          <p>{tagline}</p>
        </div>
        <nav className="footer-nav" aria-label="Footer">
          {footerGroups().map((group) => (
            <div className="footer-group" key={group.heading}>
              <h2 className="footer-heading">{group.heading}</h2>
              <NavList links={group.links} currentPath={currentPath} />
            </div>
          ))}
        </nav>
      </div>
    </footer>
  )
}
