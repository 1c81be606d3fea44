/**
 * The WebMCP tools every page registers for an agent in the visitor's browser, defined once from the
 * same sources as the pages, REST and MCP: the plans of content/pages/pricing.md (as the pricing page
 * and its twin show them), the agent operations of the contract (names, descriptions and input
 * schemas of the MCP tools, answered by the REST API on this origin) and the app's sign-up and log-in
 * URLs. Plain data: PageShell puts it into the page as JSON, and the page script registers it
 * (lib/pages/page-script.ts, behaviour in lib/webmcp/client-tools.ts).
 *
 * Resources are fetched from the agent API rather than embedded in every page: the tools then return
 * the REST answer's own bytes, the quota and the public_agent_access switch govern them like every
 * other agent read, and visitors who never call a tool do not download the resource texts.
 */
import { z } from 'zod'
import { API_BASE_PATH, PRODUCT_NAME } from '../contract/constants.ts'
import { OPERATION_SCHEMAS } from '../contract/operation-schemas.ts'
import { AGENT_OPERATIONS } from '../contract/operations.ts'
import { JSON_SCHEMA_OPTIONS } from '../contract/schemas.ts'
import { SITE_PAGES, type PageKey } from '../routes/site-pages.ts'
import { absoluteHref, appLinks, buildPageModels, getPageModels, pagePlans, toPlanView, type PageModels } from './page-model.ts'
import { perSite, type Site } from '../site.ts'
import { salesFormOffered } from '../leads/form.ts'
import type { JsonSchemaObject, WebMcpPlan, WebMcpTool } from '../webmcp/client-tools.ts'

/** No arguments: an empty object, nothing else. */
const NO_ARGUMENTS: JsonSchemaObject = { type: 'object', properties: {}, additionalProperties: false }

/** Operations answered by a fetch on this origin: those the MCP server also offers as tools. */
function operationTools(): WebMcpTool[] {
  return AGENT_OPERATIONS.flatMap((operation): WebMcpTool[] => {
    if (!operation.mcpTool) return []
    return [
      {
        name: operation.mcpTool.name,
        title: operation.mcpTool.title,
        description: `${operation.mcpTool.description} Read from this site's agent API (one request of the visitor's agent API quota).`,
        inputSchema: z.toJSONSchema(OPERATION_SCHEMAS[operation.operationId].input, JSON_SCHEMA_OPTIONS) as JsonSchemaObject,
        annotations: { readOnlyHint: true },
        action: { kind: 'fetch', path: `${API_BASE_PATH}${operation.path}` },
      },
    ]
  })
}

function plansTool(site: Site): WebMcpTool {
  const plans = site.content.pricing.data.plans.map((plan): WebMcpPlan => {
    // The pricing page's view of the plan: its price as shown and where its button goes.
    const view = toPlanView(plan, site.config.appUrl, salesFormOffered(site))
    return {
      id: plan.id,
      name: plan.name,
      price: view.price,
      priceMonthlyUsd: plan.priceMonthlyUsd,
      unit: plan.priceNote,
      summary: plan.summary,
      features: plan.features,
      cta: plan.cta,
      ctaLabel: plan.ctaLabel,
      url: absoluteHref(view.ctaHref, site.config.baseUrl),
    }
  })
  return {
    name: 'list_plans',
    title: `List ${PRODUCT_NAME} plans and prices`,
    description:
      `Lists every ${PRODUCT_NAME} plan as the pricing page (${site.urls.pricing}) shows it: id, name, price as shown, ` +
      'priceMonthlyUsd (0 = free, null = priced on request), the unit the price is per, summary, features, and where the plan ' +
      "starts (url: the app's sign-up with the plan chosen, or the contact page for plans priced on request). Prices are in US " +
      'dollars, before tax. Takes no arguments.',
    inputSchema: NO_ARGUMENTS,
    annotations: { readOnlyHint: true },
    action: { kind: 'answer', body: { pricingPage: site.urls.pricing, currency: 'USD', plans } },
  }
}

