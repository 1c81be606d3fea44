/**
 * The visual editor's entries as Keystatic itself handles them, in-process: read from content/ by
 * Keystatic's reader (`createReader`, '@keystatic/core/reader', Keystatic's own file format code over
 * the editor's config), and checked by each field's own `validate`, which Keystatic's form runs before
 * it saves. What the editor writes is made by Keystatic's code in the browser (it exports no
 * serializer): tests/e2e/visual-editor.spec.ts drives it.
 */
import { createReader } from '@keystatic/core/reader'
import type { ComponentSchema } from '@keystatic/core'
import { projectRoot } from '../../harness/paths.ts'
import { keystaticConfig } from '../../lib/editor/index.ts'

/** A field as Keystatic's field API describes it: form fields parse, serialize and validate; groups and lists hold fields. */
export type AnyField = ComponentSchema & {
  kind: string
  formKind?: string
  fields?: Record<string, AnyField>
  element?: AnyField
  options?: Array<{ value: string }>
  parse: (value: unknown, extra?: unknown) => unknown
  serialize: (value: unknown, extra?: unknown) => { value: unknown }
  validate: (value: unknown, extra?: unknown) => unknown
}

export const EDITOR_CONFIG = keystaticConfig({ kind: 'local' })

export function singletonSchema(key: string): Record<string, AnyField> {
  const singleton = EDITOR_CONFIG.singletons?.[key] as { schema: Record<string, AnyField> } | undefined
  if (!singleton) throw new Error(`no editor entry "${key}"`)
  return singleton.schema
}

/** An entry's values as Keystatic's reader reads them from the project's content/, its body included. */
export async function readEntry(key: string): Promise<Record<string, unknown>> {
  const reader = createReader(projectRoot, EDITOR_CONFIG).singletons[key]
  if (!reader) throw new Error(`no editor entry "${key}"`)
  return (await reader.readOrThrow({ resolveLinkedFiles: true })) as Record<string, unknown>
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
