/**
 * Where the pages' one script (lib/pages/page-script.ts, served as PAGE_SCRIPT_PATH) meets the HTML
 * the server renders: the element holding the page's WebMCP tool definitions and the attributes of a
 * copy button. Imported by both sides, so neither states a name the other could miss; imports nothing,
 * as it goes into the browser bundle.
 */

/** The page script, bundled from lib/pages/page-script.ts into public/ by the build (scripts/page-script.ts). */
export const PAGE_SCRIPT_PATH = '/site.js'

/** The `<script type="application/json">` with the page's WebMCP tools (lib/pages/page-tools.ts). */
export const WEBMCP_TOOLS_ELEMENT_ID = 'webmcp-tools'

/** A copy button names what it copies in `data-copy-what`, and copies `data-copy-text` or the body of the same-origin `data-copy-source`. */
export const COPY_BUTTON_SELECTOR = 'button[data-copy-what]'

/** The class of the sign-up form, the pages' declarative WebMCP tool (app/_components/signup-form.tsx). */
export const SIGNUP_FORM_CLASS = 'signup-form'

/** The contact page's "Talk to sales" form: its id, the fragment the pricing page links to (app/_components/lead-form.tsx). */
export const LEAD_FORM_ID = 'talk-to-sales'

/** The query parameter naming a plan on the contact page: `/contact?plan=programme#talk-to-sales`; the script chooses it in the form. */
export const PLAN_PARAMETER = 'plan'

/**
 * The form's hidden field the script fills with the milliseconds spent filling the form: from the
 * page's load to the submit, plus what the server wrote in it when it showed the form again (after a
 * mistake, a limit or an outage), so that a correction sent at once counts the time of the first fill.
 */
export const FILL_TIME_FIELD = 'fillMs'

/** The sales form as a declarative WebMCP tool: the browser's agent fills it, the visitor sends it. */
export const LEAD_FORM_TOOL_NAME = 'talk_to_sales'

/**
 * The form's hidden field the script sets to AGENT_FILL_VALUE when the browser's agent filled the form
 * through WebMCP: the visitor may send it a second later, and is no script for that.
 */
export const AGENT_FILL_FIELD = 'filledBy'
export const AGENT_FILL_VALUE = 'webmcp'

/**
 * Where a lead came from, as the form carries it: the campaign parameters of the link the visit began
 * with (named as in the link), the page it landed on and the referring site's origin. The page script
 * keeps them for the visit in session storage under VISIT_STORAGE_KEY (no cookie) and fills the form's
 * hidden fields of these names; without the script they are read from the contact page's own URL.
 */
export const CAMPAIGN_PARAMETERS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const
export const LANDING_PAGE_FIELD = 'landingPage'
export const REFERRER_FIELD = 'referrer'
export const VISIT_STORAGE_KEY = 'cadence.visit'
