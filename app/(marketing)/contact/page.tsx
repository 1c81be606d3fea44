import type { Metadata } from 'next'
import { MarkdownHtml } from '@/app/_components/markdown-html.tsx'
import { PageHeader } from '@/app/_components/page-header.tsx'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { getContentPages, pageMetadata } from '@/lib/pages/content-pages.ts'

export function generateMetadata(): Metadata {
  return pageMetadata('contact')
}

export default function ContactPage() {
  const page = getContentPages().contact
  return (
    <PageShell path="/contact">
      <div className="container page">
        <PageHeader title={page.title} lead={page.description} />
        <div className="page-columns">
          <section className="card contact-card" aria-labelledby="contact-email">
            <h2 id="contact-email">Email us</h2>
            <p className="contact-address">
              <a href={page.mailto}>{page.email}</a>
            </p>
            <p>{page.responseTime}</p>
          </section>
          <div>
            <MarkdownHtml html={page.body.introHtml} />
            <MarkdownHtml html={page.body.sectionsHtml.join('\n')} />
          </div>
        </div>
      </div>
    </PageShell>
  )
}
