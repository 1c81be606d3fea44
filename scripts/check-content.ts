/**
 * Runs before `next build`: validates every file under content/ and stops the build with the file,
 * the field and what is expected when an edit is wrong.
 */
import { ContentError, loadContent } from '../lib/content/load.ts'

try {
  loadContent()
  console.log('content/: all files valid')
} catch (error) {
  if (!(error instanceof ContentError)) throw error
  console.error(`\nContent error — fix this file and build again:\n${error.message}\n`)
  process.exit(1)
}
