/**
 * `npm run check-content`: the content check alone (what `npm run build` runs first), for pull requests
 * of the marketing team. `--annotations` prints each mistake as a GitHub Actions workflow command, which
 * the pull request shows at its file and line (.github/workflows/content-check.yml).
 */
import { githubAnnotations } from '../lib/content/check.ts'
import { loadContent } from '../lib/content/parse.ts'
import { ContentError } from '../lib/content/site-content.ts'

try {
  loadContent()
  console.log('content/: all valid')
} catch (error) {
  if (!(error instanceof ContentError)) throw error
  if (process.argv.includes('--annotations')) for (const line of githubAnnotations(error)) console.log(line)
  console.error(`Content error — fix this file and push again:\n${error.message}`)
  process.exitCode = 1
}