function handOffTool(site: Site, pages: PageModels): WebMcpTool {
  const { plans } = site.content.pricing.data
  const app = appLinks(site.config.appUrl)
  const appHost = app.host
  return {
    name: 'open_app',
    title: `Continue in the ${PRODUCT_NAME} app`,
    description:
      `Takes the visitor to the ${PRODUCT_NAME} app (${appHost}) to create an account or log in: destination "signup" ` +
      `(the default) opens its sign-up, with a plan chosen when plan is given; "login" opens its log-in page. A plan priced on ` +
      'request opens the contact page instead, as on the pricing page. This navigates the tab away from this site; ' +
      'nothing is created or sent here, and the visitor signs up or logs in on the app themselves. list_plans describes the plans.',
    inputSchema: {
      type: 'object',
      properties: {
        destination: {
          type: 'string',
          enum: ['signup', 'login'],
          default: 'signup',
          description: 'signup: create an account (optionally with a plan); login: log in to an existing account.',
        },
        plan: {
          type: 'string',
          enum: plans.map((plan) => plan.id),
          description: 'The id of the plan to sign up for (list_plans); only with destination signup.',
        },
      },
      additionalProperties: false,
    },
    // It changes what the tab shows (a navigation), so it is not read-only; it writes nothing anywhere.
    annotations: { readOnlyHint: false },
    action: {
      kind: 'navigate',
      signup: app.signup,
      login: app.login,
      plans: Object.fromEntries(pagePlans(pages).map((plan) => [plan.id, absoluteHref(plan.ctaHref, site.config.baseUrl)])),
    },
  }
}

/** The pages whose model holds the sign-up form (app/_components/signup-form.tsx), and so offer its tool. */
export function signupFormPages(pages: PageModels): PageKey[] {
  return SITE_PAGES.filter((page) => pages[page.key].blocks.some((block) => block.kind === 'signupForm')).map((page) => page.key)
}

/** The sign-up form of the homepage and the pricing page, as a declarative WebMCP tool (a `<form toolname>`). */
export interface SignupFormTool {
  toolName: string
  toolDescription: string
  /** The form's action: the app's sign-up, which takes the plan as `?plan=<id>` (the pricing page's links do the same). */
  action: string
  planDescription: string
  options: { id: string; label: string }[]
  submitLabel: string
}

function signupForm(site: Site, pages: PageModels): SignupFormTool {
  const app = appLinks(site.config.appUrl)
  const signupPlans = pagePlans(pages).filter((plan) => site.content.pricing.data.plans.some((p) => p.id === plan.id && p.cta === 'signup'))
  return {
    toolName: 'start_signup',
    toolDescription:
      `The sign-up form on this page: picks a plan and continues to the ${PRODUCT_NAME} app's sign-up (${app.host}) ` +
      'with that plan chosen. Submitting navigates away; nothing is sent to this site.',
    action: app.signup,
    planDescription: `The plan to sign up for: ${signupPlans.map((plan) => `${plan.id} (${plan.name}, ${plan.price}, ${plan.priceNote})`).join('; ')}.`,
    options: signupPlans.map((plan) => ({ id: plan.id, label: `${plan.name} — ${plan.price}, ${plan.priceNote}` })),
    // Not the login page's "Create a free account": the plan chosen here may be a paid one.
    submitLabel: 'Continue to sign-up',
  }
}

export interface WebMcpPageTools {
  /** Registered by script on every page. */
  tools: WebMcpTool[]
  /** Declared in HTML on the pages that show the sign-up form. */
  signupForm: SignupFormTool
}

export function buildWebMcpPageTools(site: Site, pages: PageModels = buildPageModels(site)): WebMcpPageTools {
  return {
    tools: [plansTool(site), ...operationTools(), handOffTool(site, pages)],
    signupForm: signupForm(site, pages),
  }
}

export const getWebMcpPageTools = perSite((site) => buildWebMcpPageTools(site, getPageModels()))

/** Every tool name a page may offer, for the Markdown twins and llms.txt. */
export function webMcpToolNames(tools: WebMcpPageTools): { scripted: string[]; form: string } {
  return { scripted: tools.tools.map((tool) => tool.name), form: tools.signupForm.toolName }
}
