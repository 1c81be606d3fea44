/**
 * The visual editor (keystatic.config.ts) against the content check: every file opens and saves
 * unchanged through Keystatic's own field parsers and YAML writer, an edit changes only its lines,
 * the editor's fields are the schema's fields with the schema's limits, and a value the content check
 * refuses is refused in the editor with the same words, before anything is written.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { EDITOR_SINGLETONS } from '../../lib/content/editor-entries.ts'
import { contentFilePaths } from '../../lib/content/content-files.ts'
import { ContactFrontmatterSchema, PlanSchema, PricingFrontmatterSchema, SalesFormSchema } from '../../lib/content/frontmatter.ts'
import { parseContentFile } from '../../lib/content/parse.ts'
import { ContentError } from '../../lib/content/site-content.ts'
import { EDITOR_CONFIG, editorProblems, openEntry, saveEntry, singletonSchema } from '../support/keystatic-round-trip.ts'
import { projectRoot } from '../../harness/paths.ts'

const read = (file: string) => readFileSync(path.join(projectRoot, file), 'utf8')
const PRICING = 'content/pages/pricing.md'
const CONTACT = 'content/pages/contact.md'

/** Lines of `after` that differ from `before`, as [line number, text] (same line count assumed). */
function changedLines(before: string, after: string): Array<[number, string]> {
  const a = before.split('\n')
  const b = after.split('\n')
  expect(b.length).toBe(a.length)
  return b.flatMap((line, index) => (line === a[index] ? [] : [[index + 1, line] as [number, string]]))
}

type Plan = z.infer<typeof PlanSchema>

function pricingState() {
  const state = openEntry('pricing', read(PRICING))
  return { state, plans: state.plans as Plan[] }
}

describe('the visual editor over content/', () => {
  it('has one entry for every file the site reads, and nothing else', () => {
    expect(EDITOR_SINGLETONS.map((entry) => entry.file).sort()).toEqual(contentFilePaths().sort())
    expect(Object.keys(EDITOR_CONFIG.singletons ?? {})).toEqual(EDITOR_SINGLETONS.map((entry) => entry.key))
  })

  it.each(EDITOR_SINGLETONS.map((entry) => [entry.file, entry.key]))('%s: opening and saving it unchanged writes the same bytes', (file, key) => {
    const source = read(file)
    expect(saveEntry(key, openEntry(key, source))).toBe(source)
  })

  it('keeps tables, code spans, links and {{placeholders}} of a body byte for byte', () => {
    const source = read('content/resources/developer-resources.md')
    const body = openEntry('resource-developer-resources', source).body as string
    expect(body).toContain('| OpenAPI 3.1.1 description | {{base_url}}/openapi.json | `application/vnd.oai.openapi+json` |')
    expect(read('content/pages/login.md')).toContain('[developer index]({{base_url}}/developers.md)')
    expect(saveEntry('login', openEntry('login', read('content/pages/login.md')))).toContain('[developer index]({{base_url}}/developers.md)')
  })

  it('changing the Team plan price changes only that line of pricing.md', () => {
    const source = read(PRICING)
    const { state, plans } = pricingState()
    const saved = saveEntry('pricing', { ...state, plans: plans.map((plan) => (plan.id === 'team' ? { ...plan, priceMonthlyUsd: 15 } : plan)) })
    expect(changedLines(source, saved)).toEqual([[21, '    priceMonthlyUsd: 15']])
    expect(parseContentFile(PRICING, saved, PricingFrontmatterSchema).data.plans[1]?.priceMonthlyUsd).toBe(15)
  })

  it('changing the title changes only the title line; "on request" (null) and the folded description stay', () => {
    const source = read(PRICING)
    const { state } = pricingState()
    const saved = saveEntry('pricing', { ...state, title: 'Plans and prices' })
    expect(changedLines(source, saved)).toEqual([[2, 'title: Plans and prices']])
    expect(saved).toContain('    priceMonthlyUsd: null\n')
    expect(parseContentFile(PRICING, saved, PricingFrontmatterSchema).data.plans.map((plan) => plan.priceMonthlyUsd)).toEqual([0, 12, null])
  })

  it('emptying a price writes null, which the site reads as priced on request', () => {
    const { state, plans } = pricingState()
    const saved = saveEntry('pricing', { ...state, plans: plans.map((plan) => (plan.id === 'team' ? { ...plan, priceMonthlyUsd: null } : plan)) })
    expect(parseContentFile(PRICING, saved, PricingFrontmatterSchema).data.plans[1]?.priceMonthlyUsd).toBeNull()
  })
})

