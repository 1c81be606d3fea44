import { SKIP_LINK_TARGET } from '@/lib/pages/navigation.ts'
import { getContentPages } from '@/lib/pages/content-pages.ts'
import { AgentIndexNote } from './agent-index-note.tsx'
import { SiteFooter } from './site-footer.tsx'
import { SiteHeader } from './site-header.tsx'

/** Skip link, the note for AI agents, header, `<main>` and footer around every page. */
export function PageShell({ path, children }: { path: string; children: React.ReactNode }) {
  return (
    <>
      <a className="skip-link" href={`#${SKIP_LINK_TARGET}`}>
        Skip to main content
      </a>
      <AgentIndexNote />
      <SiteHeader currentPath={path} />
      <main id={SKIP_LINK_TARGET} tabIndex={-1}>
        {children}
      </main>
      <SiteFooter currentPath={path} tagline={getContentPages().home.tagline} />
    </>
  )
}
