import { SKIP_LINK_TARGET } from '@/lib/pages/navigation.ts'
import { getSite } from '@/lib/site.ts'
import { SiteFooter } from './site-footer.tsx'
import { SiteHeader } from './site-header.tsx'

/** Skip link, header, `<main>` and footer around a page: the chrome the HTML homepage repeats as a string. */
export function PageShell({ path, children }: { path: string; children: React.ReactNode }) {
  const { urls, content } = getSite()
  return (
    <>
      <a className="skip-link" href={`#${SKIP_LINK_TARGET}`}>
        Skip to main content
      </a>
      <SiteHeader urls={urls} currentPath={path} />
      <main id={SKIP_LINK_TARGET} tabIndex={-1}>
        {children}
      </main>
      <SiteFooter urls={urls} currentPath={path} tagline={content.home.data.tagline} />
    </>
  )
}
