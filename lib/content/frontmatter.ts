/**
 * What the marketing team may write in the frontmatter of each file under `content/`.
 * A wrong field fails `npm run build` (and shows in `npm run dev`) with the file, the line, the field
 * and what is expected (lib/content/load.ts).
 */
import { z } from 'zod'
import { PUBLIC_RESOURCE_IDS } from '../contract/constants.ts'

const text = z.string().trim().min(1)
const shortText = (max: number) => text.max(max, `at most ${max} characters`)

/** A day after today in UTC still counts as today: the editor may be ahead of UTC. */
const LATEST_DAY_AHEAD_MS = 86_400_000

/**
 * The day a page's text last changed, written by whoever changes it: agents read it as the Markdown
 * answer's `last_updated` and crawlers as the sitemap's `lastmod`. It is kept in the file because
 * neither the build date (a rebuild changes no text) nor git history (Vercel builds from a shallow
 * clone, a self-hosted copy may have none) says when the text changed.
 */
const DATE_FORMAT = /^\d{4}-\d{2}-\d{2}$/

export const contentDate = z
  .string()
  .regex(DATE_FORMAT, 'a date written YYYY-MM-DD, e.g. 2026-11-24')
  .superRefine((value, context) => {
    if (!DATE_FORMAT.test(value)) return
    const time = Date.parse(`${value}T00:00:00Z`)
    if (Number.isNaN(time) || !new Date(time).toISOString().startsWith(value))
      context.addIssue({ code: 'custom', message: `expected a real calendar date, got "${value}"` })
    else if (time > Date.now() + LATEST_DAY_AHEAD_MS)
      context.addIssue({ code: 'custom', message: `expected a date no later than today (the day the text last changed), got "${value}"` })
  })

export const PageFrontmatterSchema = z.strictObject({
  title: shortText(80),
  description: shortText(200),
  updated: contentDate,
})

export const HomeFrontmatterSchema = PageFrontmatterSchema.extend({
  tagline: shortText(120),
  /** The hero's calls to action: start (the free plan's sign-up) and see pricing. */
  startLabel: shortText(40),
  pricingLabel: shortText(40),
  /** The execution loop the hero draws, step by step. */
  loop: z.array(shortText(24)).min(3).max(6),
})

export const ResourceFrontmatterSchema = z.strictObject({
  id: z.enum(PUBLIC_RESOURCE_IDS),
  name: shortText(80),
  description: shortText(300),
})

/** An Agent Skill (agentskills.io): `name` is the skill's directory name in the skills index. */
export const SkillFrontmatterSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lower-case letters, digits and single hyphens')
    .max(64, 'at most 64 characters'),
  description: shortText(1024),
})

export const PlanSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a lower-case slug such as "team"'),
  name: shortText(40),
  priceMonthlyUsd: z.number().nonnegative().nullable().describe('0 means free; null means priced on request (contact sales)'),
  priceNote: shortText(80),
  summary: shortText(200),
  features: z.array(shortText(120)).min(1),
  cta: z.enum(['signup', 'contact']),
  ctaLabel: shortText(40),
})
export type Plan = z.infer<typeof PlanSchema>

export const PricingFrontmatterSchema = PageFrontmatterSchema.extend({
  plans: z
    .array(PlanSchema)
    .min(1)
    .superRefine((plans, context) => {
      const seen = new Set<string>()
      plans.forEach((plan, index) => {
        if (seen.has(plan.id))
          context.addIssue({
            code: 'custom',
            path: [index, 'id'],
            message: `"${plan.id}" is already the id of another plan; plan ids must be unique`,
          })
        seen.add(plan.id)
      })
    }),
})

/** A choice of a select: the value the form sends (and the lead keeps) and the label visitors read. */
const ChoiceSchema = z.strictObject({
  value: z.string().regex(/^[a-z0-9][a-z0-9+-]*$/, 'lower-case letters, digits, "-" and "+", such as "11-50"'),
  label: shortText(60),
})

const uniqueChoices = z
  .array(ChoiceSchema)
  .min(2)
  .max(12)
  .superRefine((choices, context) => {
    const seen = new Set<string>()
    choices.forEach((choice, index) => {
      if (seen.has(choice.value))
        context.addIssue({ code: 'custom', path: [index, 'value'], message: `"${choice.value}" is already the value of another choice` })
      seen.add(choice.value)
    })
  })

/** A field of the sales form: its label and an optional help text under it. */
const FormFieldSchema = z.strictObject({ label: shortText(60), help: shortText(160).optional() })
const ChoiceFieldSchema = FormFieldSchema.extend({ choices: uniqueChoices })

/**
 * The words of the "Talk to sales" form on the contact page (lib/leads/form-fields.ts states what
 * each field accepts). `privacy` may name the retention period as `{{retention_days}}`.
 */
export const SalesFormSchema = z.strictObject({
  heading: shortText(60),
  intro: shortText(300),
  submitLabel: shortText(40),
  privacy: shortText(300),
  /** Shown instead of the form where the deployment has no durable store for leads. */
  unavailable: shortText(200),
  fields: z.strictObject({
    name: FormFieldSchema,
    email: FormFieldSchema,
    company: FormFieldSchema,
    teamSize: ChoiceFieldSchema,
    goal: FormFieldSchema,
    topic: ChoiceFieldSchema,
    /** The plan choice lists the pricing page's plans; `none` labels "no particular plan". */
    plan: FormFieldSchema.extend({ none: shortText(60) }),
  }),
  /** The thank-you page a good submission lands on. */
  thanks: z.strictObject({ title: shortText(80), text: shortText(300), backLabel: shortText(60) }),
})
export type SalesFormContent = z.infer<typeof SalesFormSchema>

export const ContactFrontmatterSchema = PageFrontmatterSchema.extend({
  email: z.email(),
  responseTime: shortText(80),
  salesForm: SalesFormSchema,
})

export const LoginFrontmatterSchema = PageFrontmatterSchema.extend({
  loginLabel: shortText(40),
  signupLabel: shortText(40),
})

/**
 * How errors name one entry of a list field: a plan is `plan "Team"` (by its name, else its id), the
 * third feature `feature 3`, rather than `plans.1` or `features.2`.
 */
export const LIST_ENTRY_NOUNS: Readonly<Record<string, string>> = { plans: 'plan', features: 'feature', choices: 'choice' }
