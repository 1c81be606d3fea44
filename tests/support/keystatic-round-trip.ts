/**
 * What the visual editor writes when an entry is opened and saved, computed in-process: the steps of
 * Keystatic's own `parseEntry` and `serializeEntryToFiles` (its UI bundle keeps them private): split
 * the frontmatter, read it with js-yaml, parse each field with the field's own `parse`, serialize each
 * with its own `serialize` (object entries that are `undefined` left out, as Keystatic does), write
 * the YAML with js-yaml's `dump`, and join `---` + YAML + `---` + the body field's content.
 */
import type { ComponentSchema } from '@keystatic/core'
import { dump, load } from 'js-yaml'
import { keystaticConfig } from '../../keystatic.config.ts'

const FRONTMATTER = /^---(?:\r?\n([\s\S]*?))?\r?\n---\r?\n?/
const decoder = new TextDecoder()
const encoder = new TextEncoder()

type AnyField = ComponentSchema & {
  kind: string
  formKind?: string
  fields?: Record<string, AnyField>
  element?: AnyField
  parse: (value: unknown, extra?: unknown) => unknown
  serialize: (value: unknown, extra?: unknown) => { value: unknown; content?: Uint8Array }
  validate: (value: unknown, extra?: unknown) => unknown
}

export const EDITOR_CONFIG = keystaticConfig({ kind: 'local' })

export function singletonSchema(key: string): Record<string, AnyField> {
  const singleton = EDITOR_CONFIG.singletons?.[key] as { schema: Record<string, AnyField> } | undefined
  if (!singleton) throw new Error(`no editor entry "${key}"`)
  return singleton.schema
}

function parseValue(field: AnyField, value: unknown): unknown {
  if (field.kind === 'object') {
    const record = (value ?? {}) as Record<string, unknown>
    return Object.fromEntries(Object.entries(field.fields ?? {}).map(([key, inner]) => [key, parseValue(inner, record[key])]))
  }
  if (field.kind === 'array') return ((value ?? []) as unknown[]).map((item) => parseValue(field.element as AnyField, item))
  return field.parse(value, undefined)
}

function serializeValue(field: AnyField, value: unknown): unknown {
  if (field.kind === 'object') {
    const record = value as Record<string, unknown>
    const entries = Object.entries(field.fields ?? {}).map(([key, inner]) => [key, serializeValue(inner, record[key])] as const)
    return Object.fromEntries(entries.filter(([, inner]) => inner !== undefined))
  }
  if (field.kind === 'array') return (value as unknown[]).map((item) => serializeValue(field.element as AnyField, item) ?? null)
  return field.serialize(value, { slug: undefined }).value
}

/** The state the editor opens an entry with: every field parsed from the file. */
export function openEntry(key: string, source: string): Record<string, unknown> {
  const schema = singletonSchema(key)
  const bytes = encoder.encode(source)
  const match = FRONTMATTER.exec(source)
  const loaded = (match ? load(match[1] ?? '') : {}) as Record<string, unknown>
  const content = match ? bytes.slice(encoder.encode(match[0]).byteLength) : bytes
  return Object.fromEntries(
    Object.entries(schema).map(([name, field]) => [
      name,
      field.formKind === 'content' ? field.parse(undefined, { content, other: new Map(), external: new Map() }) : parseValue(field, loaded[name]),
    ]),
  )
}

/** The file the editor writes for a state. */
export function saveEntry(key: string, state: Record<string, unknown>): string {
  const schema = singletonSchema(key)
  let body = ''
  const data: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(schema)) {
    if (field.formKind === 'content') {
      body = decoder.decode(field.serialize(state[name]).content)
      continue
    }
    const value = serializeValue(field, state[name])
    if (value !== undefined) data[name] = value
  }
  return `---\n${dump(data)}---\n${body}`
}

/** Every message the editor shows before saving a state (Keystatic validates each field; lists by length). */
export function editorProblems(key: string, state: Record<string, unknown>): string[] {
  const problems: string[] = []
  const visit = (field: AnyField, value: unknown, path: string) => {
    try {
      if (field.kind === 'object') {
        for (const [name, inner] of Object.entries(field.fields ?? {})) visit(inner, (value as Record<string, unknown>)[name], `${path}.${name}`)
      } else if (field.kind === 'array') {
        const items = value as unknown[]
        const { min, max } = (field as unknown as { validation?: { length?: { min?: number; max?: number } } }).validation?.length ?? {}
        if (min !== undefined && items.length < min) problems.push(`${path}: at least ${min}`)
        if (max !== undefined && items.length > max) problems.push(`${path}: at most ${max}`)
        items.forEach((item, index) => {
          visit(field.element as AnyField, item, `${path}.${index}`)
        })
      } else {
        field.validate(value, undefined)
      }
    } catch (error) {
      problems.push(`${path}: ${(error as Error).message}`)
    }
  }
  for (const [name, field] of Object.entries(singletonSchema(key))) visit(field, state[name], name)
  return problems
}
