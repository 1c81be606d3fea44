/**
 * A sales lead as the contact form hands it to the lead store: the form's fields after the server's
 * check, and what the site adds (when, from which page, the address as a salted hash, spam or not).
 * The form (lib/leads/form*) produces it; the store and delivery (lib/leads/store*, delivery*) keep and
 * send it on. Nothing else about the visitor is kept.
 */
export interface LeadFields {
  name: string
  email: string
  company: string
  /** One of the content's team-size choices (its value, not its label). */
  teamSize: string
  /** What they want to achieve, free text. */
  goal: string
  /** One of the content's topic choices (its value). */
  topic: string
  /** The plan named by the link the visitor came from (Programme's "Talk to us"), if any. */
  plan: string | null
}

export interface NewLead {
  fields: LeadFields
  /** When the site received the submission. */
  receivedAt: Date
  /** The site path of the page the form was on (for example /contact). */
  sourcePage: string
  /** The client address as a salted hash: enough to count submissions per address, never the address. */
  addressHash: string
  /** Marked by the honeypot or the minimum fill time: stored for the record, never delivered. */
  spam: boolean
}

export interface SavedLead {
  id: string
  /** True when the same email and message arrived within the duplicate window: the earlier lead stands. */
  duplicate: boolean
}

/** Where leads are kept. `save` resolves only once the lead is durably stored. */
export interface LeadStore {
  save(lead: NewLead): Promise<SavedLead>
}
