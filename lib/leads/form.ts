/**
 * The contact page's sales form for the running deployment: its words (content/pages/contact.md), the
 * plans it may name (content/pages/pricing.md), the retention period and whether leads can be kept
 * at all (the settings, lib/env.ts: decided once, so the build and the route agree), derived once per site.
 */
import { perSite, type Site } from '../site.ts'
import { fieldControls, leadChoicesOf, leadSubmissionSchema, type LeadChoices, type LeadSubmissionSchema } from './form-fields.ts'
import { buildLeadFormView, type LeadFormView } from './form-view.ts'

export interface LeadForm {
  view: LeadFormView
  choices: LeadChoices
  /** What the server checks every post against; the page's HTML constraints are read from it. */
  schema: LeadSubmissionSchema
}

export function buildLeadForm(site: Site): LeadForm {
  const { contact, pricing } = site.content
  const form = contact.data.salesForm
  const choices = leadChoicesOf(
    form,
    pricing.data.plans.map((plan) => plan.id),
  )
  const schema = leadSubmissionSchema(choices)
  const view = buildLeadFormView({
    form,
    email: contact.data.email,
    plans: pricing.data.plans,
    choices,
    controls: fieldControls(schema),
    retentionDays: site.config.leads.retentionDays,
    available: salesFormOffered(site),
  })
  return { view, choices, schema }
}

export const getLeadForm = perSite(buildLeadForm)

/**
 * The form is offered only where leads are kept durably: the settings' one decision (lib/env.ts
 * `config.leads.store`), which the build records. Read here without importing the stores, which pages need not load.
 */
export function salesFormOffered(site: Site): boolean {
  return site.config.leads.store !== null
}
