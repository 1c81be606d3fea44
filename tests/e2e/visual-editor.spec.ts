/**
 * The visual editor in a real browser, in local mode: `npm run dev` of a copy of the project (a git
 * repository of its own, so that `git status` says what a save wrote). A price edited in the editor
 * changes one line of content/pages/pricing.md and shows on /pricing, /pricing.md and in the page's
 * plan data; wrong values are refused and write nothing; opening and saving every entry unchanged
 * writes nothing.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { EDITOR_SINGLETONS } from '../../lib/content/editor-entries.ts'
import { type DevServer, startDevServer } from '../support/dev-server.ts'
import { copyProject, type ProjectCopy } from '../support/project-copy.ts'

let copy: ProjectCopy
let dev: DevServer

test.describe.configure({ mode: 'serial', timeout: 180_000 })

const PRICING = 'content/pages/pricing.md'
const read = (file: string) => readFileSync(path.join(copy.root, file), 'utf8')
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

test('a price of "twelve" is not taken, an empty plan name and a feature over 120 characters are refused; nothing is written', async ({
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

  await dialog.getByRole('textbox', { name: 'Plan name' }).fill('')
  await dialog.getByRole('button', { name: 'Done' }).click()
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
  await feature.fill('x'.repeat(121))
  await feature.blur()
  await featureDialog.getByRole('button', { name: 'Done' }).click()
  // Refused: the feature stays open with the message, and nothing is written.
  await expect(fresh.getByRole('dialog')).toHaveCount(2)
  await expect(featureDialog.getByText(/120/).first()).toBeVisible()
  expect(git('status', '--porcelain', '--', 'content')).toBe('')
  await context.close()
})

test('opening and saving every entry unchanged writes nothing', async ({ page }) => {
  for (const entry of EDITOR_SINGLETONS) {
    await openEntry(page, entry.key, entry.label)
    const update = page.waitForResponse((response) => response.url().endsWith('/api/keystatic/update'), { timeout: 10_000 }).catch(() => undefined)
    await save(page)
    await update
  }
  expect(git('status', '--porcelain', '--', 'content')).toBe('')
})
