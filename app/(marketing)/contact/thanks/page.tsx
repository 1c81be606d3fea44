import type { Metadata } from 'next'
import { PageHeader } from '@/app/_components/page-header.tsx'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { LEAD_THANKS_PATH } from '@/lib/leads/form-fields.ts'
import { sitePage } from '@/lib/routes/site-pages.ts'
import { getSite } from '@/lib/site.ts'

/** Where the contact form's good submissions land (303): for the visitor alone, so in no index or sitemap. */
export function generateMetadata(): Metadata {
  const { thanks } = getSite().content.contact.data.salesForm
  return { title: thanks.title, description: thanks.text, robots: { index: false, follow: true } }
}

export default function ContactThanksPage() {
  const { contact } = getSite().content
  const { thanks } = contact.data.salesForm
  return (
    <PageShell path={LEAD_THANKS_PATH}>
      <div className="container page">
        <PageHeader title={thanks.title} lead={thanks.text} />
        <p>
          <a className="button button-secondary" href={sitePage('contact').path}>
            {thanks.backLabel}
          </a>
        </p>
      </div>
    </PageShell>
  )
}
