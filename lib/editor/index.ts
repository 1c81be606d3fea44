/**
 * The visual editor (Keystatic) at /keystatic, over every file under content/: its entry, which the
 * editor's routes (app/(editor)/…, app/api/keystatic/…), keystatic.config.ts and the tests import
 * (.dependency-cruiser.cjs holds it, and names the two other doors below).
 *
 *   entries.ts           the entries (one per content file) and the words the team reads for each field;
 *                        Playwright's specs, which run without a bundler, import it itself
 *   keystatic-config.ts  Keystatic's config: fields derived from the content check's zod schemas
 *   inputs.tsx           the fields' inputs, showing the content check's messages
 *   editor-page.tsx, editor-app.tsx   the page, and Keystatic's app in the browser
 *   api.ts               the API: Keystatic's route handlers behind the local editor's guard
 *   request-guard.ts     which requests the local editor refuses (Host, Origin)
 *   serving.ts           what next.config.ts and proxy.ts take from the editor (its route files, its
 *                        headers, the guard); both are in every build, so they import serving.ts
 *                        itself, which loads nothing of Keystatic or React
 *
 * Where the editor is served (/keystatic, /api/keystatic) is stated with every other route, in
 * lib/routes/editor-paths.ts; whether it exists and how it saves is a setting (lib/env.ts editorMode).
 */
export { answerEditorApi } from './api.ts'
export { EditorPage } from './editor-page.tsx'
export { EDITOR_SINGLETONS } from './entries.ts'
export { keystaticConfig } from './keystatic-config.ts'
export { localEditorRefusal } from './request-guard.ts'
