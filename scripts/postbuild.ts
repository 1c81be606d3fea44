/**
 * Runs after `next build` (npm's postbuild, also under `vercel build`, whose build command is
 * `npm run build`): every prerendered page without Next's client runtime, and with its
 * Content-Security-Policy (lib/pages/prerendered-pages.ts).
 */
import path from 'node:path'
import { loadSettingsOrExit } from '../lib/env-files.ts'
import { finishPrerenderedPages } from '../lib/pages/prerendered-pages.ts'
import { getSite } from '../lib/site.ts'

loadSettingsOrExit()
finishPrerenderedPages(path.join(process.cwd(), '.next'), getSite())
console.log('pages: Next client runtime removed, Content-Security-Policy added')
