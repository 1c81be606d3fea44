/** Renders HTML produced by lib/pages/markdown.ts from the trusted content/ Markdown; nothing else. */
export function MarkdownHtml({ html, className = 'prose' }: { html: string; className?: string }) {
  if (!html) return null
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />
}
