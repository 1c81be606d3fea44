/**
 * The visual editor in a real browser, in local mode: `npm run dev` of a copy of the project (a git
 * repository of its own, so that `git status` says what a save wrote). `npm run dev` listens on
 * loopback only, and its editor refuses requests for another host or from a page of another origin,
 * writing nothing. A price edited in the editor changes one line of content/pages/pricing.md and
 * shows on /pricing, /pricing.md and in the page's plan data; wrong values are refused and write
 * nothing; a file broken by hand opens in the editor, which says what is wrong in the content
 * check's words and fixes it; Keystatic's own writer, run by the editor, writes every entry it read
 * back byte for byte, an emptied price as null and an emptied help text not at all.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import path from 'node:path'
import { expect, type Page, test } from '@playwright/test'
// The entries alone: this file runs on Node, which cannot load the editor's page (its Next imports need Next's bundler).
import { EDITOR_SINGLETONS, type FieldWords } from '../../lib/editor/entries.ts'
import { ContactFrontmatterSchema, PricingFrontmatterSchema } from '../../lib/content/frontmatter.ts'
import { parseContentFile } from '../../lib/content/parse.ts'
import { type DevServer, listeningAddresses, startDevServer } from '../support/dev-server.ts'
import { copyProject, type ProjectCopy } from '../support/project-copy.ts'

let copy: ProjectCopy
let dev: DevServer

test.describe.configure({ mode: 'serial', timeout: 180_000 })

const PRICING = 'content/pages/pricing.md'
const CONTACT = 'content/pages/contact.md'
const LOGIN = 'content/pages/login.md'
const PRICING_WORDS = EDITOR_SINGLETONS.find((entry) => entry.key === 'pricing')?.labels
/** The help texts under a page's title and under a plan's price in the editor. */
const TITLE_HELP = PRICING_WORDS?.title?.description ?? ''
const PRICE_HELP = (PRICING_WORDS?.plans?.entry as Record<string, FieldWords> | undefined)?.priceMonthlyUsd?.description ?? ''
const read = (file: string) => readFileSync(path.join(copy.root, file), 'utf8')
/** `npm run check-content` in the copy: its exit status and what it printed. */
const checkContent = () => {
  const result = spawnSync('npm', ['run', '--silent', 'check-content'], { cwd: copy.root, encoding: 'utf8' })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}
/**
 * What the content check says of one field of the pricing file with `from` replaced by `to`: its
 * message for `plan "…" › <field>`, without the file, line and field.
 */
