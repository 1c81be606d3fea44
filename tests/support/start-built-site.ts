/**
 * Playwright's web server command: makes the `test` build up to date (harness/site-build.ts),
 * then serves it exactly as `npm start` does, from the build's directory and with its settings.
 * Playwright starts web servers before its globalSetup, so the build has to happen here.
 */
import { rmSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ensureSiteBuild, SITE_BUILDS } from '../../harness/site-build.ts'

const dir = ensureSiteBuild('test')
// Each run starts with no leads: what a spec finds in the store is what it sent.
if (process.env.LEADS_DATABASE_PATH) rmSync(path.dirname(process.env.LEADS_DATABASE_PATH), { recursive: true, force: true })
Object.assign(process.env, SITE_BUILDS.test)
process.chdir(dir)
await import(pathToFileURL(path.join(dir, 'scripts', 'start.ts')).href)
