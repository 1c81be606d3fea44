/**
 * What the site's own configuration (next.config.ts) and proxy (proxy.ts) take from the visual
 * editor: which route files are built, the editor's headers, and which requests the local editor
 * refuses. Both are in every build, so this loads nothing of Keystatic or React; the editor itself
 * is index.ts.
 */
import { contentReloadsOnEdit, editorMode, getConfig, type SiteConfig } from '../env.ts'
import type { HeaderList } from '../http/header-list.ts'
import type { HttpAnswer } from '../http/http-answer.ts'
import { PERMISSIONS_POLICY } from '../http/security-headers.ts'
import { EDITOR_API_PATH, EDITOR_PATH } from '../routes/editor-paths.ts'
import { localEditorRefusal } from './request-guard.ts'

/**
 * The extensions of the editor's route files (`*.admin.tsx`, `*.admin.ts`), which Next builds only
 * where there is an editor (`next dev`, or the GitHub settings set: lib/env.ts editorMode). Elsewhere
 * (`npm start`, a Vercel build without them) /keystatic and /api/keystatic do not exist: 404, and no
 * editor code shipped.
 */
export function editorPageExtensions(config: SiteConfig): string[] {
  return editorMode(config) ? ['admin.tsx', 'admin.ts'] : []
}

/**
 * The editor's headers (/keystatic and its API): never indexed, never framed, never cached.
 * Keystatic renders with inline scripts (Next's hydration data) and inline styles, and in GitHub mode
 * its browser app talks to GitHub's API and shows GitHub avatars; `next dev` adds eval and its
 * WebSocket for hot reloading. The pages' own policy (lib/http/security-headers.ts) is not touched.
 */
function editorSecurityHeaders(dev: boolean): HeaderList {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https://avatars.githubusercontent.com",
    "font-src 'self' data:",
    `connect-src 'self' https://api.github.com${dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self' https://github.com",
    "frame-ancestors 'none'",
  ].join('; ')
  return [
    ['Content-Security-Policy', csp],
    ['X-Robots-Tag', 'noindex, nofollow'],
    ['Cache-Control', 'private, no-store'],
    ['X-Frame-Options', 'DENY'],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'same-origin'],
    ['Permissions-Policy', PERMISSIONS_POLICY],
  ]
}

/** The next.config headers() rules of every editor URL; none where there is no editor. */
export function editorHeaderRules(config: SiteConfig): Array<{ source: string; headers: HeaderList }> {
  if (!editorMode(config)) return []
  const headers = editorSecurityHeaders(contentReloadsOnEdit())
  return [EDITOR_PATH, `${EDITOR_PATH}/:path*`, `${EDITOR_API_PATH}/:path*`].map((source) => ({ source, headers }))
}

/** A path of the editor: its pages or its API. */
export function isEditorPath(pathname: string): boolean {
  return [EDITOR_PATH, EDITOR_API_PATH].some((base) => pathname === base || pathname.startsWith(`${base}/`))
}

/**
 * The answer that refuses a request to the local editor (request-guard.ts), or null: always null in
 * GitHub mode and where there is no editor. The editor's API asks before Keystatic answers; the
 * proxy asks for its pages (a page cannot answer 421 itself).
 */
export function refusedEditorRequest(headers: Headers): HttpAnswer | null {
  if (editorMode()?.kind !== 'local') return null
  const { host, port } = getConfig()
  return localEditorRefusal(headers, { host, port })
}