function contentCheckSays(from: string, to: string, field: string): string {
  const source = read(PRICING)
  expect(source).toContain(from)
  let said = ''
  try {
    parseContentFile(PRICING, source.replace(from, to), PricingFrontmatterSchema)
  } catch (error) {
    said = (error as Error).message
  }
  const message = new RegExp(`^${PRICING}:\\d+: plan "[^"]+" › ${field}: (.+)$`, 'm').exec(said)?.[1]
  if (!message) throw new Error(`the content check said nothing of ${field}: ${said}`)
  return message
}
const git = (...args: string[]) => {
  const result = spawnSync('git', ['-c', 'user.email=editor@cadence.example', '-c', 'user.name=Editor', ...args], {
    cwd: copy.root,
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`)
  return result.stdout
}

test.beforeAll(async () => {
  test.setTimeout(180_000)
  copy = copyProject({ nodeModules: 'hardlink', build: false })
  git('init', '-q')
  git('add', 'content')
  git('commit', '-qm', 'content as committed')
  dev = await startDevServer(copy.root)
})

// What the dev server printed, beside a failed test's report: its errors explain most failures here.
test.afterEach(async () => {
  const testInfo = test.info()
  if (testInfo.status === testInfo.expectedStatus) return
  const log = testInfo.outputPath('npm-run-dev.log')
  writeFileSync(log, dev.output())
  await testInfo.attach('npm run dev output', { path: log, contentType: 'text/plain' })
})

test.afterAll(async () => {
  await dev?.stop()
  copy?.dispose()
})

/** Opens an entry and waits until its form shows (the first request compiles the editor). */
async function openEntry(page: Page, key: string, label: string): Promise<void> {
  await page.goto(`${dev.origin}/keystatic/singleton/${key}`, { timeout: 120_000 })
  await expect(page.getByRole('heading', { name: label })).toBeVisible({ timeout: 120_000 })
  // The heading comes from the config; the fields show once the entry's file is read.
  await expect(page.getByRole('main').getByRole('textbox').first()).toBeVisible({ timeout: 60_000 })
}

async function save(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save' }).click()
}

async function openPlan(page: Page, name: string): Promise<void> {
  await page.getByText(name, { exact: true }).click()
  await expect(page.getByRole('dialog')).toBeVisible()
}

/** A request to the dev server as any client can send it: with a Host of its choice (fetch cannot set one). */
function send(method: string, requestPath: string, headers: Record<string, string>, body?: string): Promise<{ status?: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: dev.port, method, path: requestPath, headers }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode, body: text }))
    })
    request.once('error', reject)
    request.end(body)
  })
}

/** What Keystatic's browser app posts to save a file in local mode (its `no-cors` header included). */
const SAVE_HEADERS = { 'no-cors': '1', 'content-type': 'application/json' }
const saveBody = (file: string, contents: string) =>
  JSON.stringify({ additions: [{ path: file, contents: Buffer.from(contents).toString('base64') }], deletions: [] })

test('npm run dev listens on the loopback address only, and the editor answers there', async ({ request }) => {
  expect(listeningAddresses(dev.port)).toEqual(['127.0.0.1'])
  const editor = await request.get(`${dev.origin}/keystatic`, { timeout: 120_000 })
  expect(editor.status()).toBe(200)
})

test('the editor answers a request for another host 421 and one from a page of another origin 403, and writes nothing; from its own page the same save writes', async () => {
  const original = read(LOGIN)
  const rewritten = original.replace('title: Log in\n', 'title: Rewritten by a stranger\n')
  expect(rewritten).not.toBe(original)
  const own = `127.0.0.1:${dev.port}`
  const misdirected = {
    status: 421,
    body: `Misdirected request: the local editor answers only at localhost:${dev.port}, 127.0.0.1:${dev.port}, [::1]:${dev.port}.\n`,
  }
  const forbidden = { status: 403, body: 'Forbidden: the local editor takes requests only from its own pages.\n' }
  try {
    // A page whose name resolves to this machine (DNS rebinding) sends its own name as Host.
    expect(await send('POST', '/api/keystatic/update', { ...SAVE_HEADERS, host: `evil.example:${dev.port}` }, saveBody(LOGIN, rewritten))).toEqual(
      misdirected,
    )
    expect(
      await send('POST', '/api/keystatic/update', { ...SAVE_HEADERS, host: own, origin: 'http://evil.example' }, saveBody(LOGIN, rewritten)),
    ).toEqual(forbidden)
    expect(await send('GET', '/api/keystatic/tree', { 'no-cors': '1', host: `evil.example:${dev.port}` })).toEqual(misdirected)
    expect(await send('GET', '/keystatic', { host: `evil.example:${dev.port}` })).toEqual(misdirected)
    expect(await send('GET', '/keystatic/singleton/pricing', { host: own, origin: 'http://evil.example' })).toEqual(forbidden)
    expect(read(LOGIN)).toBe(original)
    expect(git('status', '--porcelain', '--', 'content')).toBe('')

    // The same save from the editor's own page is taken: what was refused would have written.
    const taken = await send('POST', '/api/keystatic/update', { ...SAVE_HEADERS, host: own, origin: `http://${own}` }, saveBody(LOGIN, rewritten))
    expect(taken.status).toBe(200)
    expect(read(LOGIN)).toBe(rewritten)
  } finally {
    writeFileSync(path.join(copy.root, LOGIN), original)
  }
})

