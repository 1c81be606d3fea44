/**
 * WebMCP in Chromium with the feature on: every page registers its tools at load, each answers what
 * the REST API and the pricing twin say (fetched here, not copied), bad arguments get an error result,
 * and nothing breaks the page. Without the feature, pages are what they were. /developers: the
 * one-click installs name this build's MCP endpoint, the copy buttons copy.
 */
import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type APIRequestContext, type Browser, type Page } from '@playwright/test'
import { E2E_APP_URL as APP, E2E_BASE_URL as BASE, E2E_ORIGIN as ORIGIN } from '../support/e2e-site.ts'
import {
  FORM_TOOL_NAME,
  SALES_FORM_PATHS,
  SALES_FORM_TOOL_NAME,
  SCRIPTED_TOOL_NAMES,
  SIGNUP_FORM_PATHS,
  WEBMCP_CHROME_FLAG,
} from '../support/webmcp.ts'

const PAGE_PATHS = ['/', '/pricing', '/contact', '/login', '/developers']
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--no-first-run']

const test = base

/** The same tests' `page`, in a Chromium of its own started with the WebMCP features. */
const withWebMcp = base.extend<object, { webMcpBrowser: Browser }>({
  webMcpBrowser: [
    async ({ playwright }, use) => {
      const browser = await playwright.chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS, WEBMCP_CHROME_FLAG] })
      await use(browser)
      await browser.close()
    },
    { scope: 'worker' },
  ],
  page: async ({ webMcpBrowser, baseURL }, use) => {
    const context = await webMcpBrowser.newContext({ baseURL })
    await use(await context.newPage())
    await context.close()
  },
})

interface ListedTool {
  name: string
  description: string
  inputSchema: { type: string; properties: Record<string, { enum?: string[] }>; required?: string[] }
  annotations: { readOnlyHint?: boolean } | null
}

interface ToolResult {
  content: { type: string; text: string }[]
  structuredContent?: any
  isError?: boolean
}

