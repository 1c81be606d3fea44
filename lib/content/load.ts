/**
 * Reads and validates every Markdown file under `content/` once per process. Each file is frontmatter
 * (YAML between `---` lines, checked by a zod schema) and a Markdown body that may use the placeholders
 * of `TEMPLATE_VARIABLES`, filled in per deployment by `fillTemplate`.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse as parseYaml, YAMLParseError } from 'yaml'
import type { z } from 'zod'
import { PUBLIC_RESOURCE_IDS, type PublicResourceId } from '../contract/constants.ts'
import {
  ContactFrontmatterSchema,
  HomeFrontmatterSchema,
  LoginFrontmatterSchema,
  PageFrontmatterSchema,
  PricingFrontmatterSchema,
  ResourceFrontmatterSchema,
} from './frontmatter.ts'

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
}

/** Placeholders a body may use, written `{{name}}`. */
export const TEMPLATE_VARIABLES = ['base_url', 'app_url', 'service', 'contract_version', 'mcp_protocol_version'] as const
export type TemplateValues = Record<(typeof TEMPLATE_VARIABLES)[number], string>

export class ContentError extends Error {
  override name = 'ContentError'
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g

export function loadContent(root: string = process.cwd()): SiteContent {
  const read = <S extends z.ZodType>(relative: string, schema: S) => readContentFile(root, relative, schema)
  const resources = Object.fromEntries(
    PUBLIC_RESOURCE_IDS.map((id) => {
      const file = read(`content/resources/${id}.md`, ResourceFrontmatterSchema)
      if (file.data.id !== id) fail(file.file, 'id', `expected "${id}" (the file name), got "${file.data.id}"`)
      return [id, file]
    }),
  ) as SiteContent['resources']
  return {
    home: read('content/home.md', HomeFrontmatterSchema),
    developers: read('content/developers.md', PageFrontmatterSchema),
    resources,
    pricing: read('content/pages/pricing.md', PricingFrontmatterSchema),
    contact: read('content/pages/contact.md', ContactFrontmatterSchema),
    login: read('content/pages/login.md', LoginFrontmatterSchema),
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
  if (!match) fail(file, 'frontmatter', 'expected the file to start with a "---" line, YAML fields, and a closing "---" line')
  const [, yamlText = '', body = ''] = match
  let raw: unknown
  try {
    raw = parseYaml(yamlText)
  } catch (error) {
    const where = error instanceof YAMLParseError && error.linePos ? ` (line ${error.linePos[0].line + 1})` : ''
    fail(file, 'frontmatter', `expected valid YAML${where}: ${(error as Error).message.split('\n')[0]}`)
  }
  const parsed = schema.safeParse(raw ?? {})
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(frontmatter)'}: ${issue.message}`)
    throw new ContentError(`${file}: invalid frontmatter\n  ${issues.join('\n  ')}`)
  }
  if (!body.trim()) fail(file, 'body', 'expected non-empty Markdown after the frontmatter')
  checkPlaceholders(file, body, source.split('\n').length - body.split('\n').length)
  return { file, data: parsed.data, body: body.trim() + '\n' }
}

/** `lineOffset`: lines before the body, so errors name the line of the file the team edits. */
function checkPlaceholders(file: string, body: string, lineOffset: number): void {
  for (const match of body.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? ''
    if (!(TEMPLATE_VARIABLES as readonly string[]).includes(name)) {
      const line = lineOffset + body.slice(0, match.index).split('\n').length
      fail(file, `line ${line}`, `unknown placeholder "{{${name}}}"; expected one of ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`)
    }
  }
}

export function fillTemplate(body: string, values: TemplateValues): string {
  return body.replace(PLACEHOLDER, (_, name: keyof TemplateValues) => values[name])
}

function fail(file: string, field: string, expected: string): never {
  throw new ContentError(`${file}: ${field}: ${expected}`)
}

let cached: SiteContent | undefined

/** The validated content of this deployment, read on first use. */
export function getContent(): SiteContent {
  cached ??= loadContent()
  return cached
}
