import type { LeadFormState } from '@/lib/leads/form-view.ts'
import { getPageModel } from '@/lib/pages/page-model.ts'
import { sitePage } from '@/lib/routes/site-pages.ts'
import { PageShell } from './page-shell.tsx'
import { PageView } from './page-view.tsx'
import { SiteDocument } from './site-document.tsx'

/**
 * The contact page as the form's route answers it (a mistake, a limit, an outage, a refusal): the
 * page's own components, the sales form showing `form`, rendered to HTML here rather than by Next,
 * whose pages answer GET with one status. The head carries what the page's metadata gives its
 * prerendered twin and an answer needs: the character set, viewport, title and description; and it is
 * kept out of indexes.
 */
export async function renderContactAnswer(form: LeadFormState): Promise<string> {
  // Loaded when first needed, and dynamically: Next refuses a static import of react-dom/server in the
  // App Router's server code (it steers pages to Server Components), and a route's answer needs one.
  const { renderToStaticMarkup } = await import('react-dom/server')
  const page = getPageModel('contact')
  const head = (
    <>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{page.documentTitle}</title>
      <meta name="description" content={page.description} />
      <meta name="robots" content="noindex" />
    </>
  )
  return `<!DOCTYPE html>${renderToStaticMarkup(
    <SiteDocument head={head}>
      <PageShell path={sitePage('contact').path}>
        <PageView page={page} leadForm={form} />
      </PageShell>
    </SiteDocument>,
  )}`
}
