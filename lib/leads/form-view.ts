/**
 * The "Talk to sales" block as data for its one renderer, the React component that draws it on the
 * contact page and in the form route's answers (app/_components/lead-form.tsx): the form's fields with
 * their words, constraints and WebMCP descriptions, and what the block shows — the empty form, the form
 * again with what the visitor typed and a message at each wrong field, or a notice.
 *
 * The form is a declarative WebMCP tool (`toolname`, `tooldescription`, a `toolparamdescription` per
 * field): a browser's agent may fill it, and the visitor submits it. There is no `toolautosubmit`.
 */
import type { SalesFormContent } from '../content/frontmatter.ts'
import type { FieldControl, LeadChoices, LeadFieldName, LeadFormErrors, LeadFormFilling, LeadFormValues, VisitSource } from './form-fields.ts'
import { LEAD_FORM_TOOL_NAME } from '../routes/page-script-hooks.ts'

export interface LeadFormFieldView {
  name: LeadFieldName
  label: string
  help: string | null
  control: 'input' | 'textarea' | 'select'
  /** What the browser checks before sending; the server checks the same (lib/leads/form-fields.ts). */
  constraints: FieldControl
  autocomplete: string | null
  options: Array<{ value: string; label: string }>
  /** What the field means, for an agent filling the form through WebMCP. */
  toolParamDescription: string
}

export interface LeadFormView {
  heading: string
  intro: string
  submitLabel: string
  /** One sentence: what is stored, why and for how long (the retention setting filled in). */
  privacy: string
  /** What the route answers in the form's place where there is no durable store for leads. */
  unavailable: string
  email: string
  toolName: string
  toolDescription: string
  fields: LeadFormFieldView[]
  /** False where the deployment has no durable store for leads: the page then offers the email card only. */
  available: boolean
}

/** What the block shows: the empty form, the form again with the visitor's values and messages, or a notice. */
export type LeadFormState =
  | { kind: 'form'; values?: LeadFormValues; errors?: LeadFormErrors; message?: string; filling?: LeadFormFilling; source?: VisitSource }
  | { kind: 'notice'; title: string; text: string }

export const EMPTY_FORM: LeadFormState = { kind: 'form' }

const RETENTION_PLACEHOLDER = /\{\{\s*retention_days\s*\}\}/g

const AUTOCOMPLETE: Partial<Record<LeadFieldName, string>> = { name: 'name', email: 'email', company: 'organization' }
const CONTROL: Record<LeadFieldName, LeadFormFieldView['control']> = {
  name: 'input',
  email: 'input',
  company: 'input',
  teamSize: 'select',
  goal: 'textarea',
  topic: 'select',
  plan: 'select',
}
const TOOL_PARAMS: Record<LeadFieldName, string> = {
  name: "The visitor's full name.",
  email: "The visitor's work email address, where the answer goes.",
  company: "The visitor's company or organisation.",
  teamSize: 'How many people the team or cohort has, as one of the listed ranges.',
  goal: 'What the visitor wants to achieve, in their own words.',
  topic: 'What the message is about, as one of the listed topics.',
  plan: 'The plan the visitor asks about, if any (empty for no particular plan).',
}

export function buildLeadFormView(input: {
  form: SalesFormContent
  email: string
  plans: ReadonlyArray<{ id: string; name: string }>
  choices: LeadChoices
  controls: Record<LeadFieldName, FieldControl>
  retentionDays: number
  available: boolean
}): LeadFormView {
  const { form, plans, controls } = input
  const options: Partial<Record<LeadFieldName, Array<{ value: string; label: string }>>> = {
    teamSize: form.fields.teamSize.choices,
    topic: form.fields.topic.choices,
    plan: [{ value: '', label: form.fields.plan.none }, ...plans.map((plan) => ({ value: plan.id, label: plan.name }))],
  }
  return {
    heading: form.heading,
    intro: form.intro,
    submitLabel: form.submitLabel,
    privacy: form.privacy.replace(RETENTION_PLACEHOLDER, String(input.retentionDays)),
    unavailable: form.unavailable,
    email: input.email,
    toolName: LEAD_FORM_TOOL_NAME,
    toolDescription:
      'Asks the sales team to get in touch: fills the "Talk to sales" form on this page with the visitor\'s name, work email, ' +
      'company, team or cohort size, goal and topic. The visitor reviews and sends it; an answer comes by email.',
    available: input.available,
    fields: (Object.keys(CONTROL) as LeadFieldName[]).map((name) => ({
      name,
      label: form.fields[name].label,
      help: form.fields[name].help ?? null,
      control: CONTROL[name],
      constraints: controls[name],
      autocomplete: AUTOCOMPLETE[name] ?? null,
      options: options[name] ?? [],
      toolParamDescription: TOOL_PARAMS[name],
    })),
  }
}
