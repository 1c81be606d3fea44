import type { Metadata } from 'next'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { PageView } from '@/app/_components/page-view.tsx'
import { getPageModel } from '@/lib/pages/page-model.ts'
import { NOT_FOUND_TWIN } from '@/lib/routes/site-pages.ts'

// Next adds `<meta name="robots" content="noindex">` to every 404 itself.
export function generateMetadata(): Metadata {
  const page = getPageModel(NOT_FOUND_TWIN)
  return { title: page.documentTitle, description: page.description }
}

export default function NotFound() {
  return (
    <PageShell path="">
      <PageView page={getPageModel(NOT_FOUND_TWIN)} />
    </PageShell>
  )
}
