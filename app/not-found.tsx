import type { Metadata } from 'next'
import { connection } from 'next/server'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { PRODUCT_NAME } from '@/lib/contract/constants.ts'
import { getSite } from '@/lib/site.ts'

// Next adds `<meta name="robots" content="noindex">` to every 404 itself.
export const metadata: Metadata = {
  title: `Page not found · ${PRODUCT_NAME}`,
}

export default async function NotFound() {
  // Render per request: the links come from the run-time base URL, not the build machine's.
  await connection()
  const { urls } = getSite()
  return (
    <PageShell path="">
      <div className="container page">
        <header className="page-header">
          <h1>Page not found</h1>
          <p className="lead">There is no page at this address. It may have moved, or the link may be mistyped.</p>
        </header>
        <ul className="link-list">
          <li>
            <a href={urls.home}>Go to the {PRODUCT_NAME} homepage</a>
          </li>
          <li>
            <a href={urls.pricing}>See pricing</a>
          </li>
          <li>
            <a href={urls.developers}>Developer index</a> for the public agent API
          </li>
        </ul>
      </div>
    </PageShell>
  )
}
