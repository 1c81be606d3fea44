import { SKIP_LINK_TARGET } from '@/lib/pages/navigation.ts'
import { WEBMCP_TOOLS_ELEMENT_ID } from '@/lib/routes/page-script-hooks.ts'
import { getSite } from '@/lib/site.ts'
import { getWebMcpPageTools } from '@/lib/pages/page-tools.ts'
import { AgentIndexNote } from './agent-index-note.tsx'
import { JsonData } from './json-script.tsx'
import { SiteFooter } from './site-footer.tsx'
import { SiteHeader } from './site-header.tsx'

/** Skip link, the note for AI agents, header, `<main>` and footer around every page, and its WebMCP tools for the page script to register. */
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
      <JsonData id={WEBMCP_TOOLS_ELEMENT_ID} data={getWebMcpPageTools().tools} />
    </>
  )
}
