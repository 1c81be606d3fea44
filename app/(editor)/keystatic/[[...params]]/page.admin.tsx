import { EditorPage } from '@/lib/editor/index.ts'

/** The visual editor (Keystatic): lib/editor. */
export default EditorPage
