/**
 * Runs after `next build` (npm's postbuild, also under `vercel build`, whose build command is
 * `npm run build`): gives every prerendered page its Content-Security-Policy, hashes of its inline
 * scripts included (lib/pages/page-csp.ts).
 */
import path from 'node:path'
import { loadSettingsOrExit } from '../lib/env-files.ts'
import { addPageContentSecurityPolicies } from '../lib/pages/page-csp.ts'
import { getSite } from '../lib/site.ts'

loadSettingsOrExit()
addPageContentSecurityPolicies(path.join(process.cwd(), '.next'), getSite())
console.log('pages: Content-Security-Policy with the hashes of their inline scripts added')
