/**
 * Turns what is wrong in a content file into lines a marketing editor can act on:
 * `content/pages/pricing.md:21: plan "Team" › priceMonthlyUsd: expected a number, got "twelve"`, i.e.
 * the file, the line of the file (not of the YAML block), the field by its human name (a list entry
 * by its name or id, LIST_ENTRY_NOUNS) and what is expected.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type YAMLError } from 'yaml'
import { z } from 'zod'
import { LIST_ENTRY_NOUNS } from './frontmatter.ts'

/** The frontmatter's YAML, parsed with positions, and the file line its first line is on. */
export interface FrontmatterSource {
  document: Document
  lines: LineCounter
  /** File line of the first YAML line (2: after the opening `---`). */
  firstLine: number
}

export function parseFrontmatter(yamlText: string, firstLine: number): FrontmatterSource {
  const lines = new LineCounter()
  const document = parseDocument(yamlText, { lineCounter: lines, prettyErrors: false, uniqueKeys: true })
  return { document, lines, firstLine }
}

/** File line of an offset into the YAML text. */
function fileLine(source: FrontmatterSource, offset: number): number {
  return source.firstLine - 1 + source.lines.linePos(offset).line
}

/**
 * Where a YAML syntax error is. The parser notices an unclosed `[`, `{` or quote only where the text
 * ends up not fitting, often lines later; the mistake is where that collection or quote opened.
 */
export function yamlErrorLine(source: FrontmatterSource, error: YAMLError): number {
  const at = error.pos[0]
  let opened: number | undefined
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return
    const range = (node as { range?: [number, number, number] }).range
    const unclosed =
      (isMap(node) || isSeq(node)) && node.flow
        ? true
        : isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') && /Missing closing/i.test(error.message)
    if (range && unclosed && range[0] < at && at <= range[1] && (opened === undefined || range[0] > opened)) opened = range[0]
    if (isMap(node)) {
      for (const pair of node.items) {
        visit(pair.key)
        visit(pair.value)
      }
    }
    if (isSeq(node)) for (const item of node.items) visit(item)
  }
  if (/Flow (sequence|mapping)|Missing closing/i.test(error.message)) visit(source.document.contents)
  return fileLine(source, opened ?? at)
}

/** The YAML parser's own message without its position (which counts lines of the YAML block, not the file). */
export function yamlErrorText(error: YAMLError): string {
  return (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')
}

type Path = ReadonlyArray<PropertyKey>

/**
 * File line of a field: its key's line, or for a list entry the entry's first line. A missing field
 * is placed at its closest enclosing entry; a missing top-level field has no line.
 */
function lineOfPath(source: FrontmatterSource, path: Path): number | undefined {
  let node: unknown = source.document.contents
  let line: number | undefined
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment))
      const key = pair?.key as { range?: [number, number, number] } | undefined
      if (!pair || !key?.range) break
      line = fileLine(source, key.range[0])
      node = pair.value
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment] as { range?: [number, number, number] } | undefined
      if (!item?.range) break
      line = fileLine(source, item.range[0])
      node = item
    } else {
      break
    }
  }
  return line
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `plan "Team" › feature 2` rather than `plans.1.features.1`. */
function fieldLabel(data: unknown, path: Path): string {
  const parts: string[] = []
  let value: unknown = data
  path.forEach((segment, index) => {
    if (typeof segment === 'number' && Array.isArray(value)) {
      const listKey = String(path[index - 1] ?? '')
      const noun = LIST_ENTRY_NOUNS[listKey] ?? 'entry'
      const entry: unknown = value[segment]
      const name = isRecord(entry) ? [entry.name, entry.id].find((candidate) => typeof candidate === 'string' && candidate.trim()) : undefined
      const label = typeof name === 'string' ? `${noun} ${JSON.stringify(name.trim())}` : `${noun} ${segment + 1}`
      if (parts.length > 0 && listKey) parts[parts.length - 1] = label
      else parts.push(label)
      value = entry
    } else {
      parts.push(String(segment))
      value = isRecord(value) ? value[String(segment)] : undefined
    }
  })
  return parts.join(' › ')
}

