/**
 * For commands that must not start with broken content (`npm start`, the prebuild check): a wrong edit
 * stops the process with exit code 1 and the file, line, field and what is expected; no stack trace.
 */
import { getContent } from './load.ts'
import { ContentError, type SiteContent } from './site-content.ts'

/** `read`: how the command gets its content (the build reads content/ and writes the snapshot). */
export function checkContentOrExit(action = 'run the command', read: () => SiteContent = getContent): SiteContent {
  try {
    return read()
  } catch (error) {
    if (!(error instanceof ContentError)) throw error
    console.error(`Content error — fix this file and ${action} again:\n${error.message}`)
    process.exit(1)
  }
}
