/**
 * The marketing team's preview: `npm run dev` in a copy of the project shows an edit of any file in
 * content/ on the next request — HTML pages, the Markdown homepage, API bodies — without a restart,
 * and a wrong edit shows Next's error overlay naming the file, the line and the field by its name,
 * until it is fixed. The dev server also never prints Next's telemetry notice.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { copyProject, type ProjectCopy } from '../support/project-copy.ts'
import { envWithoutSiteVariables, freePort } from '../../harness/site-server.ts'

let copy: ProjectCopy
let dev: ChildProcess
let origin: string
let output = ''
let nextConfigHome: string

// One dev server for the whole file; the first request of each route compiles it.
test.describe.configure({ mode: 'serial', timeout: 120_000 })

test.beforeAll(async () => {
  test.setTimeout(120_000)
  copy = copyProject({ nodeModules: 'hardlink', build: false })
  const port = await freePort()
  origin = `http://127.0.0.1:${port}`
  // What `npm run dev` sees in a plain shell: no NODE_ENV, no telemetry opt-out, and a fresh Next
  // config directory, where telemetry that is not really off prints its first-run notice.
  nextConfigHome = mkdtempSync(path.join(tmpdir(), 'next-config-'))
  const env: Record<string, string | undefined> = { ...envWithoutSiteVariables(), XDG_CONFIG_HOME: nextConfigHome }
  delete env.NODE_ENV
  delete env.NEXT_TELEMETRY_DISABLED
  dev = spawn('npm', ['run', 'dev', '--', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: copy.root,
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  dev.stdout?.on('data', (chunk) => (output += chunk))
  dev.stderr?.on('data', (chunk) => (output += chunk))
  const deadline = Date.now() + 60_000
  while (!/Ready in/.test(output)) {
    if (dev.exitCode !== null) throw new Error(`npm run dev exited:\n${output}`)
    if (Date.now() > deadline) throw new Error(`npm run dev not ready within 60 s:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
})

test.afterAll(async () => {
  if (dev?.pid && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once('exit', resolve))
    process.kill(-dev.pid, 'SIGTERM')
    await exited
  }
  copy?.dispose()
  if (nextConfigHome) rmSync(nextConfigHome, { recursive: true, force: true })
})

function edit(file: string, change: (source: string) => string): void {
  const target = path.join(copy.root, file)
  const before = readFileSync(target, 'utf8')
  const after = change(before)
  expect(after, `the edit of ${file} changes it`).not.toBe(before)
  writeFileSync(target, after)
}

test('an edit of content/ shows on the next request: HTML pages, the Markdown homepage and API bodies', async ({ page, request }) => {
  await page.goto(`${origin}/pricing`)
  await expect(page.locator('#plan-team .plan-name')).toHaveText('Team')
  edit('content/pages/pricing.md', (s) => s.replace('    name: Team\n', '    name: Team Plus\n'))
  await page.reload()
  await expect(page.locator('#plan-team .plan-name')).toHaveText('Team Plus')

  edit('content/home.md', (s) =>
    s.replace('brings a mentor in the moment you are stuck.\n\n', 'brings a mentor in the moment you are stuck. Edited for the preview.\n\n'),
  )
  await page.goto(`${origin}/`)
  await expect(page.locator('main')).toContainText('Edited for the preview.')
  const markdown = await request.get(`${origin}/`, { headers: { Accept: 'text/markdown' } })
  expect(markdown.headers()['content-type']).toBe('text/markdown; charset=utf-8')
  expect(await markdown.text()).toContain('brings a mentor in the moment you are stuck. Edited for the preview.')

  edit('content/resources/product-overview.md', (s) => s.replace('# Cadence product overview\n', '# Cadence product overview, previewed\n'))
  const resource = await request.get(`${origin}/api/agent/v1/resources/product-overview`)
  expect(resource.status()).toBe(200)
  expect(((await resource.json()) as { content: string }).content).toMatch(/^# Cadence product overview, previewed\n/)

  expect(output).not.toMatch(/telemetry/i)
})

test('a wrong edit shows the error overlay with the file, the line and the field by its name, until it is fixed', async ({ page }) => {
  edit('content/pages/pricing.md', (s) => s.replace('priceMonthlyUsd: 12', 'priceMonthlyUsd: twelve'))
  await page.goto(`${origin}/pricing`)
  await expect(
    page.getByText('content/pages/pricing.md:21: plan "Team Plus" › priceMonthlyUsd: expected a number, got "twelve"').first(),
  ).toBeVisible()

  edit('content/pages/pricing.md', (s) => s.replace('priceMonthlyUsd: twelve', 'priceMonthlyUsd: 12'))
  edit('content/pages/login.md', (s) => s.replace('title: Log in', 'title: [Log in'))
  await page.goto(`${origin}/login`)
  await expect(
    page
      .getByText('content/pages/login.md:2: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]')
      .first(),
  ).toBeVisible()

  edit('content/pages/login.md', (s) => s.replace('title: [Log in', 'title: Log in'))
  const fixed = await page.goto(`${origin}/pricing`)
  expect(fixed?.status()).toBe(200)
  await expect(page.locator('#plan-team .price')).toHaveText('$12')
})
