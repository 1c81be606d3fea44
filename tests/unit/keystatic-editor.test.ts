/**
 * The visual editor (lib/editor) against the content check: Keystatic's own reader reads every file
 * into the values the content check reads, the editor's fields are the schema's fields with the
 * schema's limits, and a value the content check refuses is refused in the editor with the same
 * words, before anything is written. What the editor writes is Keystatic's browser code, driven in
 * tests/e2e/visual-editor.spec.ts.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { EDITOR_SINGLETONS } from '../../lib/editor/index.ts'
import { contentFilePaths } from '../../lib/content/content-files.ts'
import { ContactFrontmatterSchema, PlanSchema, PricingFrontmatterSchema, SalesFormSchema } from '../../lib/content/frontmatter.ts'
import { parseContentFile } from '../../lib/content/parse.ts'
import { ContentError } from '../../lib/content/site-content.ts'
import { type AnyField, EDITOR_CONFIG, editorProblems, readEntry, singletonSchema } from '../support/keystatic-entries.ts'
import { projectRoot } from '../../harness/paths.ts'

const read = (file: string) => readFileSync(path.join(projectRoot, file), 'utf8')
const PRICING = 'content/pages/pricing.md'
const CONTACT = 'content/pages/contact.md'

type Plan = z.infer<typeof PlanSchema>

async function pricingState() {
  const state = await readEntry('pricing')
  return { state, plans: state.plans as Plan[] }
}

/** A field of the pricing entry's plans, as the editor's config holds it. */
const planField = (name: keyof Plan) => singletonSchema('pricing').plans?.element?.fields?.[name] as AnyField

/** The Markdown after a file's closing `---` line, as written. */
const bodyOf = (source: string) => source.slice(source.indexOf('\n---\n', 3) + '\n---\n'.length)

/**
 * Values without their empty texts: Keystatic's text field reads an absent optional text (a form
 * field without help) as an empty one, and leaves an empty one out when it writes.
 */
function withoutEmptyTexts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmptyTexts)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, inner]) => inner !== '')
      .map(([key, inner]) => [key, withoutEmptyTexts(inner)]),
  )
}

describe('the visual editor over content/', () => {
  it('has one entry for every file the site reads, and nothing else', () => {
    expect(EDITOR_SINGLETONS.map((entry) => entry.file).sort()).toEqual(contentFilePaths().sort())
    expect(Object.keys(EDITOR_CONFIG.singletons ?? {})).toEqual(EDITOR_SINGLETONS.map((entry) => entry.key))
  })

  it.each(EDITOR_SINGLETONS.map((entry) => [entry.file, entry] as const))(
    '%s: Keystatic’s reader reads the values the content check reads, and the body as written',
    async (file, entry) => {
      const { body, ...values } = await readEntry(entry.key)
      const source = read(file)
      expect(withoutEmptyTexts(values)).toEqual(parseContentFile(file, source, entry.schema).data)
      expect(body).toBe(bodyOf(source))
    },
  )

  it('Keystatic reads a body’s tables, code spans, links and {{placeholders}} byte for byte', async () => {
    const resource = (await readEntry('resource-developer-resources')).body as string
    expect(resource).toContain('| OpenAPI 3.1.1 description | {{base_url}}/openapi.json | `application/vnd.oai.openapi+json` |')
    expect(read('content/pages/login.md')).toContain('[developer index]({{base_url}}/developers.md)')
    expect((await readEntry('login')).body).toContain('[developer index]({{base_url}}/developers.md)')
  })

  it('an emptied price is written as null (the price field’s own serializer), which the site reads as priced on request', () => {
    expect(planField('priceMonthlyUsd').serialize(null)).toEqual({ value: null })
    expect(PlanSchema.shape.priceMonthlyUsd.parse(null)).toBeNull()
  })
})

