import { CONTENT_TYPES } from '@/lib/http/headers.ts'
import { STYLESHEET_PATH } from '@/lib/pages/navigation.ts'
import { getSite } from '@/lib/site.ts'

/**
 * Root layout of every page: the stylesheet and the AI Catalog (ARD's HTML discovery, beside the
 * `Link` header); each page sets its own metadata (lib/pages/page-model.ts).
 */
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        <link rel="ai-catalog" href={getSite().urls.aiCatalog} type={CONTENT_TYPES.aiCatalog} />
      </head>
      <body>{children}</body>
    </html>
  )
}