const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'fields (name: value lines)',
  null: 'nothing',
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'an empty value'
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return 'a list'
  return 'fields (a mapping)'
}

/** A schema without its optional or nullable wrapper: what its value is when there is one. */
function unwrapped(schema: z.core.$ZodType | undefined): z.core.$ZodType | undefined {
  return schema instanceof z.ZodOptional || schema instanceof z.ZodNullable ? unwrapped(schema.unwrap()) : schema
}

/** The field names a part of the schema allows, for "unknown field" messages. */
function knownFields(schema: z.core.$ZodType, path: Path): string[] {
  let node = unwrapped(schema)
  for (const segment of path) {
    const child: z.core.$ZodType | undefined =
      node instanceof z.ZodObject ? node.shape[String(segment)] : node instanceof z.ZodArray ? node.element : undefined
    node = unwrapped(child)
  }
  return node instanceof z.ZodObject ? Object.keys(node.shape) : []
}

export interface FieldProblem {
  line: number | undefined
  field: string
  expected: string
}

/** One problem per zod issue, located in the file and described for an editor. */
export function describeIssues(
  source: FrontmatterSource,
  data: unknown,
  schema: z.core.$ZodType,
  issues: readonly z.core.$ZodIssue[],
): FieldProblem[] {
  const problems: FieldProblem[] = []
  for (const issue of issues) {
    const input = (issue as { input?: unknown }).input
    if (issue.code === 'unrecognized_keys') {
      const allowed = knownFields(schema, issue.path)
      for (const key of issue.keys) {
        const path = [...issue.path, key]
        problems.push({
          line: lineOfPath(source, path),
          field: fieldLabel(data, path),
          expected: `unknown field${allowed.length > 0 ? `; expected one of ${allowed.join(', ')}` : ''}`,
        })
      }
      continue
    }
    problems.push({
      line: lineOfPath(source, issue.path),
      field: fieldLabel(data, issue.path) || '(frontmatter)',
      expected: describeIssue(issue, input),
    })
  }
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const got = `, got ${describeValue(input)}`
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return `missing; expected ${TYPE_NAMES[issue.expected] ?? issue.expected}`
      return `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}${got}`
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => String(value)).join(', ')}${got}`
    case 'invalid_format':
      if (issue.format === 'email') return `expected an email address${got}`
      // A pattern's own message says what is expected (a slug, a date written YYYY-MM-DD).
      if (issue.format === 'regex') return `expected ${issue.message}${got}`
      return `expected a valid ${issue.format}${got}`
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) <= 1) return 'expected text, got an empty value'
      if (issue.origin === 'array') return `expected at least ${String(issue.minimum)} ${Number(issue.minimum) === 1 ? 'entry' : 'entries'}${got}`
      if (issue.origin === 'number') return `expected a number ${issue.inclusive ? '≥' : '>'} ${String(issue.minimum)}${got}`
      return `${issue.message}${got}`
    case 'too_big':
      if (issue.origin === 'string') return `${issue.message} (this has ${typeof input === 'string' ? input.length : '?'})`
      return `${issue.message}${got}`
    default:
      return issue.message
  }
}

/**
 * What is wrong with one field's value (or a group of fields: `name: expected text, …`), in the words
 * the content check uses (without the file and line): the visual editor (lib/editor) refuses a value with this message before it
 * writes anything, so the team reads the same sentence in the editor and in a failed build.
 */
export function fieldValueProblem(schema: z.core.$ZodType, value: unknown): string | undefined {
  const parsed = z.safeParse(schema, value, { reportInput: true })
  if (parsed.success) return undefined
  return parsed.error.issues
    .map((issue) => {
      const problem = describeIssue(issue, (issue as { input?: unknown }).input)
      // Within a group of fields (a plan), each problem names its field as the content check does.
      return issue.path.length > 0 ? `${fieldLabel(value, issue.path)}: ${problem}` : problem
    })
    .join('; ')
}
