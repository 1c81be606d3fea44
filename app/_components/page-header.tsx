/** A page's title and lead paragraph, from its frontmatter. */
export function PageHeader({ title, lead }: { title: string; lead: string }) {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      <p className="lead">{lead}</p>
    </header>
  )
}
