import { notFound } from 'next/navigation'
import { editorMode } from '../env.ts'
import { EditorApp } from './editor-app.tsx'

/**
 * The visual editor's page (/keystatic and below). Its storage is decided on the server from the
 * settings (lib/env.ts) and handed to the browser as data: only the repository and the GitHub App's
 * name, never a secret.
 */
export function EditorPage() {
  const mode = editorMode()
  if (!mode) notFound()
  return mode.kind === 'github' ? (
    <EditorApp storage={{ kind: 'github', repo: mode.github.repo }} appSlug={mode.github.appSlug} />
  ) : (
    <EditorApp storage={{ kind: 'local' }} />
  )
}
