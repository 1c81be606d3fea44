import type { Metadata } from 'next'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { PageView } from '@/app/_components/page-view.tsx'
import { getPageModel, pageMetadata } from '@/lib/pages/page-model.ts'

export function generateMetadata(): Metadata {
  return pageMetadata('contact')
}

export default function ContactPage() {
  return (
    <PageShell path="/contact">
      <PageView page={getPageModel('contact')} />
    </PageShell>
  )
}