/** Page errors, console errors and warnings (CSP violations among them) while the test runs. */
function watchProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`)
  })
  return problems
}

/** Opens a page and waits until its tools are registered; the tools as getTools() lists them. */
async function openWithTools(page: Page, path: string): Promise<ListedTool[]> {
  await page.goto(path)
  // The scripted tools are registered once the page script has run; getTools answers with a promise, so
  // poll its answer rather than the promise (which is always truthy).
  const registered = () =>
    page.evaluate(() => (document as any).modelContext.getTools().then((tools: Array<{ name: string }>) => tools.map((tool) => tool.name)))
  await expect.poll(registered).toEqual(expect.arrayContaining(SCRIPTED_TOOL_NAMES))
  return await page.evaluate(async () => {
    // Chromium 156 gives objects; the draft's tool definition holds the schema as a JSON string.
    const parsed = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : (value ?? null))
    return ((await (document as any).modelContext.getTools()) as any[]).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: parsed(tool.inputSchema),
      annotations: parsed(tool.annotations),
    }))
  })
}

/**
 * Calls a tool as the browser's agent does, through DevTools' WebMCP domain: the first result Chromium
 * reports for the call. The page's own executeTool would hand the result back through the page, whose
 * script context a tool that navigates (open_app, the sign-up form) is about to replace.
 */
async function execute(page: Page, name: string, args: object): Promise<ToolResult | null> {
  const session = await page.context().newCDPSession(page)
  const responses = new Map<string, { status: string; output?: unknown; errorText?: string }>()
  let reported = () => {}
  session.on('WebMCP.toolResponded', (event) => {
    if (!responses.has(event.invocationId)) responses.set(event.invocationId, event)
    reported()
  })
  try {
    await session.send('WebMCP.enable')
    const { frameTree } = await session.send('Page.getFrameTree')
    const { invocationId } = await session.send('WebMCP.invokeTool', {
      frameId: frameTree.frame.id,
      toolName: name,
      // Typed as string values; Chromium takes any JSON object, as executeTool does.
      input: args as Record<string, string>,
    })
    while (!responses.has(invocationId)) await new Promise<void>((resolve) => (reported = resolve))
    const { status, output, errorText } = responses.get(invocationId) ?? { status: 'missing' }
    if (status !== 'Completed') throw new Error(`${name} answered ${status}: ${errorText}`)
    return (output ?? null) as ToolResult | null
  } finally {
    await session.detach().catch(() => undefined)
  }
}

async function restText(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path)
  expect(response.status(), path).toBe(200)
  return await response.text()
}

/** The pricing twin's plans: `### Name: price, unit`, the features, the call to action's link. */
async function twinPlans(request: APIRequestContext) {
  const twin = await restText(request, '/pricing.md')
  const plans = twin.split('\n## Plans\n')[1]?.split('\n## ')[0] ?? ''
  return plans
    .split(/^### /m)
    .slice(1)
    .map((block) => {
      const [heading = '', ...lines] = block.trim().split('\n')
      const link = lines.map((line) => /^\[(.+)\]\((.+)\)$/.exec(line)).find((match) => match !== null)
      return {
        heading,
        features: lines.filter((line) => line.startsWith('- ')).map((line) => line.slice(2)),
        ctaLabel: link?.[1],
        url: link?.[2],
      }
    })
}

/** The app and the site's public origin are not reachable from the test: stand-ins answer navigations there. */
async function standInForRemoteOrigins(page: Page) {
  for (const origin of [APP, BASE]) {
    await page.route(`${origin}/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>stand-in</title>' }),
    )
  }
}

withWebMcp.describe('with WebMCP', () => {
  for (const path of PAGE_PATHS) {
    withWebMcp(`${path} lists its tools: names, descriptions, object input schemas, read-only hints on the reads only`, async ({ page }) => {
      const problems = watchProblems(page)
      const tools = await openWithTools(page, path)
      const expected = [
        ...SCRIPTED_TOOL_NAMES,
        ...(SIGNUP_FORM_PATHS.includes(path) ? [FORM_TOOL_NAME] : []),
        ...(SALES_FORM_PATHS.includes(path) ? [SALES_FORM_TOOL_NAME] : []),
      ].sort()
      expect(tools.map((tool) => tool.name).sort()).toEqual(expected)
      for (const tool of tools) {
        expect(tool.description.length, tool.name).toBeGreaterThan(40)
        expect(tool.inputSchema.type, tool.name).toBe('object')
      }
      const byName = new Map(tools.map((tool) => [tool.name, tool]))
      for (const name of ['list_plans', 'get_public_capabilities', 'list_public_resources', 'read_public_resource']) {
        expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(true)
      }
      expect(byName.get('open_app')?.annotations?.readOnlyHint).toBe(false)
      // Only reading one resource needs an argument, and on /contact the sales form its required fields.
      const needingArguments = tools.filter((tool) => (tool.inputSchema.required ?? []).length > 0).sort((a, b) => a.name.localeCompare(b.name))
      expect(needingArguments.map((tool) => [tool.name, tool.inputSchema.required])).toEqual([
        ['read_public_resource', ['resourceId']],
        ...(SALES_FORM_PATHS.includes(path) ? [[SALES_FORM_TOOL_NAME, ['name', 'email', 'company', 'teamSize', 'goal', 'topic']]] : []),
      ])
      expect(problems).toEqual([])
    })

    withWebMcp(`${path}: every read answers what the REST API and the pricing twin say`, async ({ page, request }) => {
      const problems = watchProblems(page)
      await openWithTools(page, path)

      const plans = await execute(page, 'list_plans', {})
      expect(plans?.isError).toBeUndefined()
      expect(JSON.parse(plans?.content[0]?.text ?? '')).toEqual(plans?.structuredContent)
      const fromTwin = await twinPlans(request)
      expect(fromTwin.length).toBeGreaterThan(0)
      expect(
        ((plans?.structuredContent.plans ?? []) as any[]).map((plan) => ({
          heading: `${plan.name}: ${plan.price}, ${plan.unit}`,
          features: plan.features,
          ctaLabel: plan.ctaLabel,
          url: plan.url,
        })),
      ).toEqual(fromTwin)

      // The REST answer's own bytes, as text and as structured content.
      for (const [name, restPath] of [
        ['get_public_capabilities', '/api/agent/v1/capabilities'],
        ['list_public_resources', '/api/agent/v1/resources'],
      ] as const) {
        const result = await execute(page, name, {})
        const body = await restText(request, restPath)
        expect(result, name).toEqual({ content: [{ type: 'text', text: body }], structuredContent: JSON.parse(body) })
      }
      const list = JSON.parse(await restText(request, '/api/agent/v1/resources')) as { resources: { id: string }[] }
      expect(list.resources.length).toBeGreaterThan(0)
      for (const { id } of list.resources) {
        const result = await execute(page, 'read_public_resource', { resourceId: id })
        const body = await restText(request, `/api/agent/v1/resources/${id}`)
        expect(result, id).toEqual({ content: [{ type: 'text', text: body }], structuredContent: JSON.parse(body) })
      }
      expect(problems).toEqual([])
    })

    withWebMcp(`${path}: bad arguments get an error result naming what is wrong, and the page stays`, async ({ page }) => {
      const problems = watchProblems(page)
      await openWithTools(page, path)
      const cases: [string, object, string][] = [
        ['list_plans', { plan: 'team' }, 'Invalid arguments for list_plans: unexpected "plan". It takes no arguments.'],
        ['get_public_capabilities', { verbose: true }, 'Invalid arguments for get_public_capabilities: unexpected "verbose". It takes no arguments.'],
        [
          'read_public_resource',
          { resourceId: 'pricing' },
          'Invalid arguments for read_public_resource: unknown resourceId "pricing". Valid values: product-overview, developer-resources, agent-boundaries.',
        ],
        [
          'read_public_resource',
          {},
          'Invalid arguments for read_public_resource: resourceId is required. Valid values: product-overview, developer-resources, agent-boundaries.',
        ],
        [
          'read_public_resource',
          { resourceId: 7 },
          'Invalid arguments for read_public_resource: resourceId must be a string, not a number. Valid values: product-overview, developer-resources, agent-boundaries.',
        ],
        ['open_app', { destination: 'home' }, 'Invalid arguments for open_app: unknown destination "home". Valid values: signup, login.'],
        ['open_app', { plan: 'gold' }, 'Invalid arguments for open_app: unknown plan "gold". Valid values: personal, team, programme.'],
        [
          'open_app',
          { destination: 'login', plan: 'team' },
          'Invalid arguments for open_app: plan goes with destination signup only. Log in without a plan, or sign up with one.',
        ],
      ]
      for (const [name, args, text] of cases) {
        expect(await execute(page, name, args), `${name} ${JSON.stringify(args)}`).toEqual({ content: [{ type: 'text', text }], isError: true })
      }
      expect(new URL(page.url()).pathname).toBe(path)
      expect(problems).toEqual([])
    })

    withWebMcp(`${path}: open_app takes the visitor to the app's sign-up with the plan the pricing twin links`, async ({ page, request }) => {
      const problems = watchProblems(page)
      await standInForRemoteOrigins(page)
      await openWithTools(page, path)
      const team = (await twinPlans(request)).find((plan) => plan.heading.startsWith('Team:'))
      expect(team?.url).toBe(`${APP}/signup?plan=team`)
      const result = await execute(page, 'open_app', { plan: 'team' })
      expect(result?.structuredContent).toEqual({ url: team?.url, destination: 'signup', plan: 'team' })
      expect(result?.isError).toBeUndefined()
      await page.waitForURL(team?.url ?? '')
      expect(problems).toEqual([])
    })
  }

  withWebMcp(
    'open_app: log-in goes where the login page links, a plan priced on request to the contact page, no plan to the sign-up',
    async ({ page, request }) => {
      await standInForRemoteOrigins(page)
      const loginTwin = await restText(request, '/login.md')
      const programme = (await twinPlans(request)).find((plan) => plan.heading.startsWith('Programme:'))
      const cases: [object, string | undefined][] = [
        [{ destination: 'login' }, /## Already have an account\?\n\n[^\n]+\n\n\[[^\]]+\]\((https:[^)]+\/login)\)/.exec(loginTwin)?.[1]],
        [{ plan: 'programme' }, programme?.url],
        [{}, /## New to Cadence\?\n\n[^\n]+\n\n\[[^\]]+\]\(([^)]+)\)/.exec(loginTwin)?.[1]],
      ]
      for (const [args, target] of cases) {
        expect(target, JSON.stringify(args)).toMatch(/^https:\/\//)
        await openWithTools(page, '/login')
        const result = await execute(page, 'open_app', args)
        expect(result?.structuredContent.url, JSON.stringify(args)).toBe(target)
        await page.waitForURL(target ?? '')
      }
    },
  )

  for (const path of SIGNUP_FORM_PATHS) {
    withWebMcp(
      `${path}: the sign-up form, run as the tool ${FORM_TOOL_NAME}, answers the URL it opens and submits to the app's sign-up with the plan`,
      async ({ page, request }) => {
        const problems = watchProblems(page)
        await standInForRemoteOrigins(page)
        const tools = await openWithTools(page, path)
        const form = tools.find((tool) => tool.name === FORM_TOOL_NAME)
        const signupPlans = (await twinPlans(request)).filter((plan) => plan.url?.startsWith(`${APP}/signup?plan=`))
        expect(form?.inputSchema.properties.plan?.enum).toEqual(signupPlans.map((plan) => new URL(plan.url ?? '').searchParams.get('plan')))
        const url = `${APP}/signup?plan=team`
        expect(await execute(page, FORM_TOOL_NAME, { plan: 'team' })).toEqual({
          content: [{ type: 'text', text: `Opening ${url} in this tab. The visitor continues there; nothing was sent to or created on this site.` }],
          structuredContent: { url, destination: 'signup', plan: 'team' },
        })
        await page.waitForURL(url)
        expect(problems).toEqual([])
      },
    )
  }
})

test.describe('without WebMCP', () => {
  for (const path of PAGE_PATHS) {
    test(`${path}: no model context, and not a single console message or page error`, async ({ page }) => {
      const messages: string[] = []
      page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`))
      page.on('pageerror', (error) => messages.push(`page error: ${error.message}`))
      await page.goto(path)
      await page.waitForLoadState('networkidle')
      expect(await page.evaluate(() => 'modelContext' in document || 'modelContext' in navigator)).toBe(false)
      expect(messages).toEqual([])
    })
  }

  for (const path of SIGNUP_FORM_PATHS) {
    test(`${path}: the sign-up form takes a visitor to the app's sign-up with the chosen plan`, async ({ page }) => {
      await standInForRemoteOrigins(page)
      await page.goto(path)
      await page.getByLabel('Plan', { exact: true }).selectOption('team')
      await page.getByRole('button', { name: 'Continue to sign-up' }).click()
      await page.waitForURL(`${APP}/signup?plan=team`)
    })
  }
})

test.describe('/developers: install the MCP server', () => {
  test('"Add to Cursor" and "Add to VS Code" decode to a configuration naming this build\'s MCP endpoint', async ({ page, request }) => {
    await page.goto('/developers')
    const configuration = JSON.parse(await restText(request, '/mcp.json')) as { mcpServers: Record<string, { url: string }> }
    const [name, server] = Object.entries(configuration.mcpServers)[0] ?? []
    expect(server?.url).toBe(`${BASE}/mcp`)

    const cursor = new URL((await page.getByRole('link', { name: 'Add to Cursor' }).getAttribute('href')) ?? '')
    expect(`${cursor.protocol}//${cursor.host}${cursor.pathname}`).toBe('cursor://anysphere.cursor-deeplink/mcp/install')
    expect(cursor.searchParams.get('name')).toBe(name)
    expect(JSON.parse(Buffer.from(cursor.searchParams.get('config') ?? '', 'base64').toString('utf8'))).toEqual({ url: `${BASE}/mcp` })

    const vscode = (await page.getByRole('link', { name: 'Add to VS Code' }).getAttribute('href')) ?? ''
    expect(vscode.startsWith('vscode:mcp/install?')).toBe(true)
    expect(JSON.parse(decodeURIComponent(vscode.slice('vscode:mcp/install?'.length)))).toEqual({ name, type: 'http', url: `${BASE}/mcp` })
  })

  test('the copy buttons copy the MCP URL and the page as Markdown, by mouse and by keyboard, and say so', async ({ page, context, request }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ORIGIN })
    await page.goto('/developers')
    const copyUrl = page.getByRole('button', { name: 'Copy MCP URL' })
    await expect(copyUrl).toBeEnabled()
    await copyUrl.click()
    await expect(page.getByRole('status').filter({ hasText: 'Copied the MCP URL to the clipboard.' })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${BASE}/mcp`)

    const copyMarkdown = page.getByRole('button', { name: 'Copy page as Markdown' })
    await copyMarkdown.focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('status').filter({ hasText: 'Copied this page as Markdown to the clipboard.' })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await restText(request, '/developers.md'))
  })

  test('the install links and copy buttons are reached by Tab in reading order', async ({ page }) => {
    await page.goto('/developers')
    await expect(page.getByRole('button', { name: 'Copy MCP URL' })).toBeEnabled()
    await page.getByRole('link', { name: 'Add to Cursor' }).focus()
    const order: string[] = []
    for (let step = 0; step < 4; step += 1) {
      order.push(await page.evaluate(() => document.activeElement?.textContent ?? ''))
      await page.keyboard.press('Tab')
    }
    expect(order).toEqual(['Add to Cursor', 'Add to VS Code', 'Copy MCP URL', 'Copy page as Markdown'])
  })

  test('has no axe violations (WCAG 2.1 A and AA)', async ({ page }) => {
    await page.goto('/developers')
    await expect(page.getByRole('button', { name: 'Copy MCP URL' })).toBeEnabled()
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([])
  })
})
