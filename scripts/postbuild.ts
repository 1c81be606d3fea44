/**
 * Runs after `next build` (npm's postbuild, also under `vercel build`, whose build command is
 * `npm run build`): every prerendered page without Next's client runtime, and with its
 * Content-Security-Policy (lib/pages/prerendered-pages.ts); and the contact form's answer renderer
 * compiled for `npm start` (./contact-answer.ts).
 */
import path from 'node:path'
import { loadSettingsOrExit } from '../lib/env-files.ts'
import { finishPrerenderedPages } from '../lib/pages/prerendered-pages.ts'
import { getSite } from '../lib/site.ts'
import { buildContactAnswer } from './contact-answer.ts'

loadSettingsOrExit()
const distDir = path.join(process.cwd(), '.next')
finishPrerenderedPages(distDir, getSite())
await buildContactAnswer(distDir)
console.log("pages: Next client runtime removed, Content-Security-Policy added; the contact form's answers compiled for npm start")
