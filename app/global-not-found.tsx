import type { Metadata } from 'next'
import { Suspense } from 'react'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { PageView } from '@/app/_components/page-view.tsx'
import { SiteDocument } from '@/app/_components/site-document.tsx'
import { getPageModel } from '@/lib/pages/page-model.ts'
import { NOT_FOUND_TWIN } from '@/lib/routes/site-pages.ts'

// The site has two root layouts (its pages, and the visual editor's), so the page for URLs that name
// nothing is a whole document of its own, in the site's document. Next adds `<meta name="robots"
// content="noindex">` to every 404 itself.
export function generateMetadata(): Metadata {
  const page = getPageModel(NOT_FOUND_TWIN)
  return { title: page.documentTitle, description: page.description }
}

export default function GlobalNotFound() {
  return (
    <SiteDocument>
      <PageShell path="">
        <PageView page={getPageModel(NOT_FOUND_TWIN)} />
      </PageShell>
      {/* Under a layout, Next renders its metadata outlet as an empty boundary after the page; this one
          keeps the 404's HTML byte for byte what the site's pages and its previous 404 are. */}
      <Suspense />
    </SiteDocument>
  )
}
