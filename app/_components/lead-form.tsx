import { HONEYPOT_FIELD, LEAD_FORM_PATH, type LeadFormErrors, type LeadFormValues, type VisitSource } from '@/lib/leads/form-fields.ts'
import {
  AGENT_FILL_FIELD,
  CAMPAIGN_PARAMETERS,
  FILL_TIME_FIELD,
  LANDING_PAGE_FIELD,
  LEAD_FORM_ID,
  REFERRER_FIELD,
} from '@/lib/routes/page-script-hooks.ts'
import type { LeadFormFieldView, LeadFormState, LeadFormView } from '@/lib/leads/form-view.ts'

/**
 * The "Talk to sales" block, the one renderer of the form: empty on the prerendered contact page, and
 * in the form route's answers (./contact-answer.tsx) filled in as typed with a message at each wrong
 * field, or a notice pointing to the email address. React escapes what a visitor typed. Without a
 * durable store for leads the page offers the email card only: the block is empty, but for the
 * route's notices.
 */
export function LeadFormBlock({ form, state }: { form: LeadFormView; state: LeadFormState }) {
  if (state.kind === 'notice') return <LeadNotice form={form} title={state.title} text={state.text} />
  if (!form.available) return null
  return (
    <LeadForm
      form={form}
      values={state.values ?? {}}
      errors={state.errors ?? {}}
      message={state.message}
      filling={state.filling}
      source={state.source}
    />
  )
}

const HEADING_ID = `${LEAD_FORM_ID}-heading`

function LeadForm({
  form,
  values,
  errors,
  message,
  filling,
  source,
}: {
  form: LeadFormView
  values: LeadFormValues
  errors: LeadFormErrors
  message: string | undefined
  filling: Extract<LeadFormState, { kind: 'form' }>['filling']
  source: VisitSource | undefined
}) {
  const wrong = form.fields.filter((field) => errors[field.name]).length
  const summary =
    message ??
    (wrong === 0
      ? null
      : wrong === 1
        ? 'One field needs another look; the message is beside it.'
        : `${wrong} fields need another look; the messages are beside them.`)
  return (
    <form
      className="card lead-form"
      id={LEAD_FORM_ID}
      method="post"
      action={LEAD_FORM_PATH}
      toolname={form.toolName}
      tooldescription={form.toolDescription}
      aria-labelledby={HEADING_ID}
    >
      <h2 id={HEADING_ID}>{form.heading}</h2>
      <p className="lead-intro">{form.intro}</p>
      {summary ? (
        <p className="lead-summary" role="alert">
          {summary}
        </p>
      ) : null}
      {form.fields.map((field) => (
        <LeadField field={field} value={values[field.name] ?? ''} error={errors[field.name]} key={field.name} />
      ))}
      {/* Off-screen: people never fill it; scripts that fill every field do. */}
      <p className="lead-trap">
        <label htmlFor={`lead-${HONEYPOT_FIELD}`}>Leave this field empty</label>
        <input id={`lead-${HONEYPOT_FIELD}`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </p>
      {/* Shown again, the form carries how it was filled so far: the time goes on from there. */}
      <input type="hidden" name={FILL_TIME_FIELD} defaultValue={filling?.fillMs ?? ''} />
      <input type="hidden" name={AGENT_FILL_FIELD} defaultValue={filling?.filledBy ?? ''} />
      {/* Where the visit came from: the page script fills these, or a form shown again carries them. */}
      {CAMPAIGN_PARAMETERS.map((name) => (
        <input type="hidden" name={name} defaultValue={source?.campaign[name] ?? ''} key={name} />
      ))}
      <input type="hidden" name={LANDING_PAGE_FIELD} defaultValue={source?.landingPage ?? ''} />
      <input type="hidden" name={REFERRER_FIELD} defaultValue={source?.referrerOrigin ?? ''} />
      <p className="lead-privacy">{form.privacy}</p>
      <p>
        <button className="button" type="submit">
          {form.submitLabel}
        </button>
      </p>
    </form>
  )
}

/** What every control of a field carries: its name, id, validity and descriptions. */
interface FieldAttributes {
  id: string
  name: string
  required: boolean
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
  toolparamdescription: string
}

function LeadField({ field, value, error }: { field: LeadFormFieldView; value: string; error: string | undefined }) {
  const id = `lead-${field.name}`
  const helpId = field.help ? `${id}-help` : undefined
  const errorId = error ? `${id}-error` : undefined
  const { constraints } = field
  const common: FieldAttributes = {
    id,
    name: field.name,
    required: constraints.required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [errorId, helpId].filter(Boolean).join(' ') || undefined,
    toolparamdescription: field.toolParamDescription,
  }
  return (
    <p className={error ? 'lead-field lead-field-invalid' : 'lead-field'}>
      <label htmlFor={id}>
        {field.label}
        {constraints.required ? null : (
          <>
            {' '}
            <span className="lead-optional">(optional)</span>
          </>
        )}
      </label>
      {error ? (
        <span className="lead-error" id={errorId}>
          {error}
        </span>
      ) : null}
      <LeadControl field={field} value={value} common={common} />
      {field.help ? (
        <span className="lead-help" id={helpId}>
          {field.help}
        </span>
      ) : null}
    </p>
  )
}

function LeadControl({ field, value, common }: { field: LeadFormFieldView; value: string; common: FieldAttributes }) {
  const { constraints } = field
  if (field.control === 'select') {
    // A required choice starts on an empty, disabled prompt, so nobody sends the first range by accident.
    const chosen = field.options.some((option) => option.value === value)
    return (
      <select {...common} defaultValue={chosen ? value : ''}>
        {constraints.required ? (
          <option value="" disabled>
            Choose…
          </option>
        ) : null}
        {field.options.map((option) => (
          <option value={option.value} key={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    )
  }
  if (field.control === 'textarea') return <textarea {...common} maxLength={constraints.maxLength ?? undefined} rows={6} defaultValue={value} />
  return (
    <input
      {...common}
      type={constraints.email ? 'email' : 'text'}
      maxLength={constraints.maxLength ?? undefined}
      autoComplete={field.autocomplete ?? undefined}
      defaultValue={value}
    />
  )
}

function LeadNotice({ form, title, text }: { form: LeadFormView; title: string; text: string }) {
  return (
    <section className="card lead-notice" id={LEAD_FORM_ID} aria-labelledby={HEADING_ID} role="alert">
      <h2 id={HEADING_ID}>{title}</h2>
      <p>{text}</p>
      <p>
        <a className="button" href={`mailto:${form.email}`}>
          {form.email}
        </a>
      </p>
    </section>
  )
}
