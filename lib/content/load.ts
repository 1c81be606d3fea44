/**
 * Reads and validates every Markdown file under `content/`. Each file is frontmatter (YAML between
 * `---` lines, checked by a zod schema) and a Markdown body that may use the placeholders of
 * `TEMPLATE_VARIABLES`, filled in per deployment by `fillTemplate`. `npm run build` reads and checks
 * them once and writes the result to CONTENT_SNAPSHOT_FILE, which production servers (the Vercel
 * functions, next start) load instead; `next dev` re-reads the files when one changed, so an edit shows
 * on the next request. A wrong edit is a ContentError naming the file, the line and the field
 * (lib/content/issues.ts).
 */
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { z } from 'zod'
import { PUBLIC_RESOURCE_IDS, type PublicResourceId } from '../contract/constants.ts'
import { SKILL_NAME } from '../routes/document-paths.ts'
import { contentReloadsOnEdit, servesBuiltContent } from '../env.ts'
import { CONTRACT_TEMPLATE_VALUES, contractContradictions, type ContractPlaceholder } from './contract-values.ts'
import {
  ContactFrontmatterSchema,
  HomeFrontmatterSchema,
  LoginFrontmatterSchema,
  PageFrontmatterSchema,
  PricingFrontmatterSchema,
  ResourceFrontmatterSchema,
  SkillFrontmatterSchema,
} from './frontmatter.ts'
import { CONTENT_FILES, contentFilePaths } from './content-files.ts'
import { describeIssues, parseFrontmatter, yamlErrorLine, yamlErrorText } from './issues.ts'

export interface ContentFile<T> {
  /** Path relative to the project root, e.g. `content/pages/pricing.md`. */
  file: string
  data: T
  /** Markdown body, placeholders not yet filled in. */
  body: string
}

export interface SiteContent {
  home: ContentFile<z.infer<typeof HomeFrontmatterSchema>>
  developers: ContentFile<z.infer<typeof PageFrontmatterSchema>>
  resources: Record<PublicResourceId, ContentFile<z.infer<typeof ResourceFrontmatterSchema>>>
  pricing: ContentFile<z.infer<typeof PricingFrontmatterSchema>>
  contact: ContentFile<z.infer<typeof ContactFrontmatterSchema>>
  login: ContentFile<z.infer<typeof LoginFrontmatterSchema>>
  /** The Agent Skill teaching agents this surface (served as SKILL.md, listed in the skills index). */
  skill: ContentFile<z.infer<typeof SkillFrontmatterSchema>>
}

/** Placeholders a body may use, written `{{name}}`: the deployment's URLs and names, then the contract's numbers. */
const DEPLOYMENT_VARIABLES = ['base_url', 'app_url', 'service'] as const
export type TemplateValues = Record<(typeof DEPLOYMENT_VARIABLES)[number], string> & typeof CONTRACT_TEMPLATE_VALUES
export const TEMPLATE_VARIABLES: ReadonlyArray<keyof TemplateValues> = [
  ...DEPLOYMENT_VARIABLES,
  ...(Object.keys(CONTRACT_TEMPLATE_VALUES) as ContractPlaceholder[]),
]

export class ContentError extends Error {
  override name = 'ContentError'
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g

export function loadContent(root: string = process.cwd()): SiteContent {
  const read = <S extends z.ZodType>(relative: string, schema: S) => readContentFile(root, relative, schema)
  const resources = Object.fromEntries(
    PUBLIC_RESOURCE_IDS.map((id) => {
      // The file name is the resource id: a different `id` in the frontmatter is an error at that line.
      const schema = ResourceFrontmatterSchema.superRefine((data, context) => {
        if (data.id !== id) context.addIssue({ code: 'custom', path: ['id'], message: `expected "${id}" (the file name), got "${data.id}"` })
      })
      return [id, read(CONTENT_FILES.resource(id), schema)]
    }),
  ) as SiteContent['resources']
  return {
    home: read(CONTENT_FILES.home, HomeFrontmatterSchema),
    developers: read(CONTENT_FILES.developers, PageFrontmatterSchema),
    resources,
    pricing: read(CONTENT_FILES.pricing, PricingFrontmatterSchema),
    contact: read(CONTENT_FILES.contact, ContactFrontmatterSchema),
    login: read(CONTENT_FILES.login, LoginFrontmatterSchema),
    // The skill is served under its name (lib/routes/document-paths.ts): another name is an error at that line.
    skill: read(
      CONTENT_FILES.skill,
      SkillFrontmatterSchema.superRefine((data, context) => {
        if (data.name !== SKILL_NAME)
          context.addIssue({ code: 'custom', path: ['name'], message: `expected "${SKILL_NAME}" (the skill's published path), got "${data.name}"` })
      }),
    ),
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

export function fillTemplate(body: string, values: TemplateValues): string {
  return body.replace(PLACEHOLDER, (_, name: keyof TemplateValues) => values[name])
}

/** `content/pages/pricing.md:21`: the form editors and terminals recognise as a place in a file. */
function where(file: string, line: number | undefined): string {
  return line === undefined ? file : `${file}:${line}`
}

function fail(file: string, line: number | undefined, expected: string): never {
  throw new ContentError(`${where(file, line)}: ${expected}`)
}

/** Identifies the state of every content file cheaply (no read): size, modification time, inode. */
function contentFingerprint(root: string): string {
  return contentFilePaths()
    .map((relative) => {
      const stat = statSync(path.join(root, relative), { throwIfNoEntry: false })
      return stat ? `${stat.size}:${stat.mtimeMs}:${stat.ino}` : '-'
    })
    .join('|')
}

/**
 * The validated content as `npm run build` left it (scripts/prebuild.ts), relative to the project root:
 * every request of a deployment answers from the same content, so a new instance loads this JSON
 * rather than parsing and validating content/ again. next.config.ts traces it into the functions.
 */
export const CONTENT_SNAPSHOT_FILE = 'content-snapshot.json'

/** Checks content/ (a ContentError when an edit is wrong) and writes the snapshot production loads. */
export function writeContentSnapshot(root: string = process.cwd()): SiteContent {
  const content = loadContent(root)
  const file = path.join(root, CONTENT_SNAPSHOT_FILE)
  // Written whole, then renamed: a server reading it never sees half a file.
  writeFileSync(`${file}.tmp`, JSON.stringify(content))
  renameSync(`${file}.tmp`, file)
  return content
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
    built ??= servesBuiltContent() ? readContentSnapshot(process.cwd()) : loadContent()
    return built
  }
  const root = process.cwd()
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
