import { expect, test, type Page } from '@playwright/test'

/**
 * The "Talk to sales" form in Chromium, with JavaScript on and off: a visitor fills it in, sends it
 * and lands on the thank-you page; a mistake the browser lets through (an address without a domain
 * the server accepts) comes back with the form filled in and the message beside the field.
 */

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
    const context = await browser.newContext({ javaScriptEnabled })
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
    const context = await browser.newContext({ javaScriptEnabled })
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