describe('one statement of the rules: the editor fields are the zod schemas', () => {
  type Field = { kind: string; fields?: Record<string, Field>; element?: Field; formKind?: string; options?: Array<{ value: string }> }
  const shapeOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: { shape: Record<string, z.ZodType> } } })._zod.def.shape

  it.each(EDITOR_SINGLETONS.map((entry) => [entry.key, entry]))('%s: the same fields, in the schema order, plus the body', (key, entry) => {
    const schema = singletonSchema(key) as unknown as Record<string, Field>
    expect(Object.keys(schema)).toEqual([...Object.keys(shapeOf(entry.schema)), 'body'])
    expect(schema.body?.formKind).toBe('content')
  })

  it('every plan field of the editor is a field of PlanSchema and the other way round; cta offers the allowed values', () => {
    const schema = singletonSchema('pricing') as unknown as Record<string, Field>
    const plan = schema.plans?.element as Field
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
  ])('%s is refused by the editor with the content check’s words', (_name, change, message) => {
    const { state, plans } = pricingState()
    const edited = { ...state, plans: plans.map((plan) => (plan.id === 'team' ? change(plan) : plan)) }
    const problems = editorProblems('pricing', edited)
    expect(problems.some((problem) => problem.includes(message))).toBe(true)
    // The content check says the same of the file that would have been written.
    const file = `---\n${JSON.stringify({ ...edited, body: undefined })}\n---\n${state.body as string}`
    expect(() => parseContentFile(PRICING, file, PricingFrontmatterSchema)).toThrow(ContentError)
    expect(() => parseContentFile(PRICING, file, PricingFrontmatterSchema)).toThrow(message)
  })

  it('a price written as a word in the file opens as written and is refused with the content check’s words until replaced', () => {
    const source = read(PRICING).replace('    priceMonthlyUsd: 12\n', '    priceMonthlyUsd: twelve\n')
    const state = openEntry('pricing', source)
    expect((state.plans as Plan[])[1]?.priceMonthlyUsd).toBe('twelve')
    expect(editorProblems('pricing', state)).toEqual(['plans.1.priceMonthlyUsd: expected a number, got "twelve"'])
    expect(() => parseContentFile(PRICING, source, PricingFrontmatterSchema)).toThrow(
      'plan "Team" › priceMonthlyUsd: expected a number, got "twelve"',
    )
    const plans = (state.plans as Plan[]).map((plan) => (plan.id === 'team' ? { ...plan, priceMonthlyUsd: 12 } : plan))
    expect(saveEntry('pricing', { ...state, plans })).toBe(read(PRICING))
  })

  it('a button value outside the allowed ones opens as written and is refused with the content check’s words', () => {
    const source = read(PRICING).replace('    cta: signup\n    ctaLabel: Start a team\n', '    cta: call-us\n    ctaLabel: Start a team\n')
    expect(source).not.toBe(read(PRICING))
    expect(editorProblems('pricing', openEntry('pricing', source))).toEqual(['plans.1.cta: expected one of signup, contact, got "call-us"'])
  })

  it('a plan the content check would refuse says why in the list of plans, in the content check’s words', () => {
    const list = singletonSchema('pricing').plans as unknown as { itemLabel: (preview: unknown) => string }
    // What Keystatic hands itemLabel: the entry's preview, each field holding its value.
    const preview = (plan: Plan) => ({
      fields: Object.fromEntries(
        Object.entries(plan).map(([key, value]) => [key, Array.isArray(value) ? { elements: value.map((item) => ({ value: item })) } : { value }]),
      ),
    })
    const team = pricingState().plans.find((plan) => plan.id === 'team') as Plan
    expect(list.itemLabel(preview(team))).toBe('Team')
    expect(list.itemLabel(preview({ ...team, name: '' }))).toBe('Plans — name: expected text, got an empty value')
    expect(list.itemLabel(preview({ ...team, features: ['Unlimited goals', 'x'.repeat(121)] }))).toBe(
      'Team — feature 2: at most 120 characters (this has 121)',
    )
  })

  it('the sales form of the contact page has the fields of SalesFormSchema, its parts and its choices', () => {
    const schema = singletonSchema('contact') as unknown as Record<string, Field>
    const form = schema.salesForm as Field
    expect(Object.keys(form.fields ?? {})).toEqual(Object.keys(SalesFormSchema.shape))
    expect(Object.keys(form.fields?.fields?.fields ?? {})).toEqual(Object.keys(SalesFormSchema.shape.fields.shape))
    expect(Object.keys(form.fields?.thanks?.fields ?? {})).toEqual(Object.keys(SalesFormSchema.shape.thanks.shape))
    expect(Object.keys(form.fields?.fields?.fields?.topic?.fields?.choices?.element?.fields ?? {})).toEqual(['value', 'label'])
  })

  it('a topic choice whose value is already taken is refused by the editor with the content check’s words', () => {
    type Choice = { value: string; label: string }
    const state = openEntry('contact', read(CONTACT))
    const form = state.salesForm as { fields: { topic: { choices: Choice[] } } }
    const choices = form.fields.topic.choices.map((choice) => (choice.value === 'security' ? { ...choice, value: 'Security!' } : choice))
    const edited = { ...state, salesForm: { ...form, fields: { ...form.fields, topic: { ...form.fields.topic, choices } } } }
    expect(editorProblems('contact', edited)).toEqual([
      'salesForm.fields.topic.choices.2.value: expected lower-case letters, digits, "-" and "+", such as "11-50", got "Security!"',
    ])
  })

  it('emptying a help text of the sales form removes only its line, and the page reads it as no help', () => {
    const source = read(CONTACT)
    const state = openEntry('contact', source)
    const form = state.salesForm as { fields: { email: { label: string; help: string } } }
    const saved = saveEntry('contact', { ...state, salesForm: { ...form, fields: { ...form.fields, email: { ...form.fields.email, help: '' } } } })
    expect(source.replace('      help: We answer to this address.\n', '')).toBe(saved)
    expect(parseContentFile(CONTACT, saved, ContactFrontmatterSchema).data.salesForm.fields.email.help).toBeUndefined()
  })

  it('a date in the future is refused by the editor as by the content check', () => {
    const { state } = pricingState()
    expect(editorProblems('pricing', { ...state, updated: '2999-01-01' })).toEqual([
      'updated: expected a date no later than today (the day the text last changed), got "2999-01-01"',
    ])
  })

  it('a resource code other than its file name and a skill name other than its published path are refused by the editor with the content check’s words', () => {
    const resource = openEntry('resource-agent-boundaries', read('content/resources/agent-boundaries.md'))
    expect(editorProblems('resource-agent-boundaries', { ...resource, id: 'product-overview' })).toEqual([
      'id: expected "agent-boundaries" (the file name), got "product-overview"',
    ])
    const skill = openEntry('skill', read('content/agent-skills/cadence-public-api.md'))
    expect(editorProblems('skill', { ...skill, name: 'another-skill' })).toEqual([
      'name: expected "cadence-public-api" (the skill\'s published path), got "another-skill"',
    ])
  })

  it('the unchanged content passes the editor’s checks', () => {
    for (const entry of EDITOR_SINGLETONS) expect(editorProblems(entry.key, openEntry(entry.key, read(entry.file)))).toEqual([])
  })
})
