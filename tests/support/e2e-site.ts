/**
 * The site the Playwright suite runs against: a fixed, uncommon loopback port and the settings the
 * web server is started with, shared by tests/playwright.config.ts and the specs.
 */
export const E2E_PORT = 43117
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`
/** A product-app URL that differs from the default, so the login page's links prove APP_URL is read at run time. */
export const E2E_APP_URL = 'https://app.cadence.test'
