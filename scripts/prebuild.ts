/**
 * Runs before `next build` (npm's prebuild): the settings, from the environment and the `.env` files
 * `next build` reads, and every file under content/, written once checked to the content snapshot the
 * production servers load (lib/content/load.ts). A wrong setting stops the build with one line
 * naming the variable; a wrong content edit with the file, line, field and what is expected. A Vercel
 * production build without Upstash Redis is warned that its quota is per instance, and a production
 * build that still names `.example` placeholder domains is warned about each, and a Vercel build without
 * Upstash Redis that its contact form is off (no durable lead store), or without CRON_SECRET that its
 * cron run of lead deliveries is refused. The agent API's answers are
 * checked against their contract schemas (they are served without parsing). Then it bundles the
 * pages' script into public/ (scripts/page-script.ts), which `next build` serves from there, and zod
 * and the MCP SDK into one file each, which the server build uses (scripts/prebundled-packages.ts).
 */
import { buildAgentCatalog, operationAnswers } from '../lib/agent/catalog.ts'
import { checkContentOrExit } from '../lib/content/check.ts'
import { writeContentSnapshot } from '../lib/content/parse.ts'
import { placeholderDomainWarning } from '../lib/content/placeholder-domains.ts'
import { loadSettingsOrExit } from '../lib/env-files.ts'
import { leadDeploymentWarnings } from '../lib/leads/store.ts'
import { contractViolations } from '../lib/contract/operation-schemas.ts'
import { perInstanceQuotaWarning } from '../lib/quota/quota.ts'
import { buildSite } from '../lib/site-model.ts'
import { buildPageScript } from './page-script.ts'
import { buildPrebundledPackages } from './prebundled-packages.ts'

const config = loadSettingsOrExit()
const warning = perInstanceQuotaWarning(config)
if (warning) console.warn(warning)
for (const leadWarning of leadDeploymentWarnings(config)) console.warn(leadWarning)
const content = checkContentOrExit('build', writeContentSnapshot)
const placeholders = placeholderDomainWarning(config, content)
if (placeholders) console.warn(placeholders)
// The agent API's bodies are served as built, not parsed at run time: each must be its schema's output.
const violations = contractViolations(operationAnswers(buildAgentCatalog(buildSite(config, content))))
if (violations.length > 0) {
  console.error(`The agent API's answers break the contract:\n${violations.join('\n')}`)
  process.exit(1)
}
console.log('settings and content/: all valid')
await Promise.all([buildPageScript(), buildPrebundledPackages()])
