import Ajv2020 from 'ajv/dist/2020.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildAgentCatalog } from '../../lib/agent/catalog.ts'
import { loadContent } from '../../lib/content/parse.ts'
import { buildLlmsTxt } from '../../lib/discovery/text-documents.ts'
import { buildMcpInstallLinks } from '../../lib/pages/mcp-clients.ts'
import { parseConfig } from '../../lib/env.ts'
import { pageContentSecurityPolicy } from '../../lib/http/security-headers.ts'
import { buildMcpCatalog } from '../../lib/mcp/catalog.ts'
import { buildPageModels, formActionOrigins, pagePlans } from '../../lib/pages/page-model.ts'
import { buildPageMarkdown } from '../../lib/pages/page-markdown.ts'
import { buildSite } from '../../lib/site-model.ts'
import { pageModelContext, registerTools, runTool, type ToolEnvironment, type WebMcpTool } from '../../lib/webmcp/client-tools.ts'
import { buildWebMcpPageTools } from '../../lib/pages/page-tools.ts'

const APP = 'https://app.cadence.test'
const BASE = 'https://agents.example.com'
const content = loadContent()
const site = buildSite(parseConfig({ BASE_URL: BASE, APP_URL: APP }), content)
const pageTools = buildWebMcpPageTools(site)
const tool = (name: string) => pageTools.tools.find((candidate) => candidate.name === name) as WebMcpTool

/** A browser stand-in: answers fetches with `answer` and records navigations. */
function environment(answer: (path: string) => Promise<Response> | Response) {
  const fetched: string[] = []
  const navigated: string[] = []
  const env: ToolEnvironment = {
    fetch: async (path) => {
      fetched.push(path)
      return await answer(path)
    },
    navigate: (url) => navigated.push(url),
  }
  return { env, fetched, navigated }
}

describe('the page tools', () => {
  it('are list_plans, the MCP tools of the contract and open_app, each input schema valid JSON Schema 2020-12', () => {
    expect(pageTools.tools.map((definition) => definition.name)).toEqual([
      'list_plans',
      'get_public_capabilities',
      'list_public_resources',
      'read_public_resource',
      'open_app',
    ])
    const ajv = new Ajv2020({ strict: true })
    for (const definition of pageTools.tools) expect(ajv.validateSchema(definition.inputSchema), definition.name).toBe(true)
  })

  it('take the name, title and input schema of the MCP tool of the same operation', () => {
    const mcp = buildMcpCatalog(site, buildAgentCatalog(site))
    for (const name of ['get_public_capabilities', 'list_public_resources', 'read_public_resource']) {
      const served = mcp.tools.get(`${site.config.serviceName}.${name}`)?.definition()
      expect(tool(name).title).toBe(served?.title)
      expect(tool(name).inputSchema).toEqual(served?.inputSchema)
      expect(tool(name).description.startsWith(served?.description ?? '-')).toBe(true)
    }
  })

  it("list_plans answers the pricing content's plans, each starting where the pricing page's button goes", async () => {
    const pages = buildPageModels(site)
    const result = await runTool(tool('list_plans'), {}, environment(() => new Response()).env)
    expect(result.structuredContent?.plans).toEqual(
      content.pricing.data.plans.map((plan, index) => ({
        id: plan.id,
        name: plan.name,
        price: pagePlans(pages)[index]?.price,
        priceMonthlyUsd: plan.priceMonthlyUsd,
        unit: plan.priceNote,
        summary: plan.summary,
        features: plan.features,
        cta: plan.cta,
        ctaLabel: plan.ctaLabel,
        url: plan.cta === 'signup' ? `${APP}/signup?plan=${plan.id}` : `${BASE}/contact?plan=${plan.id}#talk-to-sales`,
      })),
    )
    expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent)
  })

  it('open_app offers every plan, and the sign-up form only the plans that sign up', () => {
    expect(tool('open_app').inputSchema.properties.plan?.enum).toEqual(content.pricing.data.plans.map((plan) => plan.id))
    expect(pageTools.signupForm.options.map((option) => option.id)).toEqual(
      content.pricing.data.plans.filter((plan) => plan.cta === 'signup').map((plan) => plan.id),
    )
    expect(pageTools.signupForm.action).toBe(`${APP}/signup`)
  })
})