test('a file broken by hand opens in the editor, whose fields show the content check’s messages, and is fixed there', async ({ page }) => {
  const original = read(PRICING)
  const tooLong = 'Pricing for individuals, teams and mentoring programmes, billed per active member each month'
  const broken = original.replace('title: Pricing\n', `title: ${tooLong}\n`).replace('    priceMonthlyUsd: 12\n', '    priceMonthlyUsd: twelve\n')
  writeFileSync(path.join(copy.root, PRICING), broken)
  try {
    const check = checkContent()
    expect(check.status).toBe(1)
    // The words `npm run check-content` prints for the title (line 2) and for the Team plan's price.
    const titleMessage = /^content\/pages\/pricing\.md:2: title: (.+)$/m.exec(check.output)?.[1]
    expect(titleMessage, check.output).toContain(`(this has ${tooLong.length})`)
    const priceMessage = /^content\/pages\/pricing\.md:\d+: plan "Team" › priceMonthlyUsd: (.+)$/m.exec(check.output)?.[1]
    expect(priceMessage, check.output).toContain('"twelve"')

    // The editor does not depend on the content: the page it edits fails, the editor opens.
    const page500 = await page.goto(`${dev.origin}/pricing`, { timeout: 120_000 })
    expect(page500?.status()).toBe(500)
    await openEntry(page, 'pricing', 'Pricing')
    const title = page.getByRole('textbox', { name: 'Page title' })
    await expect(title).toHaveValue(tooLong)
    // Shown as soon as the entry opens: the value came wrong from the file (Keystatic would wait for
    // a blur, or for a save, which it skips while nothing has changed). Keystatic's UI kit ties a
    // field's message to it as part of its description.
    await expect(title).toHaveAttribute('aria-invalid', 'true')
    await expect(title).toHaveAccessibleDescription(`${TITLE_HELP} ${titleMessage}`)
    await title.fill('Plans and prices')
    await expect(title).not.toHaveAttribute('aria-invalid')
    await expect(title).toHaveAccessibleDescription(TITLE_HELP)

    // A price the editor cannot hold as a number: the plan says so in the list, and its field too.
    const teamRow = page.getByRole('main').getByText(`Team — priceMonthlyUsd: ${priceMessage}`, { exact: true })
    await teamRow.click()
    const price = page.getByRole('dialog').getByRole('textbox', { name: 'Price per month in US dollars' })
    await expect(price).toHaveAccessibleDescription(`${PRICE_HELP} ${priceMessage}`)
    await price.fill('12')
    await price.blur()
    await expect(price).toHaveAccessibleDescription(PRICE_HELP)
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click()
    await expect(page.getByRole('main').getByText('Team', { exact: true })).toBeVisible()

    await save(page)
    const changed = () =>
      git('diff', '-U0', '--', PRICING)
        .split('\n')
        .filter((line) => /^[-+][^-+]/.test(line))
    await expect.poll(changed, { timeout: 20_000 }).toEqual(['-title: Pricing', '+title: Plans and prices'])
    expect(checkContent()).toEqual({ status: 0, output: 'content/: all valid\n' })

    const fixed = await page.goto(`${dev.origin}/pricing`)
    expect(fixed?.status()).toBe(200)
    await expect(page).toHaveTitle('Plans and prices · Cadence')
  } finally {
    writeFileSync(path.join(copy.root, PRICING), original)
  }
})

test('changing the Team price changes only its line, and /pricing, /pricing.md and the plan data show it', async ({ page, request }) => {
  await openEntry(page, 'pricing', 'Pricing')
  await openPlan(page, 'Team')
  await page.getByRole('dialog').getByRole('textbox', { name: 'Price per month in US dollars' }).fill('15')
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click()
  await save(page)
  // Polled: the dev server writes the file while the test reads it.
  const changed = () =>
    git('diff', '-U0', '--', PRICING)
      .split('\n')
      .filter((line) => /^[-+] /.test(line))
  await expect.poll(changed, { timeout: 20_000 }).toEqual(['-    priceMonthlyUsd: 12', '+    priceMonthlyUsd: 15'])

  const pricing = await page.goto(`${dev.origin}/pricing`)
  expect(pricing?.status()).toBe(200)
  await expect(page.locator('#plan-team .price')).toHaveText('$15')
  const tools = JSON.parse((await page.locator('#webmcp-tools').textContent()) ?? '[]') as Array<{
    name: string
    action: { body?: { plans: Array<{ id: string; priceMonthlyUsd: number | null }> } }
  }>
  const plans = tools.find((tool) => tool.name === 'list_plans')?.action.body?.plans
  expect(plans?.find((plan) => plan.id === 'team')?.priceMonthlyUsd).toBe(15)
  const markdown = await request.get(`${dev.origin}/pricing.md`)
  expect(await markdown.text()).toContain('$15')
  git('commit', '-qam', 'Team at 15')
})

