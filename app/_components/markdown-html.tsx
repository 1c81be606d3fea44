/** Renders HTML produced by lib/pages/markdown.ts from the trusted content/ Markdown; nothing else. */
export function MarkdownHtml({ html, className = 'prose' }: { html: string; className?: string }) {
  if (!html) return null
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML is rendered by marked from the team's own content/ files (at build time, and for the contact form's answers), never from request input
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />
}
