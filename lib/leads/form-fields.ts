/**
 * The "Talk to sales" form, stated once: which fields it has and what each accepts (a zod schema the
 * server checks every submission against), with the words of content/pages/contact.md and the plans
 * of content/pages/pricing.md. The HTML constraints (required, maxlength, type=email, the options of
 * a select) are read from the JSON Schema of the same zod schema (`fieldControls`), so the browser's
 * early check and the server's verdict cannot disagree about what is allowed.
 */
import { z } from 'zod'
import type { SalesFormContent } from '../content/frontmatter.ts'
import {
  AGENT_FILL_FIELD,
  AGENT_FILL_VALUE,
  CAMPAIGN_PARAMETERS,
  FILL_TIME_FIELD,
  LANDING_PAGE_FIELD,
  REFERRER_FIELD,
} from '../routes/page-script-hooks.ts'
import { MULTI_LINE_FORBIDDEN, SINGLE_LINE_FORBIDDEN } from './control-characters.ts'
import type { LeadAttribution, LeadFields, SpamReason } from './lead.ts'

/** Where the form posts: a route of the site, outside the read-only agent API, and no page path. */
export { LEAD_FORM_PATH } from '../routes/site-pages.ts'
/** Where a good submission lands: prerendered, noindex, in no sitemap or index. */
export const LEAD_THANKS_PATH = '/contact/thanks'

/** A field people never see (it sits off-screen): anything typed into it marks a submission as spam. */
export const HONEYPOT_FIELD = 'website'
/** Faster than this from load to submit is a script, not a person typing. */
const MIN_FILL_MS = 3000

/** The most bytes of a submission: a 10 000-character message of emoji, percent-encoded, fits. */
export const LEAD_FORM_MAX_BODY_BYTES = 192 * 1024

const LEAD_FIELD_NAMES = ['name', 'email', 'company', 'teamSize', 'goal', 'topic', 'plan'] as const
export type LeadFieldName = (typeof LEAD_FIELD_NAMES)[number]

/** What the lead's choice fields may hold: the content's choice values and the pricing plans' ids. */
export interface LeadChoices {
  teamSize: readonly string[]
  topic: readonly string[]
  plan: readonly string[]
}

const notBlank = (value: string) => value.trim().length > 0

const CONTROL_CHARACTERS_MESSAGE = 'Please remove the invisible control characters (such as text-direction overrides) from this field.'

/**
 * A text field: required, at most `max` characters, not only spaces, no control characters (a goal
 * may have tabs and line breaks, lib/leads/control-characters.ts); kept exactly as typed.
 */
function requiredText(max: number, missing: string, lines: 'single' | 'multiple' = 'single') {
  const forbidden = lines === 'single' ? SINGLE_LINE_FORBIDDEN : MULTI_LINE_FORBIDDEN
  return z
    .string({ error: missing })
    .min(1, { error: missing })
    .max(max, { error: `Please keep this under ${max.toLocaleString('en')} characters.` })
    .refine(notBlank, { error: missing })
    .refine((value) => !forbidden.test(value), { error: CONTROL_CHARACTERS_MESSAGE })
}

function choice(values: readonly string[], missing: string) {
  return z.enum(values as [string, ...string[]], { error: missing })
}

/** Each field's rule, with the message a visitor reads beside the field when it is wrong. */
function leadFieldSchemas(choices: LeadChoices) {
  return {
    name: requiredText(120, 'Please tell us your name.'),
    email: z
      .email({ error: 'Please enter an email address such as name@company.com.' })
      .max(254, { error: 'Please enter an email address of at most 254 characters.' }),
    company: requiredText(160, 'Please tell us your company or organisation.'),
    teamSize: choice(choices.teamSize, 'Please choose the size of your team or cohort.'),
    goal: requiredText(10_000, 'Please tell us what you want to achieve.', 'multiple'),
    topic: choice(choices.topic, 'Please choose a topic.'),
    plan: choice(choices.plan, 'Please choose one of the plans, or no particular plan.').optional(),
  } satisfies Record<LeadFieldName, z.ZodType>
}

/** Built once per deployment's choices (lib/leads/form.ts): building a zod schema costs more than checking a post with it. */
export function leadSubmissionSchema(choices: LeadChoices) {
  return z.strictObject(leadFieldSchemas(choices))
}
export type LeadSubmissionSchema = ReturnType<typeof leadSubmissionSchema>

