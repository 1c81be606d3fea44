import type { Metadata } from 'next'
import { MarkdownHtml } from '@/app/_components/markdown-html.tsx'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { getContentPages, pageMetadata } from '@/lib/pages/content-pages.ts'

export function generateMetadata(): Metadata {
  return pageMetadata('home')
}

/** content/home.md: the intro as a hero under the tagline, each `## ` section as a band. */
export default function HomePage() {
  const page = getContentPages().home
  return (
    <PageShell path="/">
      <div className="hero">
        <div className="container prose">
          <h1>{page.heading}</h1>
          <p className="hero-tagline">{page.tagline}</p>
          <MarkdownHtml html={page.leadHtml} className="hero-lead" />
        </div>
      </div>
      {page.body.sectionsHtml.map((html) => (
        <section className="band" key={html}>
          <MarkdownHtml html={html} className="container prose" />
        </section>
      ))}
    </PageShell>
  )
}
