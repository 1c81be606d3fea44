/**
 * Markdown → HTML for the pages, with `marked` (GFM). Input is trusted: it is the marketing team's
 * reviewed content/ with placeholders filled from the site settings. Anything else must be escaped.
 */
import { Marked } from 'marked'

const markdown = new Marked({ gfm: true, breaks: false, async: false })

export function renderMarkdown(source: string): string {
  return markdown.parse(source, { async: false }).trim()
}

/** The Markdown before the first `## ` heading (the intro) and the `## ` sections after it. */
export function splitSections(source: string): { intro: string; sections: string[] } {
  const chunks = source.split(/^(?=## )/m)
  const hasIntro = !chunks[0]?.startsWith('## ')
  const intro = hasIntro ? (chunks.shift() ?? '') : ''
  return { intro: intro.trim(), sections: chunks.map((chunk) => chunk.trim()).filter(Boolean) }
}
