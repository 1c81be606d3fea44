import { SKIP_LINK_TARGET } from '@/lib/pages/navigation.ts'
import { getSite } from '@/lib/site.ts'
import { getWebMcpPageTools } from '@/lib/webmcp/page-tools.ts'
import { AgentIndexNote } from './agent-index-note.tsx'
import { SiteFooter } from './site-footer.tsx'
import { SiteHeader } from './site-header.tsx'
import { WebMcpTools } from './webmcp-tools.tsx'

/** Skip link, the note for AI agents, header, `<main>` and footer around every page, and the page's WebMCP tools. */
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
      <SiteFooter currentPath={path} tagline={getSite().content.home.data.tagline} />
      <WebMcpTools tools={getWebMcpPageTools().tools} />
    </>
  )
}