describe('one statement of the rules: the editor fields are the zod schemas', () => {
  it.each(EDITOR_SINGLETONS.map((entry) => [entry.key, entry] as const))('%s: the same fields, in the schema order, plus the body', (key, entry) => {
    const schema = singletonSchema(key)
    expect(Object.keys(schema)).toEqual([...Object.keys(entry.schema.shape), 'body'])
    expect(schema.body?.formKind).toBe('content')
  })

  it('every plan field of the editor is a field of PlanSchema and the other way round; cta offers the allowed values', () => {
    const schema = singletonSchema('pricing')
    const plan = schema.plans?.element as AnyField
    expect(Object.keys(plan.fields ?? {})).toEqual(Object.keys(PlanSchema.shape))
    expect(plan.fields?.cta?.options?.map((option) => option.value)).toEqual(PlanSchema.shape.cta.options)
  })

  it.each([
    ['a price of "twelve"', (plan: Plan) => ({ ...plan, priceMonthlyUsd: 'twelve' as unknown as number }), 'expected a number, got "twelve"'],
    ['a negative price', (plan: Plan) => ({ ...plan, priceMonthlyUsd: -5 }), 'expected a number ≥ 0, got -5'],
    ['an empty plan name', (plan: Plan) => ({ ...plan, name: '' }), 'expected text, got an empty value'],
    ['a feature over 120 characters', (plan: Plan) => ({ ...plan, features: ['x'.repeat(121)] }), 'at most 120 characters (this has 121)'],
    [
      'a button that opens neither sign-up nor contact',
      (plan: Plan) => ({ ...plan, cta: 'call-us' as Plan['cta'] }),
      'expected one of signup, contact, got "call-us"',
    ],
  ])('%s is refused by the editor with the content check’s words', async (_name, change, message) => {
    const { state, plans } = await pricingState()
    const edited = { ...state, plans: plans.map((plan) => (plan.id === 'team' ? change(plan) : plan)) }
    const problems = editorProblems('pricing', edited)
    expect(problems.some((problem) => problem.includes(message))).toBe(true)
    // The content check says the same of these values in a file (frontmatter as JSON, which is YAML;
    // the file Keystatic itself writes is checked in tests/e2e/visual-editor.spec.ts).
    const file = `---\n${JSON.stringify({ ...edited, body: undefined })}\n---\n${state.body as string}`
    expect(() => parseContentFile(PRICING, file, PricingFrontmatterSchema)).toThrow(ContentError)
    expect(() => parseContentFile(PRICING, file, PricingFrontmatterSchema)).toThrow(message)
  })

  it('a price written as a word in the file opens as written and is refused with the content check’s words until replaced', async () => {
    const source = read(PRICING).replace('    priceMonthlyUsd: 12\n', '    priceMonthlyUsd: twelve\n')
    expect(() => parseContentFile(PRICING, source, PricingFrontmatterSchema)).toThrow(
      'plan "Team" › priceMonthlyUsd: expected a number, got "twelve"',
    )
    // What the editor's form holds for the file's value: the field's own parse keeps it as written.
    const opened = planField('priceMonthlyUsd').parse('twelve')
    expect(opened).toBe('twelve')
    const { state, plans } = await pricingState()
    const withPrice = (price: unknown) => ({
      ...state,
      plans: plans.map((plan) => (plan.id === 'team' ? { ...plan, priceMonthlyUsd: price } : plan)),
    })
    expect(editorProblems('pricing', withPrice(opened))).toEqual(['plans.1.priceMonthlyUsd: expected a number, got "twelve"'])
    expect(editorProblems('pricing', withPrice(12))).toEqual([])
  })

  it('a button value outside the allowed ones opens as written and is refused with the content check’s words', async () => {
    const source = read(PRICING).replace('    cta: signup\n    ctaLabel: Start a team\n', '    cta: call-us\n    ctaLabel: Start a team\n')
    expect(source).not.toBe(read(PRICING))
    expect(() => parseContentFile(PRICING, source, PricingFrontmatterSchema)).toThrow(
      'plan "Team" › cta: expected one of signup, contact, got "call-us"',
    )
    const opened = planField('cta').parse('call-us')
    expect(opened).toBe('call-us')
    const { state, plans } = await pricingState()
    const edited = { ...state, plans: plans.map((plan) => (plan.id === 'team' ? { ...plan, cta: opened } : plan)) }
    expect(editorProblems('pricing', edited)).toEqual(['plans.1.cta: expected one of signup, contact, got "call-us"'])
  })

  it('a plan the content check would refuse says why in the list of plans, in the content check’s words', async () => {
    const list = singletonSchema('pricing').plans as unknown as { itemLabel: (preview: unknown) => string }
    // What Keystatic hands itemLabel: the entry's preview, each field holding its value.
    const preview = (plan: Plan) => ({
      fields: Object.fromEntries(
        Object.entries(plan).map(([key, value]) => [key, Array.isArray(value) ? { elements: value.map((item) => ({ value: item })) } : { value }]),
      ),
    })
    const team = (await pricingState()).plans.find((plan) => plan.id === 'team') as Plan
    expect(list.itemLabel(preview(team))).toBe('Team')
    expect(list.itemLabel(preview({ ...team, name: '' }))).toBe('Plans — name: expected text, got an empty value')
    expect(list.itemLabel(preview({ ...team, features: ['Unlimited goals', 'x'.repeat(121)] }))).toBe(
      'Team — feature 2: at most 120 characters (this has 121)',
    )
  })

  it('the sales form of the contact page has the fields of SalesFormSchema, its parts and its choices', () => {
    const schema = singletonSchema('contact')
    const form = schema.salesForm as AnyField
    expect(Object.keys(form.fields ?? {})).toEqual(Object.keys(SalesFormSchema.shape))
    expect(Object.keys(form.fields?.fields?.fields ?? {})).toEqual(Object.keys(SalesFormSchema.shape.fields.shape))
    expect(Object.keys(form.fields?.thanks?.fields ?? {})).toEqual(Object.keys(SalesFormSchema.shape.thanks.shape))
    expect(Object.keys(form.fields?.fields?.fields?.topic?.fields?.choices?.element?.fields ?? {})).toEqual(['value', 'label'])
  })

  it('a topic choice whose value is already taken is refused by the editor with the content check’s words', async () => {
    type Choice = { value: string; label: string }
    const state = await readEntry('contact')
    const form = state.salesForm as { fields: { topic: { choices: Choice[] } } }
    const choices = form.fields.topic.choices.map((choice) => (choice.value === 'security' ? { ...choice, value: 'Security!' } : choice))
    const edited = { ...state, salesForm: { ...form, fields: { ...form.fields, topic: { ...form.fields.topic, choices } } } }
    expect(editorProblems('contact', edited)).toEqual([
      'salesForm.fields.topic.choices.2.value: expected lower-case letters, digits, "-" and "+", such as "11-50", got "Security!"',
    ])
  })

  it('an emptied help text of the sales form is left out of the file (the field’s own serializer), which the page reads as no help', () => {
    const form = singletonSchema('contact').salesForm?.fields?.fields?.fields?.email?.fields?.help as AnyField
    expect(form.serialize('')).toEqual({})
    const source = read(CONTACT)
    expect(source).toContain('      help: We answer to this address.\n')
    const withoutHelp = source.replace('      help: We answer to this address.\n', '')
    expect(parseContentFile(CONTACT, withoutHelp, ContactFrontmatterSchema).data.salesForm.fields.email.help).toBeUndefined()
  })

  it('a date in the future is refused by the editor as by the content check', async () => {
    const { state } = await pricingState()
    expect(editorProblems('pricing', { ...state, updated: '2999-01-01' })).toEqual([
      'updated: expected a date no later than today (the day the text last changed), got "2999-01-01"',
    ])
  })

  it('a resource code other than its file name and a skill name other than its published path are refused by the editor with the content check’s words', async () => {
    const resource = await readEntry('resource-agent-boundaries')
    expect(editorProblems('resource-agent-boundaries', { ...resource, id: 'product-overview' })).toEqual([
      'id: expected "agent-boundaries" (the file name), got "product-overview"',
    ])
    const skill = await readEntry('skill')
    expect(editorProblems('skill', { ...skill, name: 'another-skill' })).toEqual([
      'name: expected "cadence-public-api" (the skill\'s published path), got "another-skill"',
    ])
  })

  it('the unchanged content passes the editor’s checks', async () => {
    for (const entry of EDITOR_SINGLETONS) expect(editorProblems(entry.key, await readEntry(entry.key))).toEqual([])
  })
})
