import { CONTENT_TYPES } from '@/lib/http/headers.ts'
import { STYLESHEET_PATH } from '@/lib/pages/navigation.ts'
import { PAGE_SCRIPT_PATH } from '@/lib/pages/page-script-hooks.ts'
import { getSite } from '@/lib/site.ts'

/**
 * Root layout of every page: the stylesheet, the page script (a module, so it never blocks rendering;
 * lib/pages/page-script.ts) and the AI Catalog (ARD's HTML discovery, beside the `Link` header); each
 * page sets its own metadata (lib/pages/page-model.ts).
 */
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        <script type="module" src={PAGE_SCRIPT_PATH} />
        <link rel="ai-catalog" href={getSite().urls.aiCatalog} type={CONTENT_TYPES.aiCatalog} />
      </head>
      <body>{children}</body>
    </html>
  )
}
