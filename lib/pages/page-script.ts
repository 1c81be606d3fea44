/**
 * The pages' only script, loaded as a module from PAGE_SCRIPT_PATH. Pages are prerendered HTML that
 * ship no framework runtime (the build strips Next's, lib/pages/prerendered-pages.ts): everything they
 * show is in the HTML, and script adds only what cannot be HTML. It registers the page's WebMCP tools
 * (their definitions are the page's JSON, built with it by lib/pages/page-tools.ts; behaviour in
 * lib/webmcp/client-tools.ts), lets the sign-up form answer the agent that submits it, and makes the
 * copy buttons copy. Without script, or where the browser has no model context, the page is unchanged
 * and nothing is logged.
 */
import {
  answerAgentSignups,
  pageModelContext,
  registerTools,
  type ModelContextLike,
  type ToolEnvironment,
  type WebMcpTool,
} from '../webmcp/client-tools.ts'
import {
  AGENT_FILL_FIELD,
  AGENT_FILL_VALUE,
  CAMPAIGN_PARAMETERS,
  COPY_BUTTON_SELECTOR,
  FILL_TIME_FIELD,
  LEAD_FORM_ID,
  LANDING_PAGE_FIELD,
  LEAD_FORM_TOOL_NAME,
  PLAN_PARAMETER,
  REFERRER_FIELD,
  SIGNUP_FORM_CLASS,
  VISIT_STORAGE_KEY,
  WEBMCP_TOOLS_ELEMENT_ID,
} from '../routes/page-script-hooks.ts'

const browser: ToolEnvironment = {
  fetch: (path, init) => window.fetch(path, init),
  // After the current task, so the result reaches the agent before the page unloads.
  navigate: (url) => window.setTimeout(() => window.location.assign(url), 0),
}

function registerPageTools(context: ModelContextLike): void {
  const definitions = document.getElementById(WEBMCP_TOOLS_ELEMENT_ID)?.textContent
  if (!definitions) return
  let tools: WebMcpTool[]
  try {
    tools = JSON.parse(definitions) as WebMcpTool[]
  } catch {
    return
  }
  registerTools(context, tools, browser)
}

/** The sign-up form is a tool of the page's model context by its HTML alone; script lets it answer the agent. */
function answerSignupForms(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>(`form.${SIGNUP_FORM_CLASS}`)) answerAgentSignups(form, browser)
}

async function copy(button: HTMLButtonElement, status: Element | null): Promise<void> {
  const { copyWhat: what, copyText: text, copySource: source } = button.dataset
  const say = (message: string) => {
    if (status) status.textContent = message
  }
  try {
    let value = text
    if (value === undefined && source !== undefined) {
      const response = await fetch(source, { headers: { Accept: 'text/markdown' } })
      if (!response.ok) throw new Error(`${source} answered ${response.status}`)
      value = await response.text()
    }
    await navigator.clipboard.writeText(value ?? '')
    say(`Copied ${what} to the clipboard.`)
  } catch {
    say(`Could not copy ${what}: the browser refused the clipboard.`)
  }
}

/** The buttons are rendered disabled: without this script they could not copy. */
function enableCopyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>(COPY_BUTTON_SELECTOR)) {
    button.addEventListener('click', () => copy(button, button.nextElementSibling))
    button.disabled = false
  }
}

const context = pageModelContext()
if (context) {
  registerPageTools(context)
  answerSignupForms()
}
enableCopyButtons()

/** Where this visit came from: the first page of the tab's session, its campaign parameters and the referring site. */
type Visit = Record<string, string>

/**
 * Kept for the visit in session storage (this tab, this site, until the tab closes; no cookie, nothing
 * sent anywhere): the first page the visit landed on, the campaign parameters of its link, and the
 * origin of the site that referred it. A later page of the same visit changes nothing. Storage that is
 * off or full leaves the form without it.
 */
function rememberVisit(): Visit | null {
  try {
    const kept = window.sessionStorage.getItem(VISIT_STORAGE_KEY)
    if (kept) return JSON.parse(kept) as Visit
    const visit: Visit = { [LANDING_PAGE_FIELD]: window.location.pathname }
    const params = new URLSearchParams(window.location.search)
    for (const name of CAMPAIGN_PARAMETERS) {
      const value = params.get(name)
      if (value) visit[name] = value
    }
    const referrer = document.referrer ? new URL(document.referrer).origin : null
    if (referrer && referrer !== window.location.origin) visit[REFERRER_FIELD] = referrer
    window.sessionStorage.setItem(VISIT_STORAGE_KEY, JSON.stringify(visit))
    return visit
  } catch {
    return null
  }
}

const visit = rememberVisit()

/**
 * The sales form: the plan a "Talk to us" link named (`?plan=`) is chosen for the visitor (they can
 * change it; without script they choose it themselves). The time spent filling it goes into a hidden
 * field, by which the server tells a person from a script that submits at once: the time since load,
 * added to what the field already holds when the server shows the form again after a mistake. A form
 * the browser's agent filled (WebMCP: the model context's `toolactivated` for this form, or a submit
 * the agent invoked) says so in another, and its speed is not held against the visitor who sends it.
 * Where the visit came from goes into the form's hidden fields, unless the form already carries it.
 */
function prepareSalesForm(): void {
  const form = document.getElementById(LEAD_FORM_ID)
  if (!(form instanceof HTMLFormElement)) return
  const plan = new URLSearchParams(window.location.search).get(PLAN_PARAMETER)
  const select = form.elements.namedItem(PLAN_PARAMETER)
  if (plan && select instanceof HTMLSelectElement && [...select.options].some((option) => option.value === plan)) select.value = plan
  const loadedAt = performance.now()
  const field = (name: string) => {
    const element = form.elements.namedItem(name)
    return element instanceof HTMLInputElement ? element : null
  }
  const landing = field(LANDING_PAGE_FIELD)
  if (visit && landing && !landing.value) {
    for (const name of [...CAMPAIGN_PARAMETERS, LANDING_PAGE_FIELD, REFERRER_FIELD]) {
      const hidden = field(name)
      if (hidden && typeof visit[name] === 'string') hidden.value = visit[name]
    }
  }
  const markFilledByAgent = () => {
    const marker = field(AGENT_FILL_FIELD)
    if (marker) marker.value = AGENT_FILL_VALUE
  }
  const events = context as unknown as Partial<EventTarget> | undefined
  events?.addEventListener?.('toolactivated', (event) => {
    if ((event as Event & { toolName?: string }).toolName === LEAD_FORM_TOOL_NAME) markFilledByAgent()
  })
  form.addEventListener('submit', (event) => {
    if ((event as SubmitEvent & { agentInvoked?: boolean }).agentInvoked) markFilledByAgent()
    const time = field(FILL_TIME_FIELD)
    if (time) time.value = String((Number(time.value) || 0) + Math.round(performance.now() - loadedAt))
  })
}

prepareSalesForm()
