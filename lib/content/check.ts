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

const PROBLEM_LINE = /^(\S+?\.md)(?::(\d+))?: (.*)$/

/** GitHub's escaping of a workflow command's message (data) and of its properties (file=, line=). */
const escapeData = (text: string) => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')
const escapeProperty = (text: string) => escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C')

/**
 * The mistakes of a content error as GitHub Actions workflow commands, one per line of the error
 * (`content/pages/pricing.md:21: plan "Team" › …` → `::error file=content/pages/pricing.md,line=21::plan
 * "Team" › …`), so that a pull request shows each one at its file and line.
 */
export function githubAnnotations(error: ContentError): string[] {
  return error.message.split('\n').map((line) => {
    const match = PROBLEM_LINE.exec(line)
    if (!match) return `::error title=Content error::${escapeData(line)}`
    const [, file = '', lineNumber, message = ''] = match
    const where = [`file=${escapeProperty(file)}`, ...(lineNumber ? [`line=${lineNumber}`] : [])].join(',')
    return `::error ${where},title=Content error::${escapeData(message)}`
  })
}
