import path from 'node:path'
import { type BrowserContextOptions, expect, test, type Page } from '@playwright/test'
import { parseConfig } from '../../lib/env.ts'
import type { LeadArchive, StoredLead } from '../../lib/leads/lead-archive.ts'
import { openLeadStore } from '../../lib/leads/store.ts'
import { projectRoot } from '../../harness/paths.ts'
import { E2E_LEADS_DATABASE, E2E_WEBHOOK_PORT } from '../support/e2e-site.ts'
import { SALES_FORM_TOOL_NAME, WEBMCP_CHROME_FLAG } from '../support/webmcp.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

/**
 * The "Talk to sales" form in Chromium, with JavaScript on and off: a visitor fills it in, sends it
 * and lands on the thank-you page; a mistake the browser lets through (an address without a domain
 * the server accepts) comes back with the form filled in and the message beside the field, and the
 * correction sent a moment later is a lead, delivered, not spam; so is a form the browser's agent
 * filled through WebMCP and the visitor sent a second later.
 */

let receiver: WebhookReceiver
test.beforeAll(async () => {
  receiver = await startWebhookReceiver({ port: E2E_WEBHOOK_PORT })
})
test.afterAll(async () => {
  await receiver?.stop()
})

/** The lead the suite's server stored for this email, read from its store as `npm run leads` reads it. */
async function storedLead(email: string): Promise<StoredLead | undefined> {
  const store = openLeadStore(parseConfig({ LEADS_DATABASE_PATH: path.join(projectRoot, E2E_LEADS_DATABASE) })) as LeadArchive
  try {
    return (await store.list()).find((lead) => lead.fields.email === email)
  } finally {
    await store.close()
  }
}

let visitors = 0
/**
 * A browser context of its own, as a visitor of its own: the suite's server trusts loopback as a proxy,
 * so each visitor's X-Forwarded-For is its address, and one test's posts never spend another's limit.
 */
function asVisitor(options: BrowserContextOptions = {}): BrowserContextOptions {
  visitors += 1
  return { ...options, extraHTTPHeaders: { 'X-Forwarded-For': `198.51.100.${visitors}` } }
}

async function deliveredEmails(): Promise<string[]> {
  return receiver.accepted().map((request) => (JSON.parse(request.body) as { data: { email: string } }).data.email)
}

async function fillForm(page: Page, email: string): Promise<void> {
  await page.getByLabel('Your name').fill('Grace Hopper')
  await page.getByLabel('Work email').fill(email)
  await page.getByLabel('Company or organisation').fill('Compilers & Co')
  await page.getByLabel('Team or cohort size').selectOption('11-50')
  await page.getByLabel('What do you want to achieve?').fill('Mentor 30 new engineers through their first quarter.')
  await page.getByLabel('Topic').selectOption('programme')
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? 'with JavaScript' : 'without JavaScript'

  test(`${mode}: the filled form lands on the thank-you page`, async ({ browser }) => {
    const context = await browser.newContext(asVisitor({ javaScriptEnabled }))
    const page = await context.newPage()
    await page.goto('/contact?plan=programme#talk-to-sales')
    // The page script chooses the plan the link named; without it the visitor chooses it.
    if (javaScriptEnabled) await expect(page.getByLabel('Plan (optional)')).toHaveValue('programme')
    else {
      await expect(page.getByLabel('Plan (optional)')).toHaveValue('')
      await page.getByLabel('Plan (optional)').selectOption('programme')
    }
    await fillForm(page, `grace-${javaScriptEnabled ? 'js' : 'nojs'}-${Date.now()}@compilers.example`)
    await page.getByRole('button', { name: 'Send to sales' }).click()
    await page.waitForURL('**/contact/thanks')
    await expect(page.locator('h1')).toHaveText('Thank you')
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, follow')
    await context.close()
  })

  test(`${mode}: a mistake comes back with the values and the message beside the field`, async ({ browser }) => {
    const context = await browser.newContext(asVisitor({ javaScriptEnabled }))
    const page = await context.newPage()
    await page.goto('/contact')
    await fillForm(page, 'grace@localhost')
    await page.getByRole('button', { name: 'Send to sales' }).click()
    await expect(page.locator('#lead-email-error')).toHaveText('Please enter an email address such as name@company.com.')
    await expect(page.getByLabel('Work email')).toHaveValue('grace@localhost')
    await expect(page.getByLabel('Work email')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByLabel('Company or organisation')).toHaveValue('Compilers & Co')
    await expect(page.getByLabel('Team or cohort size')).toHaveValue('11-50')
    await expect(page.locator('.lead-summary')).toHaveText('One field needs another look; the message is beside it.')
    expect(new URL(page.url()).pathname).toBe('/contact/send')
    await context.close()
  })
}

