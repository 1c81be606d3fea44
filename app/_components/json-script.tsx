import { jsonScriptText } from '@/lib/pages/structured-data.ts'

// JSON data blocks: browsers do not run them, so the pages' CSP needs no hash for them. The JSON is
// built at build time (from content/ and lib/), with every `<` escaped (lib/pages/structured-data.ts).

/** A schema.org data block. */
export function JsonLd({ data }: { data: Record<string, unknown> }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON built at build time, with every `<` escaped
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonScriptText(data) }} />
}

/** Data the page script reads by the element's id (lib/routes/page-script-hooks.ts). */
export function JsonData({ id, data }: { id: string; data: unknown }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON built at build time, with every `<` escaped
  return <script type="application/json" id={id} dangerouslySetInnerHTML={{ __html: jsonScriptText(data) }} />
}
