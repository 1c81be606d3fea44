/**
 * A sales lead as the contact form hands it to the lead store: the form's fields after the server's
 * check, and what the site adds (when, from which page, the address as a salted hash, why it looks
 * like spam if it does). The form (lib/leads/form*) produces it; the store and delivery
 * (lib/leads/store*, delivery*) keep and send it on. Nothing else about the visitor is kept.
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

/**
 * Why a lead was held as suspected spam: the hidden field people never fill was filled (`honeypot`),
 * or the form went out faster than a person types (`too-fast`). `unrecorded`: held before reasons
 * were kept.
 */
const SPAM_REASONS = ['honeypot', 'too-fast', 'unrecorded'] as const
export type SpamReason = (typeof SPAM_REASONS)[number]

/**
 * Where a lead came from, as far as the site can tell without a cookie or a third party: the campaign
 * of the link the visit began with (its `utm_*` parameters), the page it landed on, the origin of the
 * site that referred it, and whether the browser's agent filled the form (WebMCP). Each is null when
 * unknown; the page script carries the first three from the visit's first page (session storage), and
 * without it they come from the contact page's own URL.
 */
export interface LeadAttribution {
  utmSource: string | null
  utmMedium: string | null
  utmCampaign: string | null
  utmTerm: string | null
  utmContent: string | null
  /** The site path the visit landed on, e.g. `/pricing`. */
  landingPage: string | null
  /** The referring site's origin, e.g. `https://news.example`: never its path. */
  referrerOrigin: string | null
  /** The browser's agent filled the form through WebMCP; the visitor sent it. */
  viaWebMcp: boolean
}

export const NO_ATTRIBUTION: LeadAttribution = Object.freeze({
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
  utmTerm: null,
  utmContent: null,
  landingPage: null,
  referrerOrigin: null,
  viaWebMcp: false,
})

export interface NewLead {
  fields: LeadFields
  attribution: LeadAttribution
  /** When the site received the submission. */
  receivedAt: Date
  /** The site path of the page the form was on (for example /contact). */
  sourcePage: string
  /** The client address as a salted hash: enough to count submissions per address, never the address. */
  addressHash: string
  /** Null for a lead; else why it is held as suspected spam: stored for the record, delivered only once released. */
  spamReason: SpamReason | null
}

export interface SavedLead {
  id: string
  /** True when the same email and message arrived within the duplicate window: the earlier lead stands. */
  duplicate: boolean
}

/** Where leads are kept. `save` resolves only once the lead is durably stored. */
export interface LeadStore {
  save(lead: NewLead): Promise<SavedLead>
  /**
   * The salt of the address hashes, the same for every process that shares the store: created on
   * first use and kept in the store, so a limit per address holds across instances and restarts.
   */
  addressSalt(): Promise<string>
}
