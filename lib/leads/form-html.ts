/**
 * The "Talk to sales" block of the contact page as HTML, rendered by one function
 * (`renderLeadFormSlot`) for both of its uses: the prerendered page (app/_components/page-view.tsx puts
 * it in as it is) and the form route's answers (lib/leads/form-page.ts), which put the same block,
 * filled with what the visitor typed and a message at each wrong field, or a notice, in its place.
 * Everything a visitor typed is escaped here; nothing else renders the form.
 *
 * The form is a declarative WebMCP tool (`toolname`, `tooldescription`, a `toolparamdescription` per
 * field): a browser's agent may fill it, and the visitor submits it. There is no `toolautosubmit`.
 */
import type { SalesFormContent } from '../content/frontmatter.ts'
import type { FieldControl, LeadChoices, LeadFieldName, LeadFormErrors, LeadFormFilling, LeadFormValues } from './form-fields.ts'
import { AGENT_FILL_FIELD, FILL_TIME_FIELD, HONEYPOT_FIELD, LEAD_FORM_ID, LEAD_FORM_PATH, LEAD_FORM_TOOL_NAME } from './form-fields.ts'

/** Where the block starts and ends in a page's HTML, so the route's answer can put another in its place. */
export const LEAD_SLOT_START = `<!--${LEAD_FORM_ID}-->`
export const LEAD_SLOT_END = `<!--/${LEAD_FORM_ID}-->`

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
export type LeadSlotState =
  | { kind: 'form'; values?: LeadFormValues; errors?: LeadFormErrors; message?: string; filling?: LeadFormFilling }
  | { kind: 'notice'; title: string; text: string }

export const EMPTY_FORM: LeadSlotState = { kind: 'form' }

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

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text and attribute values as HTML: every character that could start markup or end an attribute, escaped. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ESCAPES[character] as string)
}

const attribute = (name: string, value: string | number | null | boolean): string => {
  if (value === null || value === false) return ''
  if (value === true) return ` ${name}`
  return ` ${name}="${escapeHtml(String(value))}"`
}

const fieldId = (name: LeadFieldName) => `lead-${name}`

function renderField(field: LeadFormFieldView, value: string, error: string | undefined): string {
  const id = fieldId(field.name)
  const helpId = field.help ? `${id}-help` : null
  const errorId = error ? `${id}-error` : null
  const describedBy = [errorId, helpId].filter(Boolean).join(' ') || null
  const { constraints } = field
  const common =
    attribute('id', id) +
    attribute('name', field.name) +
    attribute('required', constraints.required) +
    attribute('aria-invalid', error ? 'true' : null) +
    attribute('aria-describedby', describedBy) +
    attribute('toolparamdescription', field.toolParamDescription)
  let control: string
  if (field.control === 'select') {
    const options = field.options
      .map(
        (option) => `<option${attribute('value', option.value)}${attribute('selected', option.value === value)}>${escapeHtml(option.label)}</option>`,
      )
      .join('')
    // A required choice starts on an empty, disabled prompt, so nobody sends the first range by accident.
    const chosen = field.options.some((option) => option.value === value)
    const prompt = constraints.required ? `<option value="" disabled${chosen ? '' : ' selected'}>Choose…</option>` : ''
    control = `<select${common}>${prompt}${options}</select>`
  } else if (field.control === 'textarea') {
    control = `<textarea${common}${attribute('maxlength', constraints.maxLength)} rows="6">${escapeHtml(value)}</textarea>`
  } else {
    control =
      `<input${common}${attribute('type', constraints.email ? 'email' : 'text')}` +
      `${attribute('maxlength', constraints.maxLength)}${attribute('autocomplete', field.autocomplete)}${attribute('value', value)}>`
  }
  return (
    `<p class="lead-field${error ? ' lead-field-invalid' : ''}">` +
    `<label${attribute('for', id)}>${escapeHtml(field.label)}${constraints.required ? '' : ' <span class="lead-optional">(optional)</span>'}</label>` +
    (error ? `<span class="lead-error"${attribute('id', errorId)}>${escapeHtml(error)}</span>` : '') +
    control +
    (field.help ? `<span class="lead-help"${attribute('id', helpId)}>${escapeHtml(field.help)}</span>` : '') +
    '</p>'
  )
}

function renderForm(
  view: LeadFormView,
  values: LeadFormValues,
  errors: LeadFormErrors,
  message: string | undefined,
  filling: LeadFormFilling | undefined,
): string {
  const headingId = `${LEAD_FORM_ID}-heading`
  const wrong = view.fields.filter((field) => errors[field.name]).length
  const text =
    message ??
    (wrong > 0
      ? wrong === 1
        ? 'One field needs another look; the message is beside it.'
        : `${wrong} fields need another look; the messages are beside them.`
      : null)
  const summary = text ? `<p class="lead-summary" role="alert">${escapeHtml(text)}</p>` : ''
  return (
    `<form class="card lead-form"${attribute('id', LEAD_FORM_ID)} method="post"${attribute('action', LEAD_FORM_PATH)}` +
    `${attribute('toolname', view.toolName)}${attribute('tooldescription', view.toolDescription)}${attribute('aria-labelledby', headingId)}>` +
    `<h2${attribute('id', headingId)}>${escapeHtml(view.heading)}</h2>` +
    `<p class="lead-intro">${escapeHtml(view.intro)}</p>` +
    summary +
    view.fields.map((field) => renderField(field, values[field.name] ?? '', errors[field.name])).join('') +
    // Off-screen: people never fill it; scripts that fill every field do.
    `<p class="lead-trap"><label for="lead-${HONEYPOT_FIELD}">Leave this field empty</label>` +
    `<input id="lead-${HONEYPOT_FIELD}" name="${HONEYPOT_FIELD}" type="text" tabindex="-1" autocomplete="off" value=""></p>` +
    // Shown again, the form carries how it was filled so far: the time goes on from there.
    `<input type="hidden" name="${FILL_TIME_FIELD}"${attribute('value', filling?.fillMs ?? '')}>` +
    `<input type="hidden" name="${AGENT_FILL_FIELD}"${attribute('value', filling?.filledBy ?? '')}>` +
    `<p class="lead-privacy">${escapeHtml(view.privacy)}</p>` +
    `<p><button class="button" type="submit">${escapeHtml(view.submitLabel)}</button></p>` +
    '</form>'
  )
}

function renderNotice(view: LeadFormView, title: string, text: string): string {
  const headingId = `${LEAD_FORM_ID}-heading`
  return (
    `<section class="card lead-notice"${attribute('id', LEAD_FORM_ID)}${attribute('aria-labelledby', headingId)} role="alert">` +
    `<h2${attribute('id', headingId)}>${escapeHtml(title)}</h2>` +
    `<p>${escapeHtml(text)}</p>` +
    `<p><a class="button"${attribute('href', `mailto:${view.email}`)}>${escapeHtml(view.email)}</a></p>` +
    '</section>'
  )
}

/** The block between its markers: the form (empty or re-shown) or a notice pointing to the email address. */
export function renderLeadFormSlot(view: LeadFormView, state: LeadSlotState): string {
  const inner =
    state.kind === 'notice'
      ? renderNotice(view, state.title, state.text)
      : view.available
        ? renderForm(view, state.values ?? {}, state.errors ?? {}, state.message, state.filling)
        : // Without a durable store the page offers the email card only; the route's notices fill the slot.
          ''
  return `${LEAD_SLOT_START}${inner}${LEAD_SLOT_END}`
}
