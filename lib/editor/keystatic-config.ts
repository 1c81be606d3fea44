/**
 * Keystatic's config of the visual editor at /keystatic, over every file under content/. Its fields
 * are derived from the content check's zod schemas (lib/content/frontmatter.ts), read through zod's
 * public API: each field's kind from the schema's class, its length limits and list sizes from the
 * schema's JSON Schema (`z.toJSONSchema`), a select's values from `.options`; and every value is checked
 * by the same schema with the same message before anything is written. Only the labels and help texts,
 * written for the marketing team, are stated apart (entries.ts), and a label for a field the schema
 * lacks (or the other way round) is a type error.
 *
 * One config, two modes: `local` (npm run dev writes content/) and `github` (each save a commit on a
 * branch); the caller passes the storage (lib/env.ts decides it: editor-page.tsx, api.ts).
 */
import { type ComponentSchema, type Config, type ContentFormField, config, fields, singleton } from '@keystatic/core'
import { type ComponentType, createElement } from 'react'
import { z } from 'zod'
import { contentDate } from '../content/frontmatter.ts'
import { fieldValueProblem } from '../content/issues.ts'
import { type EditorSingleton, EDITOR_SINGLETONS, type FieldWords } from './entries.ts'
import { CheckedDateInput, CheckedNumberInput, CheckedSelectInput, CheckedTextInput } from './inputs.tsx'

/** The storage the editor saves to: files on this machine, or commits on a branch of a GitHub repository. */
export type EditorStorage = { kind: 'local' } | { kind: 'github'; repo: { owner: string; name: string } }

/** The length limits of a text, or the size limits of a list, as the schema's JSON Schema states them. */
function lengthLimits(schema: z.core.$ZodType): { min?: number; max?: number } {
  const { minLength, maxLength, minItems, maxItems } = z.toJSONSchema(schema)
  const min = minLength ?? minItems
  const max = maxLength ?? maxItems
  return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) }
}

/**
 * Refuses a value the content check refuses. Keystatic keeps an entry unsaved when any field's
 * `validate` throws (its form catches every error); the team reads the message in the field itself,
 * from its input (inputs.tsx), in the same words.
 */
function refuse(message: string): never {
  throw new Error(message)
}

/** A text: a string, or a string of a format (an email address). */
const isText = (schema: z.core.$ZodType) => schema instanceof z.ZodString || schema instanceof z.ZodStringFormat

/** What a schema is, for the error when there is no editor field for it. */
const kindOf = (schema: z.core.$ZodType) => (schema instanceof z.ZodType ? schema.type : 'schema')

/** The words an input shows: the field's label and help, whether it must be filled in, and a select's options. */
interface InputWords {
  label: string
  description?: string
  isRequired: boolean
  multiline?: boolean
  options?: ReadonlyArray<{ label: string; value: string }>
}

/**
 * A Keystatic field whose value must also pass `schema`, refused with the content check's own words:
 * on saving (`validate`, which Keystatic runs before it writes anything) and in the field itself
 * (`input`, one of inputs.tsx, in place of Keystatic's input, whose message would
 * be Keystatic's).
 * `asWritten` turns the editor's value into the one the file holds (an empty optional text is left out).
 */
function checkedBy<F extends { validate: (value: never, ...rest: never[]) => unknown; parse: (value: never, ...rest: never[]) => unknown }>(
  field: F,
  schema: z.core.$ZodType,
  input: { component: ComponentType<never>; words: InputWords },
  asWritten: (value: unknown) => unknown = (value) => value,
): F {
  const { validate, parse } = field
  const problem = (value: unknown) => fieldValueProblem(schema, asWritten(value))
  return {
    ...field,
    // A value the field cannot hold as written (a price written as a word, a button value that is not
    // one of the options) would stop the whole entry from opening: the field opens holding it, its
    // input shows the content check's message, and the entry refuses to save until it is replaced.
    parse(value: never, ...rest: never[]) {
      try {
        return parse(value, ...rest)
      } catch (error) {
        if (problem(value)) return value
        throw error
      }
    },
    // biome-ignore lint/correctness/noComponentHookFactories: made once per field, when the config is built (EditorApp keeps it), as Keystatic makes its own fields' inputs
    Input: (props: object) => createElement(input.component as ComponentType<Record<string, unknown>>, { ...input.words, ...props, problem }),
    validate(value: never, ...rest: never[]) {
      const message = problem(value)
      if (message) refuse(message)
      return validate(value, ...rest)
    },
  }
}

