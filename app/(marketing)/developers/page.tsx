import type { Metadata } from 'next'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { PageView } from '@/app/_components/page-view.tsx'
import { getPageModel, pageMetadata } from '@/lib/pages/page-model.ts'

export function generateMetadata(): Metadata {
  return pageMetadata('developers')
}

export default function DevelopersPage() {
  return (
    <PageShell path="/developers">
      <PageView page={getPageModel('developers')} />
    </PageShell>
  )
}
