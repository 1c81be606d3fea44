import type { Metadata } from 'next'
import { ExecutionLoop } from '@/app/_components/execution-loop.tsx'
import { JsonLd } from '@/app/_components/json-ld.tsx'
import { MarkdownHtml } from '@/app/_components/markdown-html.tsx'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { SignupForm } from '@/app/_components/signup-form.tsx'
import { getContentPages, pageMetadata } from '@/lib/pages/content-pages.ts'
import { homeStructuredData } from '@/lib/pages/structured-data.ts'
import { getSite } from '@/lib/site.ts'
import { getWebMcpPageTools } from '@/lib/webmcp/page-tools.ts'

export function generateMetadata(): Metadata {
  return pageMetadata('home')
}

/** content/home.md: the intro as a hero under the tagline, each `## ` section as a band, then the sign-up form. */
export default function HomePage() {
  const page = getContentPages().home
  return (
    <PageShell path="/">
      <JsonLd data={homeStructuredData(getSite(), getContentPages())} />
      <div className="hero">
        <div className="container hero-grid">
          <div className="prose">
            <h1>{page.heading}</h1>
            <p className="hero-tagline">{page.tagline}</p>
            <MarkdownHtml html={page.leadHtml} className="hero-lead" />
            <p className="hero-actions">
              <a className="button" href={page.startHref}>
                {page.startLabel}
              </a>
              <a className="button button-secondary" href={page.pricingHref}>
                {page.pricingLabel}
              </a>
            </p>
          </div>
          <ExecutionLoop steps={page.loop} />
        </div>
      </div>
      {page.body.sectionsHtml.map((html) => (
        <section className="band" key={html}>
          <MarkdownHtml html={html} className="container prose" />
        </section>
      ))}
      <section className="band" aria-label="Sign up">
        <div className="container">
          <SignupForm form={getWebMcpPageTools().signupForm} />
        </div>
      </section>
    </PageShell>
  )
}
