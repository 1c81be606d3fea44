/**
 * Playwright's web server command: builds the site when the build is missing or older than the
 * sources (tests/support/build-once.ts), then serves it exactly as `npm start` does. Playwright starts
 * web servers before its globalSetup, so the build has to happen here.
 */
import setup from './build-once.ts'

setup()
await import('../../scripts/start.ts')