test('the form is a declarative WebMCP tool: a name, a description, a description per field, and no autosubmit', async ({ page }) => {
  await page.goto('/contact')
  const form = page.locator('form#talk-to-sales')
  await expect(form).toHaveAttribute('toolname', 'talk_to_sales')
  await expect(form).toHaveAttribute('tooldescription', /^Asks the sales team to get in touch/)
  expect(await form.getAttribute('toolautosubmit')).toBeNull()
  const described = await form
    .locator('input:not([type="hidden"]):not([tabindex="-1"]), select, textarea')
    .evaluateAll((fields) => fields.map((field) => [field.getAttribute('name'), Boolean(field.getAttribute('toolparamdescription'))]))
  expect(described).toEqual([
    ['name', true],
    ['email', true],
    ['company', true],
    ['teamSize', true],
    ['goal', true],
    ['topic', true],
    ['plan', true],
  ])
})

test('with JavaScript: an address refused, corrected and sent again within a second is a lead, delivered, not spam', async ({ browser }) => {
  const page = await (await browser.newContext(asVisitor())).newPage()
  const email = `jane-${Date.now()}@acme.example`
  await page.goto('/contact')
  await fillForm(page, email.replace('.example', ''))
  // A person takes a while over the first fill; the correction takes a second.
  await page.waitForTimeout(3_200)
  await page.getByRole('button', { name: 'Send to sales' }).click()
  await expect(page.locator('#lead-email-error')).toHaveText('Please enter an email address such as name@company.com.')
  await page.getByLabel('Work email').fill(email)
  await page.getByRole('button', { name: 'Send to sales' }).click()
  await page.waitForURL('**/contact/thanks')
  expect((await storedLead(email))?.spamReason).toBeNull()
  await expect.poll(deliveredEmails).toContain(email)
})

test("with the browser's agent: talk_to_sales filled through WebMCP at once and sent by the visitor a second later is a lead, delivered", async ({
  playwright,
  baseURL,
}) => {
  const browser = await playwright.chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--no-first-run', WEBMCP_CHROME_FLAG],
  })
  try {
    const page = await (await browser.newContext(asVisitor({ baseURL }))).newPage()
    await page.goto('/contact')
    const email = `agent-${Date.now()}@acme.example`
    const session = await page.context().newCDPSession(page)
    await session.send('WebMCP.enable')
    const { frameTree } = await session.send('Page.getFrameTree')
    const input = { name: 'Grace Hopper', email, company: 'Compilers & Co', teamSize: '11-50', goal: 'Mentor our new engineers.', topic: 'programme' }
    await session.send('WebMCP.invokeTool', { frameId: frameTree.frame.id, toolName: SALES_FORM_TOOL_NAME, input })
    await expect(page.getByLabel('Work email')).toHaveValue(email)
    await page.waitForTimeout(1_000)
    await page.getByRole('button', { name: 'Send to sales' }).click()
    await page.waitForURL('**/contact/thanks')
    expect((await storedLead(email))?.spamReason).toBeNull()
    await expect.poll(deliveredEmails).toContain(email)
  } finally {
    await browser.close()
  }
})

for (const javaScriptEnabled of [true, false]) {
  // With the page script the campaign of the visit's first page travels with the visit; without it,
  // the form knows the contact page's own URL, so there the campaign link is the contact page's.
  const landing = javaScriptEnabled ? '/pricing' : '/contact'
  test(`${javaScriptEnabled ? 'with' : 'without'} JavaScript: a campaign link to ${landing}, then the Programme plan's form, is a delivered lead that names the campaign`, async ({
    browser,
  }) => {
    const context = await browser.newContext(asVisitor({ javaScriptEnabled }))
    const page = await context.newPage()
    const campaign = 'utm_source=newsletter&utm_medium=email&utm_campaign=spring-2027'
    const email = `campaign-${javaScriptEnabled ? 'js' : 'nojs'}-${Date.now()}@acme.example`
    await page.goto(`${landing}?${javaScriptEnabled ? campaign : `plan=programme&${campaign}`}`, { referer: 'https://news.example/issue/12' })
    if (javaScriptEnabled) {
      await page.locator('#plan-programme').getByRole('link', { name: 'Talk to us' }).click()
      await page.waitForURL('**/contact?plan=programme#talk-to-sales')
    }
    await fillForm(page, email)
    await page.waitForTimeout(3_100)
    await page.getByRole('button', { name: 'Send to sales' }).click()
    await page.waitForURL('**/contact/thanks')
    const expected = {
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'spring-2027',
      utmTerm: null,
      utmContent: null,
      landingPage: landing,
      // The referring site is known to the page script only (a static page cannot read the Referer).
      referrerOrigin: javaScriptEnabled ? 'https://news.example' : null,
      viaWebMcp: false,
    }
    expect((await storedLead(email))?.attribution).toEqual(expected)
    await expect
      .poll(
        async () =>
          receiver
            .accepted()
            .map((request) => JSON.parse(request.body) as { data: { email: string; attribution: unknown } })
            .find((event) => event.data.email === email)?.data.attribution,
      )
      .toEqual(expected)
    await context.close()
  })
}
