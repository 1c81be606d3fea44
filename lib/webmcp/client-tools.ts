/**
 * What the page's WebMCP tools do, in the visitor's browser: check the arguments against the tool's
 * own input schema, answer (plans from the page's data, the agent operations by a same-origin fetch of
 * the REST API, the hand-off by a navigation to the app) and register them with the page's model
 * context. Runs in the page script (lib/pages/page-script.ts), so it imports nothing. Every call
 * answers with a result in MCP's CallToolResult shape, an `isError` one for bad arguments or a failed
 * fetch; nothing throws into the page. The definitions come from lib/pages/page-tools.ts.
 */

interface JsonSchemaProperty {
  type?: string
  enum?: readonly string[]
  description?: string
  default?: string
}

/** The subset of JSON Schema the page tools use: an object of string arguments, some from a list. */
export interface JsonSchemaObject {
  type: 'object'
  properties: Record<string, JsonSchemaProperty>
  required?: readonly string[]
  additionalProperties?: boolean
  $schema?: string
}

export interface WebMcpPlan {
  id: string
  name: string
  /** As the pricing page shows it: `$0`, `$12`, `Custom`. */
  price: string
  priceMonthlyUsd: number | null
  /** What the price is per (`per active member, per month`). */
  unit: string
  summary: string
  features: string[]
  cta: 'signup' | 'contact'
  ctaLabel: string
  url: string
}

type WebMcpToolAction =
  /** A fixed answer built with the page (the plans). */
  | { kind: 'answer'; body: Record<string, unknown> }
  /** A GET of the agent API on this origin; `{name}` in the path is filled from the argument of that name. */
  | { kind: 'fetch'; path: string }
  /** A navigation to the app: its sign-up, the sign-up of a plan (or its contact page), or its log-in. */
  | { kind: 'navigate'; signup: string; login: string; plans: Record<string, string> }

export interface WebMcpTool {
  name: string
  title: string
  description: string
  inputSchema: JsonSchemaObject
  annotations: { readOnlyHint: boolean }
  action: WebMcpToolAction
}

