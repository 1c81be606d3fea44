/**
 * Keystatic's config where Keystatic's tools look for it: the local editor's (lib/editor). The site
 * builds its own per mode (lib/editor/editor-page.tsx, lib/editor/api.ts).
 */
import { keystaticConfig } from './lib/editor/index.ts'

export default keystaticConfig({ kind: 'local' })
