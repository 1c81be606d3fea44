import type { Metadata } from 'next'

export const metadata: Metadata = { title: 'Cadence site editor', robots: { index: false, follow: false } }

/**
 * Root layout of the visual editor: a document of its own that reads no content and no site settings,
 * so that a broken content file still opens in the editor, which then says what is wrong. Its files are
 * built only where the editor exists (next.config.ts `pageExtensions`, lib/env.ts `editorMode`).
 */
export default function EditorLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  )
}
