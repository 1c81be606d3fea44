'use client'
import { Keystatic } from '@keystatic/core/ui'
import { useMemo } from 'react'
import { type EditorStorage, keystaticConfig } from './keystatic-config.ts'

/** Keystatic's admin app, built in the browser from keystatic-config.ts for the storage the server chose. */
export function EditorApp({ storage, appSlug }: { storage: EditorStorage; appSlug?: string }) {
  const config = useMemo(() => keystaticConfig(storage), [storage])
  return <Keystatic config={config} appSlug={{ envName: 'NEXT_PUBLIC_KEYSTATIC_GITHUB_APP_SLUG', value: appSlug }} />
}