/** MCP's CallToolResult, the shape WebMCP tools answer in. */
export interface WebMcpToolResult {
  content: { type: 'text'; text: string }[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
}

export interface ToolEnvironment {
  fetch: (path: string, init: RequestInit) => Promise<Response>
  /** Leaves the page for `url`, after the result has gone back to the agent. */
  navigate: (url: string) => void
}

const errorResult = (text: string): WebMcpToolResult => ({ content: [{ type: 'text', text }], isError: true })

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** A given value quoted back, cut short: an agent's argument can be anything. */
function quote(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
}

/** The arguments as strings by name, or what is wrong with them in words an agent can act on. */
function checkArguments(tool: WebMcpTool, input: unknown): { args: Record<string, string> } | { error: string } {
  const { properties, required = [], additionalProperties } = tool.inputSchema
  const names = Object.keys(properties)
  const accepts = names.length > 0 ? `It accepts ${names.join(', ')}.` : 'It takes no arguments.'
  const given = input === undefined ? {} : input
  if (!isRecord(given))
    return { error: `Invalid arguments for ${tool.name}: expected an object of named arguments, not ${kindOf(given)}. ${accepts}` }
  const unexpected = Object.keys(given).filter((key) => !(key in properties))
  if (unexpected.length > 0 && additionalProperties === false) {
    return { error: `Invalid arguments for ${tool.name}: unexpected ${unexpected.map(quote).join(', ')}. ${accepts}` }
  }
  const args: Record<string, string> = {}
  for (const [name, property] of Object.entries(properties)) {
    const value = given[name]
    const valid = property.enum ? ` Valid values: ${property.enum.join(', ')}.` : ''
    if (value === undefined) {
      if (required.includes(name)) return { error: `Invalid arguments for ${tool.name}: ${name} is required.${valid}` }
      continue
    }
    if (typeof value !== 'string') return { error: `Invalid arguments for ${tool.name}: ${name} must be a string, not ${kindOf(value)}.${valid}` }
    if (property.enum && !property.enum.includes(value))
      return { error: `Invalid arguments for ${tool.name}: unknown ${name} ${quote(value)}.${valid}` }
    args[name] = value
  }
  return { args }
}

async function fetchAnswer(path: string, env: ToolEnvironment): Promise<WebMcpToolResult> {
  let response: Response
  try {
    response = await env.fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store' })
  } catch {
    return errorResult(`Could not reach ${path} on this site (network error). Check the connection and call the tool again.`)
  }
  const text = await response.text()
  if (!response.ok) {
    const retryAfter = response.headers.get('Retry-After')
    const wait = retryAfter ? ` Retry after ${retryAfter} seconds.` : ''
    // The body is the contract's problem (code, detail, resolution): handed on as it is.
    return errorResult(`${path} answered ${response.status}.${wait} ${text}`)
  }
  let structured: unknown
  try {
    structured = JSON.parse(text)
  } catch {
    structured = undefined
  }
  return { content: [{ type: 'text', text }], ...(isRecord(structured) ? { structuredContent: structured } : {}) }
}

function handOff(tool: WebMcpTool, action: Extract<WebMcpToolAction, { kind: 'navigate' }>, args: Record<string, string>, env: ToolEnvironment) {
  const destination = args.destination ?? 'signup'
  if (destination === 'login' && args.plan !== undefined) {
    return errorResult(`Invalid arguments for ${tool.name}: plan goes with destination signup only. Log in without a plan, or sign up with one.`)
  }
  const url = destination === 'login' ? action.login : args.plan !== undefined ? (action.plans[args.plan] ?? action.signup) : action.signup
  env.navigate(url)
  return openingResult(url, destination, args.plan)
}

/** What a hand-off to the app answers: the URL now opening in this tab. */
function openingResult(url: string, destination: string, plan: string | undefined): WebMcpToolResult {
  return {
    content: [
      { type: 'text' as const, text: `Opening ${url} in this tab. The visitor continues there; nothing was sent to or created on this site.` },
    ],
    structuredContent: { url, destination, ...(plan !== undefined ? { plan } : {}) },
  }
}

/** The submit event of a form an agent submits (the WebMCP declarative API), which it may answer. */
type AgentSubmitEvent = SubmitEvent & { agentInvoked?: boolean; respondWith?: (result: Promise<WebMcpToolResult>) => void }

/**
 * An agent that submits the sign-up form (a GET to the app's sign-up) gets the answer open_app gives.
 * Chromium returns no result once a submission has left for another origin, so the page answers first
 * and then opens what the form would have: its action with the form's fields as the query.
 */
export function answerAgentSignups(form: HTMLFormElement, env: ToolEnvironment): void {
  form.addEventListener('submit', (event: AgentSubmitEvent) => {
    if (!event.agentInvoked || typeof event.respondWith !== 'function') return
    event.preventDefault()
    const url = new URL(form.action)
    url.search = new URLSearchParams([...new FormData(form)].map(([name, value]) => [name, String(value)])).toString()
    event.respondWith(Promise.resolve(openingResult(url.href, 'signup', url.searchParams.get('plan') ?? undefined)))
    env.navigate(url.href)
  })
}

/** Runs one tool for an agent. Never throws: a failure is an `isError` result. */
export async function runTool(tool: WebMcpTool, input: unknown, env: ToolEnvironment): Promise<WebMcpToolResult> {
  try {
    const checked = checkArguments(tool, input)
    if ('error' in checked) return errorResult(checked.error)
    const { action } = tool
    switch (action.kind) {
      case 'answer':
        return { content: [{ type: 'text', text: JSON.stringify(action.body) }], structuredContent: action.body }
      case 'fetch':
        return await fetchAnswer(
          action.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(checked.args[name] ?? '')),
          env,
        )
      case 'navigate':
        return handOff(tool, action, checked.args, env)
    }
  } catch (error) {
    return errorResult(`${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}

export interface ModelContextLike {
  registerTool: (tool: Record<string, unknown>) => unknown
}

/** `document.modelContext` (the WebMCP draft), else `navigator.modelContext` (earlier builds), else nothing. */
export function pageModelContext(): ModelContextLike | undefined {
  const candidates = [(document as { modelContext?: unknown }).modelContext, (navigator as { modelContext?: unknown }).modelContext]
  return candidates.find((candidate): candidate is ModelContextLike => isRecord(candidate) && typeof candidate.registerTool === 'function')
}

/** Registers every tool for as long as the page lives. A refused registration leaves the page as it was, without a word. */
export function registerTools(context: ModelContextLike, tools: readonly WebMcpTool[], env: ToolEnvironment): void {
  for (const tool of tools) {
    const definition = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
      execute: (input: unknown) => runTool(tool, input, env),
    }
    try {
      const pending = context.registerTool(definition)
      if (pending instanceof Promise) pending.catch(() => undefined)
    } catch {
      // A browser whose model context refuses the tool (a policy, an older signature): the page works as before.
    }
  }
}