/** The Keystatic field for one frontmatter field, from its zod schema. */
function fieldFor(schema: z.core.$ZodType, words: FieldWords): ComponentSchema {
  const { label, description } = words
  if (schema === contentDate)
    return checkedBy(fields.date({ label, description, validation: { isRequired: true } }), schema, {
      component: CheckedDateInput,
      words: { label, description, isRequired: true },
    })
  if (isText(schema)) {
    const { min = 0, max } = lengthLimits(schema)
    return checkedBy(fields.text({ label, description, validation: { length: { min, ...(max ? { max } : {}) } } }), schema, {
      component: CheckedTextInput,
      words: { label, description, isRequired: min > 0 },
    })
  }
  if (schema instanceof z.ZodOptional) {
    // An optional text (a form field's help): Keystatic leaves an empty text out of the file, which
    // is what the schema reads as absent.
    const inner = schema.unwrap()
    if (!isText(inner)) throw new Error(`lib/editor: no editor field for an optional zod ${kindOf(inner)} (label "${label}")`)
    const { max } = lengthLimits(inner)
    const field = fields.text({ label, description, validation: { length: { min: 0, ...(max ? { max } : {}) } } })
    return checkedBy(field, schema, { component: CheckedTextInput, words: { label, description, isRequired: false } }, (value) =>
      value === '' ? undefined : value,
    )
  }
  if (schema instanceof z.ZodObject) return objectField(schema, words.fields ?? {}, label, description)
  if (schema instanceof z.ZodNullable) {
    // A price: a number, or empty for "on request". Keystatic's number field writes nothing for an
    // empty value; the content file says `null`, which the schema reads as "on request".
    const number = fields.number({ label, description, validation: { isRequired: false, min: 0 } })
    const parse = (value: unknown) => (value === null ? null : number.parse(value as number | undefined))
    return checkedBy({ ...number, parse, serialize: (value: number | null) => ({ value: value as number }), reader: { parse } }, schema, {
      component: CheckedNumberInput,
      words: { label, description, isRequired: false },
    })
  }
  if (schema instanceof z.ZodEnum) {
    const options = schema.options.map((value) => ({ label: String(value), value: String(value) }))
    return checkedBy(fields.select({ label, description, options, defaultValue: options[0]?.value ?? '' }), schema, {
      component: CheckedSelectInput,
      words: { label, description, isRequired: true, options },
    })
  }
  if (schema instanceof z.ZodArray) {
    const element = schema.element
    const entryWords = words.entry ?? { label }
    const { min, max } = lengthLimits(schema)
    const entry: ComponentSchema =
      element instanceof z.ZodObject
        ? objectField(element, entryWords as Record<string, FieldWords>, label)
        : fieldFor(element, entryWords as FieldWords)
    return fields.array(entry, {
      label,
      description,
      // An entry that the content check would refuse says so in the list too: its fields show their
      // message only while its dialog is open, and Keystatic closes the dialog whatever it holds.
      itemLabel: (props) => {
        const value = previewValue(props)
        const fields = value as Record<string, unknown> | undefined
        const name = typeof value === 'string' ? value : (fields?.name ?? fields?.label)
        const title = typeof name === 'string' && name ? name : label
        const problem = fieldValueProblem(element, value)
        return problem ? `${title} — ${problem}` : title
      },
      validation: { length: { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) } },
    })
  }
  throw new Error(`lib/editor: no editor field for a zod ${kindOf(schema)} (label "${label}")`)
}

/** The value an entry's preview holds: Keystatic hands a list's `itemLabel` the preview of an entry, not its value. */
function previewValue(preview: unknown): unknown {
  const { fields, elements, value } = preview as { fields?: Record<string, unknown>; elements?: unknown[]; value?: unknown }
  if (fields) return Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, previewValue(field)]))
  if (elements) return elements.map(previewValue)
  return value
}

function objectField(schema: z.ZodObject, words: Record<string, FieldWords>, label: string, description?: string): ComponentSchema {
  return fields.object(frontmatterFields(schema, words), { label, ...(description ? { description } : {}) })
}

/** Every field of a frontmatter schema, in the schema's order (the order the editor writes them in). */
function frontmatterFields(schema: z.ZodObject, labels: Record<string, FieldWords>): Record<string, ComponentSchema> {
  return Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]): [string, ComponentSchema] => {
      const words = labels[key]
      if (!words) throw new Error(`lib/editor: no label for the field "${key}"`)
      return [key, fieldFor(field, words)]
    }),
  )
}

/**
 * The body: the Markdown source itself. Keystatic's rich editors rewrite it (Markdoc writes tables as
 * `{% table %}` and escapes `{{base_url}}` in links; MDX cannot read `{{placeholders}}`), which the
 * site's renderer and the content check would then refuse; this field saves exactly what was typed.
 * It is a field of the kind Keystatic publishes for an entry's content file (`ContentFormField`).
 */
function markdownBody(label: string, description: string): ContentFormField<string, string, string> {
  const text = fields.text({ label, description, multiline: true })
  const decode = (content: Uint8Array | undefined) => (content ? new TextDecoder().decode(content) : '')
  return {
    kind: 'form' as const,
    formKind: 'content' as const,
    contentExtension: '.md',
    Input: text.Input,
    defaultValue: () => '',
    parse: (_value: unknown, { content }: { content: Uint8Array | undefined }) => decode(content),
    serialize: (value: string) => ({ value: undefined, content: new TextEncoder().encode(value), other: new Map(), external: new Map() }),
    validate: (value: string) => {
      if (!value.trim()) refuse('expected Markdown text after the closing "---" line')
      return value
    },
    reader: { parse: (_value: unknown, { content }: { content: Uint8Array | undefined }) => decode(content) },
  }
}

function editorSingleton(entry: EditorSingleton) {
  return singleton({
    label: entry.label,
    path: entry.file.replace(/\.md$/, ''),
    format: { contentField: 'body' },
    schema: {
      ...frontmatterFields(entry.schema, entry.labels),
      body: markdownBody(
        entry.bodyLabel,
        'Markdown: **bold**, [links](https://…), tables, and placeholders such as {{base_url}} that the site fills in.',
      ),
    },
  })
}

export function keystaticConfig(storage: EditorStorage): Config {
  return config({
    storage: storage.kind === 'github' ? { kind: 'github', repo: storage.repo } : { kind: 'local' },
    ui: {
      brand: { name: 'Cadence site' },
      navigation: {
        Pages: EDITOR_SINGLETONS.filter((entry) => entry.group === 'pages').map((entry) => entry.key),
        'For developers and agents': EDITOR_SINGLETONS.filter((entry) => entry.group === 'agents').map((entry) => entry.key),
      },
    },
    singletons: Object.fromEntries(EDITOR_SINGLETONS.map((entry) => [entry.key, editorSingleton(entry)])),
  }) as Config
}
