import { jsonLdText } from '@/lib/pages/structured-data.ts'

/** A schema.org data block; browsers do not run it, and its `<` are escaped (lib/pages/structured-data.ts). */
export function JsonLd({ data }: { data: Record<string, unknown> }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON built at build time from content/, with every `<` escaped
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />
}