export function leadChoicesOf(form: SalesFormContent, planIds: readonly string[]): LeadChoices {
  return {
    teamSize: form.fields.teamSize.choices.map((entry) => entry.value),
    topic: form.fields.topic.choices.map((entry) => entry.value),
    plan: planIds,
  }
}

/** What a visitor typed, field by field, as the form sends it (an empty plan is "no particular plan"). */
export type LeadFormValues = Partial<Record<LeadFieldName, string>>
/** The message beside each wrong field. */
export type LeadFormErrors = Partial<Record<LeadFieldName, string>>

export type LeadFormVerdict = { ok: true; fields: LeadFields } | { ok: false; errors: LeadFormErrors }

/** The server's verdict on a submission's values: the lead's fields, or a message for each wrong field. */
export function checkLeadForm(values: LeadFormValues, schema: LeadSubmissionSchema): LeadFormVerdict {
  // A missing field is an empty one (its message says what to fill in); an empty plan is no plan.
  const input: Record<string, string> = {}
  for (const name of LEAD_FIELD_NAMES) {
    const value = values[name]
    if (name !== 'plan') input[name] = value ?? ''
    else if (value) input[name] = value
  }
  const result = schema.safeParse(input)
  if (result.success) {
    const { plan, ...rest } = result.data
    return { ok: true, fields: { ...rest, plan: plan ?? null } }
  }
  const errors: LeadFormErrors = {}
  for (const issue of result.error.issues) {
    const field = issue.path[0] as LeadFieldName
    errors[field] ??= issue.message
  }
  return { ok: false, errors }
}

/** How the form was filled, as the page script stamped it: carried into the form when it is shown again. */
export interface LeadFormFilling {
  /** Milliseconds spent filling it; null without the page script. */
  fillMs: number | null
  /** AGENT_FILL_VALUE when the browser's agent filled it through WebMCP. */
  filledBy: typeof AGENT_FILL_VALUE | null
}

type CampaignParameter = (typeof CAMPAIGN_PARAMETERS)[number]

/**
 * Where the visit came from, as a post carries it (or the contact page's URL tells, without the page
 * script): each value checked and bounded, and null when absent or not what it should be. A visitor
 * never gets an error for these: they come from a link, not from what the visitor typed.
 */
export interface VisitSource {
  campaign: Record<CampaignParameter, string | null>
  landingPage: string | null
  referrerOrigin: string | null
}

export interface SubmittedLeadForm {
  values: LeadFormValues
  honeypot: string
  filling: LeadFormFilling
  source: VisitSource
}

