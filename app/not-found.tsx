import type { Metadata } from 'next'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { PRODUCT_NAME } from '@/lib/contract/constants.ts'
import { NOT_FOUND_PAGE } from '@/lib/pages/content-pages.ts'
import { sitePage } from '@/lib/pages/site-pages.ts'

// Next adds `<meta name="robots" content="noindex">` to every 404 itself.
export const metadata: Metadata = {
  title: `${NOT_FOUND_PAGE.title} · ${PRODUCT_NAME}`,
  description: NOT_FOUND_PAGE.description,
}

export default function NotFound() {
  return (
    <PageShell path="">
      <div className="container page">
        <header className="page-header">
          <h1>{NOT_FOUND_PAGE.title}</h1>
          <p className="lead">{NOT_FOUND_PAGE.description}</p>
        </header>
        <ul className="link-list">
          <li>
            <a href={sitePage('home').path}>Go to the {PRODUCT_NAME} homepage</a>
          </li>
          <li>
            <a href={sitePage('pricing').path}>See pricing</a>
          </li>
          <li>
            <a href={sitePage('developers').path}>Developer index</a> for the public agent API
          </li>
        </ul>
      </div>
    </PageShell>
  )
}
