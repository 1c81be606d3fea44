import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'
import { E2E_LEADS_DATABASE, E2E_ORIGIN, E2E_PORT, E2E_WEBHOOK_PORT, E2E_WEBHOOK_SECRET } from './support/e2e-site.ts'
import { blankedSiteVariables } from '../harness/site-build.ts'
import { CHROMIUM_PATH } from '../harness/system-packages.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
// Scripts need Node 24 (type stripping); the `node` devDependency provides it when the shell's is older.
const localNode = path.join(root, 'node_modules', '.bin', 'node')
const node = existsSync(localNode) ? localNode : 'node'

export default defineConfig({
  testDir: 'e2e',
  outputDir: '.artifacts/playwright',
  // Two shared cores and one server: one worker keeps timings stable.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: E2E_ORIGIN,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-dev-shm-usage',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `"${node}" tests/support/start-built-site.ts`,
    cwd: root,
    url: `${E2E_ORIGIN}/`,
    reuseExistingServer: false,
    // Includes `npm run build` when the build is stale.
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      // Keep a developer's shell or `.env` file from turning this into a preview or a disabled deployment.
      ...blankedSiteVariables(),
      HOST: '127.0.0.1',
      PORT: String(E2E_PORT),
      NEXT_TELEMETRY_DISABLED: '1',
      NODE_ENV: 'production',
      // A fresh store per run (start-built-site.ts removes it), and a webhook the contact-form spec receives.
      LEADS_DATABASE_PATH: path.join(root, E2E_LEADS_DATABASE),
      LEADS_WEBHOOK_URL: `http://127.0.0.1:${E2E_WEBHOOK_PORT}/hooks/leads`,
      LEADS_WEBHOOK_SECRET: E2E_WEBHOOK_SECRET,
      // Loopback stands for a proxy: a test says which visitor it is by X-Forwarded-For (the form's limit is per client).
      TRUST_PROXY: '127.0.0.1',
    },
  },
})