const printable = (value: string) => !SINGLE_LINE_FORBIDDEN.test(value)
const CAMPAIGN_VALUE = z.string().min(1).max(200).refine(printable)
/** A path of this site (not `//host`), without its query or fragment, which could quote what a visitor typed elsewhere. */
const LANDING_PAGE = z
  .string()
  .max(512)
  .regex(/^\/(?!\/)[^?#\s]*$/)
  .refine(printable)
const REFERRER_ORIGIN = z
  .url({ protocol: /^https?$/ })
  .max(256)
  .transform((value) => new URL(value).origin)

const checked = <T>(schema: z.ZodType<T>, value: string | null): T | null => {
  if (value === null) return null
  const result = schema.safeParse(value)
  return result.success ? result.data : null
}

function campaignOf(params: URLSearchParams): VisitSource['campaign'] {
  return Object.fromEntries(CAMPAIGN_PARAMETERS.map((name) => [name, checked(CAMPAIGN_VALUE, params.get(name))])) as VisitSource['campaign']
}

/** The source a post carries in its hidden fields (the page script's, or carried by a form shown again). */
function submittedSource(params: URLSearchParams): VisitSource {
  return {
    campaign: campaignOf(params),
    landingPage: checked(LANDING_PAGE, params.get(LANDING_PAGE_FIELD)),
    referrerOrigin: checked(REFERRER_ORIGIN, params.get(REFERRER_FIELD)),
  }
}

/**
 * Without the page script: the contact page's own URL, as the post's `Referer` gives it when it is a
 * page of this site (`siteOrigins`), is where the visit is known to have been: its campaign parameters
 * and its path. The site that referred the visit there is not known.
 */
export function sourceFromReferer(referer: string | null, siteOrigins: readonly string[]): VisitSource | null {
  if (!referer || !URL.canParse(referer)) return null
  const url = new URL(referer)
  if (!siteOrigins.includes(url.origin)) return null
  return { campaign: campaignOf(url.searchParams), landingPage: checked(LANDING_PAGE, url.pathname), referrerOrigin: null }
}

/** What is kept of a post's source: what it carried, else what its Referer says, with the WebMCP mark. */
export function leadAttribution(submitted: Pick<SubmittedLeadForm, 'source' | 'filling'>, fromReferer: VisitSource | null): LeadAttribution {
  const source = submitted.source.landingPage === null && fromReferer ? fromReferer : submitted.source
  return {
    utmSource: source.campaign.utm_source,
    utmMedium: source.campaign.utm_medium,
    utmCampaign: source.campaign.utm_campaign,
    utmTerm: source.campaign.utm_term,
    utmContent: source.campaign.utm_content,
    landingPage: source.landingPage,
    referrerOrigin: source.referrerOrigin,
    viaWebMcp: submitted.filling.filledBy === AGENT_FILL_VALUE,
  }
}

/** The source to carry in a form shown again: the one that will be kept. */
export function carriedSource(attribution: LeadAttribution): VisitSource {
  return {
    campaign: {
      utm_source: attribution.utmSource,
      utm_medium: attribution.utmMedium,
      utm_campaign: attribution.utmCampaign,
      utm_term: attribution.utmTerm,
      utm_content: attribution.utmContent,
    },
    landingPage: attribution.landingPage,
    referrerOrigin: attribution.referrerOrigin,
  }
}

/** The submitted form's values (the first of each name; unknown names are ignored), the honeypot and how it was filled. */
export function readLeadForm(body: string): SubmittedLeadForm {
  const params = new URLSearchParams(body)
  const values: LeadFormValues = {}
  for (const name of LEAD_FIELD_NAMES) {
    const value = params.get(name)
    if (value !== null) values[name] = value
  }
  const fill = params.get(FILL_TIME_FIELD)
  const fillMs = fill !== null && /^\d{1,12}$/.test(fill) ? Number(fill) : null
  const filledBy = params.get(AGENT_FILL_FIELD) === AGENT_FILL_VALUE ? AGENT_FILL_VALUE : null
  return { values, honeypot: params.get(HONEYPOT_FIELD) ?? '', filling: { fillMs, filledBy }, source: submittedSource(params) }
}

/**
 * Why a submission looks like spam, or null: the honeypot filled, or sent faster than a person types.
 * A form the browser's agent filled is sent by the visitor, maybe a second later: its speed says
 * nothing. Without the page script there is no fill time, and the rule does not apply.
 */
export function spamReasonOf(form: Pick<SubmittedLeadForm, 'honeypot' | 'filling'>): SpamReason | null {
  if (form.honeypot !== '') return 'honeypot'
  const { fillMs, filledBy } = form.filling
  if (filledBy === null && fillMs !== null && fillMs < MIN_FILL_MS) return 'too-fast'
  return null
}

/** A field's HTML constraints, read from the JSON Schema of its zod rule. */
export interface FieldControl {
  required: boolean
  maxLength: number | null
  email: boolean
  /** The allowed values of a choice field. */
  values: string[] | null
}

interface JsonSchemaString {
  type?: string
  maxLength?: number
  minLength?: number
  format?: string
  enum?: string[]
}

export function fieldControls(submission: LeadSubmissionSchema): Record<LeadFieldName, FieldControl> {
  const schema = z.toJSONSchema(submission, { unrepresentable: 'any' }) as {
    properties: Record<LeadFieldName, JsonSchemaString>
    required?: string[]
  }
  const required = new Set(schema.required ?? [])
  return Object.fromEntries(
    LEAD_FIELD_NAMES.map((name) => {
      const property = schema.properties[name]
      return [
        name,
        {
          required: required.has(name),
          maxLength: property.maxLength ?? null,
          email: property.format === 'email',
          values: property.enum ?? null,
        },
      ]
    }),
  ) as Record<LeadFieldName, FieldControl>
}
