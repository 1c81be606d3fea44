/**
 * The site the Playwright suite runs against: the `test` build (harness/site-build.ts) served on
 * a fixed, uncommon loopback port. Shared by tests/playwright.config.ts and the specs.
 */
import { SITE_BUILDS } from '../../harness/site-build.ts'

/** E2E_PORT lets two checkouts on one machine run their suites at once. */
export const E2E_PORT = Number(process.env.E2E_PORT || 43117)
/** Where the browser connects. */
export const E2E_ORIGIN = `http://127.0.0.1:${E2E_PORT}`
/** The base URL the build publishes: canonical URLs, Link headers and documents use it. */
export const E2E_BASE_URL = SITE_BUILDS.test.BASE_URL
/** The product app the login page hands off to (differs from the default). */
export const E2E_APP_URL = SITE_BUILDS.test.APP_URL

/** Where the suite's server keeps leads, and where it delivers them: a receiver the contact-form spec starts on this port. */
export const E2E_LEADS_DATABASE = 'tests/.artifacts/e2e/leads.sqlite'
export const E2E_WEBHOOK_PORT = E2E_PORT + 1
export const E2E_WEBHOOK_SECRET = `whsec_${Buffer.from('e2e-webhook-secret-of-32-bytes!!').toString('base64')}`