test('a price of "twelve" is not taken, an empty plan name and a feature over 120 characters are refused with the content check’s words; nothing is written', async ({
  page,
  browser,
}) => {
  await openEntry(page, 'pricing', 'Pricing')
  await openPlan(page, 'Team')
  const dialog = page.getByRole('dialog')
  const price = dialog.getByRole('textbox', { name: 'Price per month in US dollars' })
  const saved = await price.inputValue()
  expect(read(PRICING)).toContain(`    name: Team\n    priceMonthlyUsd: ${saved}\n`)
  await price.fill('twelve')
  await price.blur()
  await expect(price).toHaveValue(saved)

  const emptyName = contentCheckSays('    name: Team\n', "    name: ''\n", 'name')
  const name = dialog.getByRole('textbox', { name: 'Plan name' })
  await name.fill('')
  await name.blur()
  await expect(name).toHaveAccessibleDescription(emptyName)
  await dialog.getByRole('button', { name: 'Done' }).click()
  // Closed, the plan says in the list of plans what is wrong with it.
  await expect(page.getByRole('main').getByText(`Plans — name: ${emptyName}`, { exact: true })).toBeVisible()
  await save(page)
  // Refused: the entry stays unsaved and no file changes.
  await expect(page.getByText('Unsaved')).toBeVisible()
  await page.waitForTimeout(1000)
  expect(git('status', '--porcelain', '--', 'content')).toBe('')

  // A fresh browser context: Keystatic keeps the refused edit as a draft in the browser and would restore it.
  const context = await browser.newContext()
  const fresh = await context.newPage()
  await openEntry(fresh, 'pricing', 'Pricing')
  await openPlan(fresh, 'Team')
  await fresh.getByRole('dialog').getByText('Unlimited goals').click()
  const featureDialog = fresh.getByRole('dialog').last()
  const feature = featureDialog.getByRole('textbox', { name: 'Feature' })
  const tooLong = 'x'.repeat(121)
  await feature.fill(tooLong)
  await feature.blur()
  await expect(feature).toHaveAccessibleDescription(contentCheckSays('      - Unlimited goals\n', `      - ${tooLong}\n`, 'feature 1'))
  await featureDialog.getByRole('button', { name: 'Done' }).click()
  // Refused: the feature stays open with the message, and nothing is written.
  await expect(fresh.getByRole('dialog')).toHaveCount(2)
  await expect(featureDialog.getByText(/120/).first()).toBeVisible()
  expect(git('status', '--porcelain', '--', 'content')).toBe('')
  await context.close()
})

test('every entry, saved with its description changed and then changed back, is its file byte for byte again', async ({ page }) => {
  test.setTimeout(300_000)
  const changed = 'Changed by the editor, then changed back.'
  for (const entry of EDITOR_SINGLETONS) {
    const before = read(entry.file)
    await openEntry(page, entry.key, entry.label)
    const description = page.getByRole('main').getByRole('textbox', { name: entry.labels.description?.label ?? 'description' })
    const original = await description.inputValue()
    expect(original, entry.file).not.toBe('')
    await description.fill(changed)
    await save(page)
    await expect.poll(() => read(entry.file) !== before, { timeout: 20_000, message: entry.file }).toBe(true)
    // Keystatic wrote the change and kept everything else: the content check reads the file as before but for it.
    expect(parseContentFile(entry.file, read(entry.file), entry.schema).data).toEqual({
      ...parseContentFile(entry.file, before, entry.schema).data,
      description: changed,
    })
    // Opened afresh, the entry holds what was written; changed back, it is written as it was read.
    await openEntry(page, entry.key, entry.label)
    await expect(description).toHaveValue(changed)
    await description.fill(original)
    await save(page)
    await expect.poll(() => read(entry.file), { timeout: 20_000, message: entry.file }).toBe(before)
  }
})

test('emptying the Team price writes null in its line, which /pricing shows as priced on request', async ({ page }) => {
  const before = read(PRICING)
  try {
    await openEntry(page, 'pricing', 'Pricing')
    await openPlan(page, 'Team')
    const price = page.getByRole('dialog').getByRole('textbox', { name: 'Price per month in US dollars' })
    const saved = await price.inputValue()
    expect(before).toContain(`    name: Team\n    priceMonthlyUsd: ${saved}\n`)
    await price.fill('')
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click()
    await save(page)
    const expected = before.replace(`    name: Team\n    priceMonthlyUsd: ${saved}\n`, '    name: Team\n    priceMonthlyUsd: null\n')
    await expect.poll(() => read(PRICING), { timeout: 20_000 }).toBe(expected)
    expect(parseContentFile(PRICING, expected, PricingFrontmatterSchema).data.plans.find((plan) => plan.id === 'team')?.priceMonthlyUsd).toBeNull()
    await page.goto(`${dev.origin}/pricing`)
    await expect(page.locator('#plan-team .price')).toHaveText('Custom')
  } finally {
    writeFileSync(path.join(copy.root, PRICING), before)
  }
})

test('emptying a help text of the sales form removes only its line of contact.md, and the page reads it as no help', async ({ page }) => {
  const before = read(CONTACT)
  try {
    await openEntry(page, 'contact', 'Contact')
    const help = page.getByRole('main').getByRole('textbox', { name: 'Email: help text' })
    await expect(help).toHaveValue('We answer to this address.')
    await help.fill('')
    await save(page)
    const expected = before.replace('      help: We answer to this address.\n', '')
    expect(expected).not.toBe(before)
    await expect.poll(() => read(CONTACT), { timeout: 20_000 }).toBe(expected)
    expect(parseContentFile(CONTACT, expected, ContactFrontmatterSchema).data.salesForm.fields.email.help).toBeUndefined()
  } finally {
    writeFileSync(path.join(copy.root, CONTACT), before)
  }
})
