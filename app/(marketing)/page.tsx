import type { Metadata } from 'next'
import { JsonLd } from '@/app/_components/json-script.tsx'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { PageView } from '@/app/_components/page-view.tsx'
import { getPageModel, getPageModels, pageMetadata } from '@/lib/pages/page-model.ts'
import { homeStructuredData } from '@/lib/pages/structured-data.ts'
import { getSite } from '@/lib/site.ts'

export function generateMetadata(): Metadata {
  return pageMetadata('home')
}

export default function HomePage() {
  return (
    <PageShell path="/">
      <JsonLd data={homeStructuredData(getSite(), getPageModels())} />
      <PageView page={getPageModel('home')} />
    </PageShell>
  )
}
