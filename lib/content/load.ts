/**
 * Serves the site's content: a production server the snapshot the build checked and wrote, any other
 * process content/ as it is now (lib/content/parse.ts); `next dev` re-reads the files when one
 * changed, so an edit shows on the next request.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { contentReloadsOnEdit, servesBuiltContent } from '../env.ts'
import { CONTENT_SNAPSHOT_FILE, ContentError, type SiteContent } from './site-content.ts'

/**
 * The parser of content/, with its YAML and schema libraries: loaded only by a process that reads
 * content/ itself; a production server reads the snapshot and never loads it (lib/on-demand.ts).
 */
const parser = servesBuiltContent() ? undefined : await import('./parse.ts')

function contentParser(): typeof import('./parse.ts') {
  if (!parser) throw new Error("this production process started without the content parser: it serves the build's content snapshot")
  return parser
}

function readContentSnapshot(root: string): SiteContent {
  try {
    return JSON.parse(readFileSync(path.join(root, CONTENT_SNAPSHOT_FILE), 'utf8')) as SiteContent
  } catch {
    throw new ContentError(`${CONTENT_SNAPSHOT_FILE} is missing or unreadable: build with npm run build, which checks content/ and writes it`)
  }
}

let built: SiteContent | undefined
let preview: { fingerprint: string; content?: SiteContent; error?: unknown } | undefined

/**
 * The validated content of this deployment. A production server (NODE_ENV=production: next build's
 * prerendering, next start, the Vercel functions) loads the build's snapshot on first use and keeps
 * it; any other process (scripts, tests) reads content/ once. Under `next dev` each call checks
 * whether a file changed and then reads them again, so pages, Markdown and API bodies (built from it
 * per site, lib/site.ts) show an edit on the next request, and a wrong edit is reported (Next's error
 * overlay, the terminal) until it is fixed.
 */
export function getContent(): SiteContent {
  if (!contentReloadsOnEdit()) {
    built ??= servesBuiltContent() ? readContentSnapshot(process.cwd()) : contentParser().loadContent()
    return built
  }
  const root = process.cwd()
  const { contentFingerprint, loadContent } = contentParser()
  const fingerprint = contentFingerprint(root)
  if (preview?.fingerprint !== fingerprint) {
    try {
      preview = { fingerprint, content: loadContent(root) }
    } catch (error) {
      preview = { fingerprint, error }
    }
  }
  if (!preview.content) throw preview.error
  return preview.content
}
