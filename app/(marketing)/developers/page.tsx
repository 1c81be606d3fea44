import type { Metadata } from 'next'
import { MarkdownHtml } from '@/app/_components/markdown-html.tsx'
import { McpInstall } from '@/app/_components/mcp-install.tsx'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { buildMcpInstallLinks } from '@/lib/discovery/mcp-documents.ts'
import { getContentPages, pageMetadata } from '@/lib/pages/content-pages.ts'
import { sitePage } from '@/lib/pages/site-pages.ts'
import { getSite } from '@/lib/site.ts'

export function generateMetadata(): Metadata {
  return pageMetadata('developers')
}

/**
 * content/developers.md with the site's chrome, and after its introduction the one-click installs of
 * the MCP server; its Markdown is at /developers.md and by negotiation.
 */
export default function DevelopersPage() {
  const page = getContentPages().developers
  const site = getSite()
  return (
    <PageShell path="/developers">
      <div className="container page prose">
        <MarkdownHtml html={page.body.introHtml} className="prose developer-index" />
        <McpInstall mcpUrl={site.urls.mcp} markdownPath={sitePage('developers').markdownPath} links={buildMcpInstallLinks(site)} />
        <MarkdownHtml html={page.body.sectionsHtml.join('\n')} className="prose developer-index" />
      </div>
    </PageShell>
  )
}
