import type { Metadata } from 'next'
import { JsonLd } from '@/app/_components/json-script.tsx'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { PageView } from '@/app/_components/page-view.tsx'
import { getPageModel, getPageModels, pageMetadata } from '@/lib/pages/page-model.ts'
import { pricingStructuredData } from '@/lib/pages/structured-data.ts'
import { getSite } from '@/lib/site.ts'

export function generateMetadata(): Metadata {
  return pageMetadata('pricing')
}

export default function PricingPage() {
  return (
    <PageShell path="/pricing">
      <JsonLd data={pricingStructuredData(getSite(), getPageModels())} />
      <PageView page={getPageModel('pricing')} />
    </PageShell>
  )
}