describe('running a tool', () => {
  it('hands the REST answer on byte for byte, from a root-relative path with the argument filled in', async () => {
    const body = '{"id":"agent-boundaries","content":"# x"}'
    const browser = environment(() => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }))
    const result = await runTool(tool('read_public_resource'), { resourceId: 'agent-boundaries' }, browser.env)
    expect(browser.fetched).toEqual(['/api/agent/v1/resources/agent-boundaries'])
    expect(result).toEqual({ content: [{ type: 'text', text: body }], structuredContent: JSON.parse(body) })
  })

  it('an answer other than 200 (agent access off, quota spent) is an error result with the problem and its Retry-After', async () => {
    const problem = '{"code":"public_agent_access_disabled","detail":"off","resolution":"wait"}'
    const browser = environment(() => new Response(problem, { status: 503, headers: { 'Retry-After': '300' } }))
    expect(await runTool(tool('list_public_resources'), {}, browser.env)).toEqual({
      content: [{ type: 'text', text: `/api/agent/v1/resources answered 503. Retry after 300 seconds. ${problem}` }],
      isError: true,
    })
  })

  it('a network failure is an error result, not an exception', async () => {
    const browser = environment(() => Promise.reject(new TypeError('Failed to fetch')))
    expect(await runTool(tool('get_public_capabilities'), undefined, browser.env)).toEqual({
      content: [
        {
          type: 'text',
          text: 'Could not reach /api/agent/v1/capabilities on this site (network error). Check the connection and call the tool again.',
        },
      ],
      isError: true,
    })
  })

  it.each([
    [null, 'Invalid arguments for read_public_resource: expected an object of named arguments, not null. It accepts resourceId.'],
    [['agent-boundaries'], 'Invalid arguments for read_public_resource: expected an object of named arguments, not an array. It accepts resourceId.'],
    [{ resourceId: 'x'.repeat(100) }, `Invalid arguments for read_public_resource: unknown resourceId "${'x'.repeat(60)}…".`],
    [{ resourceId: { nested: true } }, 'Invalid arguments for read_public_resource: resourceId must be a string, not an object.'],
  ])('bad arguments %j: an error result, nothing fetched', async (args, start) => {
    const browser = environment(() => new Response('{}'))
    const result = await runTool(tool('read_public_resource'), args, browser.env)
    expect(result.isError).toBe(true)
    expect(result.content[0]?.text.startsWith(start)).toBe(true)
    expect(browser.fetched).toEqual([])
  })

  it.each([
    [{}, `${APP}/signup`],
    [{ destination: 'signup', plan: 'team' }, `${APP}/signup?plan=team`],
    [{ plan: 'programme' }, `${BASE}/contact?plan=programme#talk-to-sales`],
    [{ destination: 'login' }, `${APP}/login`],
  ])('open_app %j navigates to %s once, after answering', async (args, url) => {
    const browser = environment(() => new Response())
    const result = await runTool(tool('open_app'), args, browser.env)
    expect(result.isError).toBeUndefined()
    expect(result.structuredContent?.url).toBe(url)
    expect(browser.navigated).toEqual([url])
  })

  it('open_app with bad arguments stays on the page', async () => {
    const browser = environment(() => new Response())
    expect((await runTool(tool('open_app'), { destination: 'login', plan: 'team' }, browser.env)).isError).toBe(true)
    expect(browser.navigated).toEqual([])
  })
})

describe('registering', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('uses document.modelContext, else navigator.modelContext, else nothing', () => {
    const documentContext = { registerTool: () => undefined }
    const navigatorContext = { registerTool: () => undefined }
    vi.stubGlobal('document', { modelContext: documentContext })
    vi.stubGlobal('navigator', { modelContext: navigatorContext })
    expect(pageModelContext()).toBe(documentContext)
    vi.stubGlobal('document', {})
    expect(pageModelContext()).toBe(navigatorContext)
    vi.stubGlobal('navigator', {})
    expect(pageModelContext()).toBeUndefined()
  })

  it('a refusal, rejected or thrown, leaves the other tools registered and raises nothing', async () => {
    const registered: string[] = []
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    const context = {
      registerTool: (definition: Record<string, unknown>) => {
        if (definition.name === 'list_plans')
          return Promise.reject(new DOMException('Access to the feature "tools" is disallowed', 'NotAllowedError'))
        if (definition.name === 'open_app') throw new TypeError('older signature')
        registered.push(definition.name as string)
        return Promise.resolve()
      },
    }
    expect(() => registerTools(context, pageTools.tools, environment(() => new Response()).env)).not.toThrow()
    await new Promise((resolve) => setTimeout(resolve, 10))
    process.off('unhandledRejection', onUnhandled)
    expect(registered).toEqual(['get_public_capabilities', 'list_public_resources', 'read_public_resource'])
    expect(unhandled).toEqual([])
  })
})

describe('where the tools are named', () => {
  it('each page twin names the scripted tools; the homepage and pricing add the sign-up form', () => {
    for (const key of ['home', 'pricing', 'contact', 'login', 'developers'] as const) {
      const twin = buildPageMarkdown(site, key, buildPageModels(site))
      const section = twin.split('\n## WebMCP tools on this page\n')[1] ?? ''
      for (const definition of pageTools.tools) expect(section, key).toContain(`\`${definition.name}\``)
      expect(section.includes('`start_signup`'), key).toBe(key === 'home' || key === 'pricing')
    }
  })

  it('llms.txt names every tool', () => {
    const llms = buildLlmsTxt(site)
    for (const name of [...pageTools.tools.map((definition) => definition.name), pageTools.signupForm.toolName]) expect(llms).toContain(name)
  })
})

describe('the sign-up form and the page policy', () => {
  it("form-action names the origins the page's forms submit to, besides 'self': the app for the sign-up form's pages", () => {
    const pages = buildPageModels(site)
    expect(Object.fromEntries(Object.entries(pages).map(([key, page]) => [key, formActionOrigins(page, APP)]))).toEqual({
      home: [APP],
      pricing: [APP],
      contact: [],
      login: [],
      developers: [],
      'not-found': [],
    })
    expect(pageContentSecurityPolicy(formActionOrigins(pages.pricing, APP), BASE)).toContain(`form-action 'self' ${APP};`)
    expect(pageContentSecurityPolicy([], BASE)).toContain("form-action 'self';")
  })
})

describe('one-click installs', () => {
  it("Cursor's config and VS Code's JSON name the deployment's MCP URL under the client configuration's name", () => {
    const preview = buildSite(parseConfig({ BASE_URL: 'https://preview-7.example.net' }), content)
    const links = buildMcpInstallLinks(preview)
    const cursor = new URL(links.cursor)
    expect(cursor.searchParams.get('name')).toBe('cadence-public')
    expect(JSON.parse(Buffer.from(cursor.searchParams.get('config') ?? '', 'base64').toString())).toEqual({
      url: 'https://preview-7.example.net/mcp',
    })
    expect(JSON.parse(decodeURIComponent(links.vscode.replace('vscode:mcp/install?', '')))).toEqual({
      name: 'cadence-public',
      type: 'http',
      url: 'https://preview-7.example.net/mcp',
    })
  })
})
