import type { Metadata } from 'next'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { PageView } from '@/app/_components/page-view.tsx'
import { getPageModel, pageMetadata } from '@/lib/pages/page-model.ts'

export function generateMetadata(): Metadata {
  return pageMetadata('login')
}

export default function LoginPage() {
  return (
    <PageShell path="/login">
      <PageView page={getPageModel('login')} />
    </PageShell>
  )
}
