/**
 * `npm run leads -- <command>`: the operator's view of the contact form's leads, against the same
 * store and settings as the site (the environment, then the `.env` files as Next reads them). Exit
 * codes as `npm run rollout`: 0 done, 1 failed (or deliveries still pending after a retry), 2 wrong
 * usage. Nothing a visitor typed reaches the terminal as a control character
 * (lib/leads/control-characters.ts).
 */
import { loadSettingsOrExit } from '../lib/env-files.ts'
import { escapeControls, escapeControlsInJson } from '../lib/leads/control-characters.ts'
import { DESTINATIONS, type StoredLead } from '../lib/leads/lead-archive.ts'
import { deliverPending, describeRound, errorName, retentionCutoff, runDeliveryRound } from '../lib/leads/delivery.ts'
import { describeAttribution, describeDelivery, leadsCsv } from '../lib/leads/leads-csv.ts'
import { configuredDestinations, openLeadStore } from '../lib/leads/store.ts'

const USAGE = `Usage: npm run leads -- <command>

  list [--json]         every lead, oldest first, with its delivery state per destination
                        (--json: a JSON array, every field as stored, suspected spam included)
  list --spam [--json]  the suspected spam, with why it was held (honeypot, too-fast)
  release <id>          a suspected spam lead is a lead after all: deliver it now, like any lead
  export --csv          every lead as CSV on stdout (RFC 4180, safe to open in a spreadsheet)
  deliver               one delivery round, as npm start's timer runs it: the purge of old leads, then
                        every delivery that is due (for a scheduler, where nothing else runs rounds)
  retry                 deliver every undelivered lead now: pending ones whatever their backoff, given-up
                        ones again, and destinations configured since a lead arrived; exit 1 if any is left
  purge                 delete the leads older than LEADS_RETENTION_DAYS (default 180)

The store is the site's: Upstash Redis when UPSTASH_REDIS_REST_URL/_TOKEN (or KV_REST_API_URL/_TOKEN)
are set, else the SQLite file LEADS_DATABASE_PATH (default .data/leads.sqlite).`

const LEAD_ID = /^lead_[0-9a-z]{1,64}$/

const COMMANDS: Record<string, ReadonlyArray<ReadonlyArray<string | RegExp>>> = {
  list: [[], ['--json'], ['--spam'], ['--spam', '--json']],
  release: [[LEAD_ID]],
  export: [['--csv']],
  deliver: [[]],
  retry: [[]],
  purge: [[]],
}

const CLI_UPSTASH_TIMEOUT_MS = 10_000

function isUsage(argv: string[]): boolean {
  const [command, ...options] = argv
  const allowed = command !== undefined && Object.hasOwn(COMMANDS, command) ? (COMMANDS[command] ?? []) : []
  return allowed.some(
    (form) =>
      form.length === options.length &&
      form.every((expected, index) => {
        const option = options[index] ?? ''
        return typeof expected === 'string' ? option === expected : expected.test(option)
      }),
  )
}

function toJson(lead: StoredLead) {
  return {
    id: lead.id,
    receivedAt: lead.receivedAt.toISOString(),
    sourcePage: lead.sourcePage,
    spamReason: lead.spamReason,
    addressHash: lead.addressHash,
    ...lead.fields,
    attribution: lead.attribution,
    deliveries: lead.deliveries,
  }
}

function describeLead(lead: StoredLead): string {
  const fields = Object.fromEntries(Object.entries(lead.fields).map(([name, value]) => [name, value === null ? null : escapeControls(value)]))
  const deliveries = DESTINATIONS.filter((destination) => lead.deliveries[destination])
    .map((destination) => `${destination}: ${describeDelivery(lead.deliveries[destination])}`)
    .join('; ')
  const plan = fields.plan ? `, plan ${fields.plan}` : ''
  const from = describeAttribution(lead.attribution)
  return (
    `${lead.id}  ${lead.receivedAt.toISOString()}  ${fields.name} <${fields.email}>, ${fields.company}, ${fields.teamSize}, ${fields.topic}${plan}` +
    `${lead.spamReason ? `  [suspected spam: ${lead.spamReason}; npm run leads -- release ${lead.id} delivers it]` : ''}` +
    `${from ? `\n    from: ${escapeControls(from)}` : ''}` +
    `${deliveries ? `\n    ${deliveries}` : ''}`
  )
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`

function noDestination(): number {
  console.error('[leads] nothing to deliver to: set LEADS_WEBHOOK_URL and LEADS_WEBHOOK_SECRET, or LEADS_SLACK_WEBHOOK_URL.')
  return 1
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
      const all = await store.list()
      const spam = argv.includes('--spam')
      const leads = spam
        ? all.filter((lead) => lead.spamReason !== null)
        : argv.includes('--json')
          ? all
          : all.filter((lead) => lead.spamReason === null)
      if (argv.includes('--json')) {
        process.stdout.write(`${escapeControlsInJson(JSON.stringify(leads.map(toJson), null, 2))}\n`)
        return 0
      }
      for (const lead of leads) console.log(describeLead(lead))
      const held = all.length - leads.length
      const aside = !spam && held > 0 ? `; ${held} suspected spam: npm run leads -- list --spam` : ''
      console.log(`${plural(leads.length, spam ? 'suspected spam lead' : 'lead')} (${store.kind} store${aside})`)
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
        `[leads] purged ${plural(purged, 'lead')} received before ${before.toISOString()} (LEADS_RETENTION_DAYS=${config.leads.retentionDays})`,
      )
      return 0
    }
    if (command === 'deliver') {
      console.log(describeRound(await runDeliveryRound(config, store)) ?? '[leads] deliveries: nothing due')
      return 0
    }
    const destinations = configuredDestinations(config)
    if (destinations.length === 0) return noDestination()
    if (command === 'release') {
      const id = argv[1] as string
      const released = await store.release(id, destinations, new Date())
      if (released === 'not-found') {
        console.error(`[leads] no lead ${id} in the store`)
        return 1
      }
      if (released === 'not-spam') {
        console.error(`[leads] ${id} is not held as spam: npm run leads -- retry delivers whatever is undelivered`)
        return 1
      }
      const counts = await deliverPending(store, config.leads, { leadId: id })
      console.log(`[leads] released ${id}: ${describeRound(counts)?.replace('[leads] deliveries: ', '') ?? 'due now, waiting for the next round'}`)
      return counts.retried + counts.failed > 0 ? 1 : 0
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
