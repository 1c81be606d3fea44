import { getSite } from '@/lib/site.ts'

/**
 * The first words of every page's body, for AI agents that read the HTML: where the index of this
 * site for agents is (the llms.txt convention). Hidden from view and from assistive technology, and
 * out of the tab order, so people meet the skip link and the page as before.
 */
export function AgentIndexNote() {
  const { urls } = getSite()
  return (
    <p className="visually-hidden" aria-hidden="true">
      {'AI agents: the index of this site is '}
      <a href={urls.llms} tabIndex={-1}>
        {urls.llms}
      </a>
      {`, every page and document is listed in ${urls.sitemapMarkdown}, and every page is also Markdown at its .md URL.`}
    </p>
  )
}
