/**
 * `npm run leads -- list [--json] | export --csv | retry | purge`: the operator's view of the contact
 * form's leads, against the same store and settings as the site (the environment, then the `.env`
 * files as Next reads them). Exit codes as `npm run rollout`: 0 done, 1 failed (or deliveries still
 * pending after a retry), 2 wrong usage.
 */
import { loadSettingsOrExit } from '../lib/env-files.ts'
import { DESTINATIONS, type StoredLead } from '../lib/leads/lead-archive.ts'
import { deliverPending, describeRound, errorName, retentionCutoff } from '../lib/leads/delivery.ts'
import { describeDelivery, leadsCsv } from '../lib/leads/leads-csv.ts'
import { configuredDestinations, openLeadStore } from '../lib/leads/store.ts'

const USAGE = `Usage: npm run leads -- <command>

  list [--json]  every lead, oldest first, with its delivery state per destination
                 (--json: a JSON array, every field as stored)
  export --csv   every lead as CSV on stdout (RFC 4180, safe to open in a spreadsheet)
  retry          deliver every undelivered lead now: pending ones whatever their backoff, given-up
                 ones again, and destinations configured since a lead arrived; exit 1 if any is left
  purge          delete the leads older than LEADS_RETENTION_DAYS (default 180)

The store is the site's: Upstash Redis when UPSTASH_REDIS_REST_URL/_TOKEN (or KV_REST_API_URL/_TOKEN)
are set, else the SQLite file LEADS_DATABASE_PATH (default .data/leads.sqlite).`

const COMMANDS: Record<string, readonly string[][]> = {
  list: [[], ['--json']],
  export: [['--csv']],
  retry: [[]],
  purge: [[]],
}

const CLI_UPSTASH_TIMEOUT_MS = 10_000

function isUsage(argv: string[]): boolean {
  const [command, ...options] = argv
  const allowed = command !== undefined && Object.hasOwn(COMMANDS, command) ? (COMMANDS[command] ?? []) : []
  return allowed.some((form) => form.length === options.length && form.every((option, index) => options[index] === option))
}

function toJson(lead: StoredLead) {
  return {
    id: lead.id,
    receivedAt: lead.receivedAt.toISOString(),
    sourcePage: lead.sourcePage,
    spam: lead.spam,
    addressHash: lead.addressHash,
    ...lead.fields,
    deliveries: lead.deliveries,
  }
}

function describeLead(lead: StoredLead): string {
  const { fields } = lead
  const deliveries = DESTINATIONS.filter((destination) => lead.deliveries[destination])
    .map((destination) => `${destination}: ${describeDelivery(lead.deliveries[destination])}`)
    .join('; ')
  const plan = fields.plan ? `, plan ${fields.plan}` : ''
  return (
    `${lead.id}  ${lead.receivedAt.toISOString()}  ${fields.name} <${fields.email}>, ${fields.company}, ${fields.teamSize}, ${fields.topic}${plan}` +
    `${lead.spam ? '  [spam: kept, never delivered]' : ''}${deliveries ? `\n    ${deliveries}` : ''}`
  )
}

async function main(argv: string[]): Promise<number> {
  if (!isUsage(argv)) {
    console.error(USAGE)
    return 2
  }
  const command = argv[0]
  const config = loadSettingsOrExit()
  const store = openLeadStore(config, { upstashTimeoutMs: CLI_UPSTASH_TIMEOUT_MS })
  if (!store) {
    console.error(
      '[leads] no lead store: on Vercel, leads are kept only in Upstash Redis. Set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN ' +
        '(or KV_REST_API_URL and KV_REST_API_TOKEN) to the Redis the deployment uses.',
    )
    return 1
  }
  try {
    if (command === 'list') {
      const leads = await store.list()
      if (argv[1] === '--json') {
        process.stdout.write(`${JSON.stringify(leads.map(toJson), null, 2)}\n`)
      } else {
        for (const lead of leads) console.log(describeLead(lead))
        console.log(`${leads.length} lead${leads.length === 1 ? '' : 's'} (${store.kind} store)`)
      }
      return 0
    }
    if (command === 'export') {
      process.stdout.write(leadsCsv(await store.list()))
      return 0
    }
    if (command === 'purge') {
      const before = retentionCutoff(config, new Date())
      const purged = await store.purge(before)
      console.log(
        `[leads] purged ${purged} lead${purged === 1 ? '' : 's'} received before ${before.toISOString()} (LEADS_RETENTION_DAYS=${config.leads.retentionDays})`,
      )
      return 0
    }
    const destinations = configuredDestinations(config)
    if (destinations.length === 0) {
      console.error('[leads] nothing to deliver to: set LEADS_WEBHOOK_URL and LEADS_WEBHOOK_SECRET, or LEADS_SLACK_WEBHOOK_URL.')
      return 1
    }
    const due = await store.requeue(destinations, new Date())
    const counts = await deliverPending(store, config.leads, { maxAttempts: Number.MAX_SAFE_INTEGER })
    console.log(`${describeRound(counts) ?? '[leads] deliveries: none'} (${due} undelivered before the retry)`)
    return counts.retried + counts.failed > 0 ? 1 : 0
  } finally {
    await store.close()
  }
}

try {
  process.exitCode = await main(process.argv.slice(2))
} catch (error) {
  // The error's kind only: a message could quote a lead.
  console.error(`[leads] failed: ${errorName(error)}. Check the lead store settings (LEADS_DATABASE_PATH, or UPSTASH_REDIS_REST_URL/_TOKEN).`)
  process.exitCode = 1
}
