import { CONTENT_TYPES } from '@/lib/http/headers.ts'
import { STYLESHEET_PATH } from '@/lib/pages/navigation.ts'
import { PAGE_SCRIPT_PATH } from '@/lib/routes/page-script-hooks.ts'
import { getSite } from '@/lib/site.ts'

/**
 * The HTML document of every page of the site: the stylesheet, the page script (a module, so it never
 * blocks rendering; lib/pages/page-script.ts) and the AI Catalog (ARD's HTML discovery, beside the
 * `Link` header); each page sets its own metadata (lib/pages/page-model.ts). It is the root layout of
 * the site's pages (app/(marketing)/layout.tsx) and of its 404 page (app/global-not-found.tsx); the
 * visual editor has a root layout of its own, which reads no content (app/(editor)/layout.admin.tsx).
 * Under Next, the page's metadata fills the rest of the head; a document rendered outside Next (the
 * contact form's answers, ./contact-answer.tsx) brings its own in `head`.
 */
export function SiteDocument({ children, head }: { children: React.ReactNode; head?: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        {head}
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        <script type="module" src={PAGE_SCRIPT_PATH} />
        <link rel="ai-catalog" href={getSite().urls.aiCatalog} type={CONTENT_TYPES.aiCatalog} />
      </head>
      <body>{children}</body>
    </html>
  )
}
