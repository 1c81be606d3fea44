import type { Metadata } from 'next'
import { MarkdownHtml } from '@/app/_components/markdown-html.tsx'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { getContentPages, pageMetadata } from '@/lib/pages/content-pages.ts'

export function generateMetadata(): Metadata {
  return pageMetadata('developers')
}

/** content/developers.md with the site's chrome; its Markdown is at /developers.md and by negotiation. */
export default function DevelopersPage() {
  const page = getContentPages().developers
  return (
    <PageShell path="/developers">
      <div className="container page prose">
        <MarkdownHtml html={[page.body.introHtml, ...page.body.sectionsHtml].join('\n')} className="prose developer-index" />
      </div>
    </PageShell>
  )
}
