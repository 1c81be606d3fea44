/**
 * Reads and validates every Markdown file under `content/`. Each file is frontmatter (YAML between
 * `---` lines, checked by a zod schema) and a Markdown body that may use the placeholders of
 * `TEMPLATE_VARIABLES` (lib/content/site-content.ts). `npm run build` reads and checks them once and
 * writes the result to CONTENT_SNAPSHOT_FILE, which production servers load instead, without this
 * module and its YAML and schema libraries (lib/content/load.ts). A wrong edit is a ContentError
 * naming the file, the line and the field (lib/content/issues.ts).
 */
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { z } from 'zod'
import { PUBLIC_RESOURCE_IDS } from '../contract/constants.ts'
import { contractContradictions } from './contract-values.ts'
import { CONTENT_FILES, CONTENT_SCHEMAS, contentFilePaths } from './content-files.ts'
import { describeIssues, parseFrontmatter, yamlErrorLine, yamlErrorText } from './issues.ts'
import { CONTENT_SNAPSHOT_FILE, ContentError, type ContentFile, PLACEHOLDER, type SiteContent, TEMPLATE_VARIABLES } from './site-content.ts'

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/

export function loadContent(root: string = process.cwd()): SiteContent {
  const read = <S extends z.ZodType>(relative: string, schema: S) => readContentFile(root, relative, schema)
  const resources = Object.fromEntries(
    PUBLIC_RESOURCE_IDS.map((id) => [id, read(CONTENT_FILES.resource(id), CONTENT_SCHEMAS.resource(id))]),
  ) as SiteContent['resources']
  return {
    home: read(CONTENT_FILES.home, CONTENT_SCHEMAS.home),
    developers: read(CONTENT_FILES.developers, CONTENT_SCHEMAS.developers),
    resources,
    pricing: read(CONTENT_FILES.pricing, CONTENT_SCHEMAS.pricing),
    contact: read(CONTENT_FILES.contact, CONTENT_SCHEMAS.contact),
    login: read(CONTENT_FILES.login, CONTENT_SCHEMAS.login),
    skill: read(CONTENT_FILES.skill, CONTENT_SCHEMAS.skill),
  }
}

export function readContentFile<S extends z.ZodType>(root: string, relative: string, schema: S): ContentFile<z.infer<S>> {
  let source: string
  try {
    source = readFileSync(path.join(root, relative), 'utf8')
  } catch {
    throw new ContentError(`${relative}: file is missing; expected a Markdown file with frontmatter`)
  }
  return parseContentFile(relative, source, schema)
}

export function parseContentFile<S extends z.ZodType>(file: string, source: string, schema: S): ContentFile<z.infer<S>> {
  const match = FRONTMATTER.exec(source.replace(/^\uFEFF/, ''))
  if (!match) fail(file, 1, 'expected the file to start with a "---" line, YAML fields, and a closing "---" line')
  const [, yamlText = '', body = ''] = match
  // The YAML starts on line 2, after the opening `---`.
  const frontmatter = parseFrontmatter(yamlText, 2)
  const syntaxError = frontmatter.document.errors[0]
  if (syntaxError) fail(file, yamlErrorLine(frontmatter, syntaxError), `invalid YAML: ${yamlErrorText(syntaxError)}`)
  const raw: unknown = frontmatter.document.toJS() ?? {}
  const parsed = schema.safeParse(raw, { reportInput: true })
  if (!parsed.success) {
    const problems = describeIssues(frontmatter, raw, schema, parsed.error.issues)
    throw new ContentError(problems.map((problem) => `${where(file, problem.line)}: ${problem.field}: ${problem.expected}`).join('\n'))
  }
  const bodyLine = source.split('\n').length - body.split('\n').length + 1
  if (!body.trim()) fail(file, bodyLine, 'expected Markdown text after the closing "---" line')
  checkPlaceholders(file, body, bodyLine - 1)
  return { file, data: parsed.data, body: `${body.trim()}\n` }
}

/**
 * Unknown placeholders and numbers that contradict the contract are errors at their line.
 * `lineOffset`: lines before the body, so errors name the line of the file the team edits.
 */
function checkPlaceholders(file: string, body: string, lineOffset: number): void {
  const lineOf = (index: number) => lineOffset + body.slice(0, index).split('\n').length
  for (const match of body.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? ''
    if (!(TEMPLATE_VARIABLES as readonly string[]).includes(name)) {
      fail(file, lineOf(match.index), `unknown placeholder "{{${name}}}"; expected one of ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`)
    }
  }
  const contradictions = contractContradictions(body)
  if (contradictions.length > 0) {
    throw new ContentError(contradictions.map(({ index, message }) => `${where(file, lineOf(index))}: ${message}`).join('\n'))
  }
}

/** `content/pages/pricing.md:21`: the form editors and terminals recognise as a place in a file. */
function where(file: string, line: number | undefined): string {
  return line === undefined ? file : `${file}:${line}`
}

function fail(file: string, line: number | undefined, expected: string): never {
  throw new ContentError(`${where(file, line)}: ${expected}`)
}

/** Identifies the state of every content file cheaply (no read): size, modification time, inode. */
export function contentFingerprint(root: string): string {
  return contentFilePaths()
    .map((relative) => {
      const stat = statSync(path.join(root, relative), { throwIfNoEntry: false })
      return stat ? `${stat.size}:${stat.mtimeMs}:${stat.ino}` : '-'
    })
    .join('|')
}

/** Checks content/ (a ContentError when an edit is wrong) and writes the snapshot production loads. */
export function writeContentSnapshot(root: string = process.cwd()): SiteContent {
  const content = loadContent(root)
  // Only the build writes it: the ignore comment keeps Turbopack from tracing the whole project into every function.
  const file = path.join(/*turbopackIgnore: true*/ root, CONTENT_SNAPSHOT_FILE)
  // Written whole, then renamed: a server reading it never sees half a file.
  writeFileSync(`${file}.tmp`, JSON.stringify(content))
  renameSync(`${file}.tmp`, file)
  return content
}
