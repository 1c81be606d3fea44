import type { Metadata } from 'next'
import { MarkdownHtml } from '@/app/_components/markdown-html.tsx'
import { PageHeader } from '@/app/_components/page-header.tsx'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { PRODUCT_NAME } from '@/lib/contract/constants.ts'
import { getContentPages, pageMetadata } from '@/lib/pages/content-pages.ts'

export function generateMetadata(): Metadata {
  return pageMetadata('login')
}

/** Hands off to the product app: no form and no credentials on this site. */
export default function LoginPage() {
  const page = getContentPages().login
  return (
    <PageShell path="/login">
      <div className="container page">
        <PageHeader title={page.title} lead={page.description} />
        <MarkdownHtml html={page.body.introHtml} />
        <div className="handoff">
          <section className="card" aria-labelledby="log-in">
            <h2 id="log-in">Already have an account?</h2>
            <p>
              You will continue on the {PRODUCT_NAME} app at <strong>{page.appHost}</strong>.
            </p>
            <a className="button" href={page.loginUrl}>
              {page.loginLabel}
            </a>
          </section>
          <section className="card" id="create-account" aria-labelledby="create-account-heading">
            <h2 id="create-account-heading">New to {PRODUCT_NAME}?</h2>
            <p>
              Create your account in the {PRODUCT_NAME} app.
              {page.freePlanName ? ` The ${page.freePlanName} plan is free.` : ''}
            </p>
            <a className="button button-secondary" href={page.signupUrl}>
              {page.signupLabel}
            </a>
          </section>
        </div>
        <MarkdownHtml html={page.body.sectionsHtml.join('\n')} />
      </div>
    </PageShell>
  )
}
