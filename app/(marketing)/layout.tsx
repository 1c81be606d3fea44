import { SiteDocument } from '@/app/_components/site-document.tsx'

/** Root layout of the site's pages (the visual editor has its own: app/(editor)/layout.admin.tsx). */
export default function SiteLayout({ children }: { children: React.ReactNode }) {
  return <SiteDocument>{children}</SiteDocument>
}
