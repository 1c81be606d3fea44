import { answerEditorApi } from '@/lib/editor/index.ts'

/** The visual editor's API (Keystatic): lib/editor/api.ts. */
export const GET = answerEditorApi
export const POST = answerEditorApi
