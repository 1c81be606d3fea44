/**
 * Markdown → HTML for the pages, with `marked` (GFM). Input is trusted: it is the marketing team's
 * reviewed content/ with placeholders filled from the site settings. Anything else must be escaped.
 */
import { Marked, type Token } from 'marked'

const markdown = new Marked({ gfm: true, breaks: false, async: false })

/**
 * HTML of a page's Markdown. Links to the site itself (`{{base_url}}/pricing`, absolute in the
 * Markdown twins, which agents read out of context) become root-relative, as every other link
 * between the pages is, so the HTML works on whatever host serves it.
 */
export function renderMarkdown(source: string, baseUrl: string): string {
  const walkTokens = (token: Token) => {
    if (token.type === 'link' && (token.href === baseUrl || token.href.startsWith(`${baseUrl}/`) || token.href.startsWith(`${baseUrl}#`))) {
      const rest = token.href.slice(baseUrl.length)
      token.href = rest.startsWith('/') ? rest : `/${rest}`
    }
  }
  return markdown.parse(source, { async: false, walkTokens }).trim()
}

/** The Markdown before the first `## ` heading (the intro) and the `## ` sections after it. */
export function splitSections(source: string): { intro: string; sections: string[] } {
  const chunks = source.split(/^(?=## )/m)
  const hasIntro = !chunks[0]?.startsWith('## ')
  const intro = hasIntro ? (chunks.shift() ?? '') : ''
  return { intro: intro.trim(), sections: chunks.map((chunk) => chunk.trim()).filter(Boolean) }
}
