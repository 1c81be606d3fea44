/**
 * The operator's side of the leads: `npm run leads` against the site's store and settings (exit codes
 * 0 done, 1 failed, 2 usage, as `npm run rollout`), and the delivery cron route of a built site served
 * the way Vercel serves it (`next start`: the route handler, no background timer), which answers 401
 * without `Authorization: Bearer <CRON_SECRET>` and retries what is pending.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig, type SiteConfig } from '../../lib/env.ts'
import { type LeadAttribution, type LeadFields, NO_ATTRIBUTION, type NewLead } from '../../lib/leads/lead.ts'
import type { LeadArchive } from '../../lib/leads/lead-archive.ts'
import { deliverPending } from '../../lib/leads/delivery.ts'
import { isCronAuthorized } from '../../lib/leads/delivery-cron.ts'
import { openLeadStore } from '../../lib/leads/store.ts'
import { projectRoot } from '../../harness/paths.ts'
import { isolatedEnv } from '../../harness/site-build.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const SECRET = `whsec_${Buffer.from('operator-test-secret-of-32-bytes').toString('base64')}`
const CRON_SECRET = 'cron-secret-for-the-test-0123456789'
const DAY = 86_400_000

const FIELDS: LeadFields = {
  name: `"Robert'); DROP TABLE leads;--" <script>alert(1)</script> 👩🏽‍💻 עברית`,
  email: 'bobby@example.com',
  company: '@SUM(1+1)*cmd|" /C calc"!A0',
  teamSize: '1-10',
  goal: `-1+1\n"quoted", commas, and ${'🙂 '.repeat(3_500)}`,
  topic: 'security',
  plan: null,
}

let receiver: WebhookReceiver
const dir = mkdtempSync(path.join(tmpdir(), 'leads-operator-'))

beforeAll(async () => {
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await receiver?.stop()
  rmSync(dir, { recursive: true, force: true })
})

function envFor(databasePath: string, extra: Record<string, string> = {}): Record<string, string> {
  return { LEADS_DATABASE_PATH: databasePath, LEADS_WEBHOOK_URL: `${receiver.origin}/hooks/leads`, LEADS_WEBHOOK_SECRET: SECRET, ...extra }
}

function lead(
  email: string,
  receivedAt = new Date(),
  spamReason: NewLead['spamReason'] = null,
  fields: Partial<LeadFields> = {},
  attribution: LeadAttribution = NO_ATTRIBUTION,
): NewLead {
  return { fields: { ...FIELDS, ...fields, email }, attribution, receivedAt, sourcePage: '/contact', addressHash: 'sha256:operator', spamReason }
}

/** Where the plain lead came from: a campaign of the newsletter, landing on the pricing page. */
const CAMPAIGN: LeadAttribution = {
  ...NO_ATTRIBUTION,
  utmSource: 'newsletter',
  utmMedium: 'email',
  utmCampaign: 'spring-2027',
  landingPage: '/pricing',
  referrerOrigin: 'https://news.example',
}

/** Every character a terminal could take for a command: C0, DEL, C1, and the bidirectional overrides. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this is for
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

/** Run asynchronously: the receiver answering the CLI's deliveries lives in this process. */
async function leadsCli(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(projectRoot, 'scripts/leads.ts'), ...args], {
    cwd: projectRoot,
    env: { ...isolatedEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  return { status, stdout, stderr }
}

/** A CSV parser for the test: quoted cells, doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  const pattern = /"((?:[^"]|"")*)"(,|\r\n)/g
  let row: string[] = []
  for (const match of text.matchAll(pattern)) {
    row.push((match[1] ?? '').replaceAll('""', '"'))
    if (match[2] === '\r\n') {
      rows.push(row)
      row = []
    }
  }
  return rows
}

describe('npm run leads', () => {
  const databasePath = path.join(dir, 'cli/leads.sqlite')
  let config: SiteConfig
  let store: LeadArchive
  let ids: { plain: string; spam: string; old: string; escapes: string }
  // An hour ago in whole seconds: recent enough to be retried (a lead is given up three days after it
  // came), and the times the CLI prints are this lead's, whatever the day the tests run.
  const receivedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60 * 60_000)
  const spamReceivedAt = new Date(receivedAt.getTime() + 1_000)

  beforeAll(async () => {
    config = parseConfig(envFor(databasePath))
    store = openLeadStore(config) as LeadArchive
    ids = {
      old: (await store.save(lead('old@example.com', new Date(Date.now() - 181 * DAY)))).id,
      plain: (await store.save(lead('bobby@example.com', receivedAt, null, {}, CAMPAIGN))).id,
      spam: (await store.save(lead('bot@example.com', spamReceivedAt, 'too-fast'))).id,
      // Written straight to the store, as a lead of an older version or another writer could be: the form refuses these.
      escapes: (
        await store.save(
          lead('escapes@example.com', new Date(receivedAt.getTime() + 2_000), null, {
            name: 'Eve\u001b[2J\u001b]0;pwned\u0007 \u202eevil',
            company: 'C1\u009b31m DEL\u007f',
          }),
        )
      ).id,
    }
  })
  afterAll(async () => {
    await store?.close()
  })

  it('list --json prints every lead exactly as stored, oldest first, with its deliveries; exit 0', async () => {
    const run = await leadsCli(['list', '--json'], envFor(databasePath))
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const listed = JSON.parse(run.stdout) as Array<Record<string, unknown>>
    expect(listed.map((entry) => entry.id)).toEqual([ids.old, ids.plain, ids.spam, ids.escapes])
    expect(listed[1]).toEqual({
      id: ids.plain,
      receivedAt: receivedAt.toISOString(),
      sourcePage: '/contact',
      spamReason: null,
      addressHash: 'sha256:operator',
      ...FIELDS,
      attribution: CAMPAIGN,
      deliveries: { webhook: { state: 'pending', attempts: 0, nextAttemptAt: receivedAt.toISOString(), lastOutcome: null, deliveredAt: null } },
    })
    expect(listed[2]).toMatchObject({ id: ids.spam, spamReason: 'too-fast', deliveries: {} })
    // Still the same values once parsed: only the text on the terminal is escaped.
    expect(listed[3]).toMatchObject({ name: 'Eve\u001b[2J\u001b]0;pwned\u0007 \u202eevil', company: 'C1\u009b31m DEL\u007f' })
    expect(RAW_CONTROL.test(run.stdout)).toBe(false)
  })

  it('list prints one line per lead (suspected spam aside) and the counts; exit 0', async () => {
    const run = await leadsCli(['list'], envFor(databasePath))
    expect(run.status).toBe(0)
    expect(run.stdout).toContain(`${ids.plain}  ${receivedAt.toISOString()}  ${FIELDS.name} <bobby@example.com>`)
    expect(run.stdout).toContain('\n    from: campaign spring-2027 (newsletter / email) · landed on /pricing · referred by https://news.example\n')
    expect(run.stdout).not.toContain(ids.spam)
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('3 leads (sqlite store; 1 suspected spam: npm run leads -- list --spam)')
  })

  it('list writes out the control characters of a lead as \\uXXXX: nothing reaches the terminal as a command', async () => {
    const run = await leadsCli(['list'], envFor(databasePath))
    expect(run.stdout).toContain('Eve\\u001B[2J\\u001B]0;pwned\\u0007 \\u202Eevil <escapes@example.com>, C1\\u009B31m DEL\\u007F,')
    expect(RAW_CONTROL.test(run.stdout)).toBe(false)
  })

  it('list --spam prints the suspected spam with why it was held and how to release it; exit 0', async () => {
    const run = await leadsCli(['list', '--spam'], envFor(databasePath))
    expect(run.status).toBe(0)
    expect(run.stdout).toBe(
      `${ids.spam}  ${spamReceivedAt.toISOString()}  ${FIELDS.name} <bot@example.com>, @SUM(1+1)*cmd|" /C calc"!A0, 1-10, security` +
        `  [suspected spam: too-fast; npm run leads -- release ${ids.spam} delivers it]\n1 suspected spam lead (sqlite store)\n`,
    )
  })

  it('export --csv writes every field exactly, formula starts guarded by a quote; exit 0', async () => {
    const run = await leadsCli(['export', '--csv'], envFor(databasePath))
    expect(run.status).toBe(0)
    const rows = parseCsv(run.stdout)
    expect(rows).toHaveLength(5)
    expect(rows[0]?.slice(0, 4)).toEqual(['id', 'received_at', 'name', 'email'])
    expect(rows[2]).toEqual([
      ids.plain,
      receivedAt.toISOString(),
      FIELDS.name,
      'bobby@example.com',
      `'${FIELDS.company}`,
      '1-10',
      `'${FIELDS.goal}`,
      'security',
      '',
      '/contact',
      'newsletter',
      'email',
      'spring-2027',
      '',
      '',
      '/pricing',
      'https://news.example',
      'no',
      'no',
      'pending (0 attempts)',
      '',
    ])
    expect(rows[3]?.[18]).toBe('too-fast')
    expect(rows[4]?.slice(2, 5)).toEqual(['Eve\\u001B[2J\\u001B]0;pwned\\u0007 \\u202Eevil', 'escapes@example.com', 'C1\\u009B31m DEL\\u007F'])
    expect(RAW_CONTROL.test(run.stdout.replaceAll('\r\n', '').replaceAll('\n', ''))).toBe(false)
  })

  it('retry delivers what is pending (never the spam) and exits 0; with the receiver failing it exits 1', async () => {
    await receiver.setMode('error')
    const failing = await leadsCli(['retry'], envFor(databasePath))
    // The old lead is past the 3-day give-up age: marked failed at once; the other waits for its retry.
    expect(failing.stdout).toBe('[leads] deliveries: 2 retried, 1 failed (3 undelivered before the retry)\n')
    expect(failing.status).toBe(1)
    await receiver.setMode('up')
    const before = receiver.accepted().length
    const run = await leadsCli(['retry'], envFor(databasePath))
    expect(run.stdout).toBe('[leads] deliveries: 3 delivered (3 undelivered before the retry)\n')
    expect(run.status).toBe(0)
    expect(
      receiver
        .accepted()
        .slice(before)
        .map((request) => request.headers['webhook-id'])
        .sort(),
    ).toEqual([ids.old, ids.plain, ids.escapes].sort())
  })

  it('release delivers a suspected spam lead like any lead and exits 0; a second release, or an unknown id, exits 1', async () => {
    const before = receiver.accepted().length
    const run = await leadsCli(['release', ids.spam], envFor(databasePath))
    expect(run.stdout).toBe(`[leads] released ${ids.spam}: 1 delivered\n`)
    expect(run.status).toBe(0)
    expect(
      receiver
        .accepted()
        .slice(before)
        .map((request) => request.headers['webhook-id']),
    ).toEqual([ids.spam])
    const again = await leadsCli(['release', ids.spam], envFor(databasePath))
    expect(again.stderr).toBe(`[leads] ${ids.spam} is not held as spam: npm run leads -- retry delivers whatever is undelivered\n`)
    expect(again.status).toBe(1)
    const unknown = await leadsCli(['release', 'lead_000000000ffffffffffffffff'], envFor(databasePath))
    expect(unknown.stderr).toBe('[leads] no lead lead_000000000ffffffffffffffff in the store\n')
    expect(unknown.status).toBe(1)
  })

  it('purge deletes the leads older than LEADS_RETENTION_DAYS; exit 0', async () => {
    const run = await leadsCli(['purge'], envFor(databasePath))
    expect(run.stdout).toMatch(/^\[leads\] purged 1 lead received before \d{4}-\d\d-\d\dT[\d:.]+Z \(LEADS_RETENTION_DAYS=180\)\n$/)
    expect(run.status).toBe(0)
    expect((await store.list()).map((entry) => entry.id)).toEqual([ids.plain, ids.spam, ids.escapes])
  })

  it('deliver runs one round, as a scheduler calls it: what is due goes out; exit 0', async () => {
    const due = await store.save(lead('scheduled@example.com'))
    const before = receiver.accepted().length
    const run = await leadsCli(['deliver'], envFor(databasePath))
    expect(run.stdout).toBe('[leads] deliveries: 1 delivered\n')
    expect(run.status).toBe(0)
    expect(
      receiver
        .accepted()
        .slice(before)
        .map((request) => request.headers['webhook-id']),
    ).toEqual([due.id])
    expect((await leadsCli(['deliver'], envFor(databasePath))).stdout).toBe('[leads] deliveries: nothing due\n')
  })

  it.each([[[]], [['list', '--csv']], [['export']], [['retry', 'now']], [['release']], [['release', 'not-an-id']], [['constructor']]])(
    'answers %j with the usage and exit 2',
    async (args) => {
      const run = await leadsCli(args, envFor(databasePath))
      expect(run.stderr).toMatch(/^Usage: npm run leads -- <command>/)
      expect(run.status).toBe(2)
    },
  )

  it('on Vercel without Upstash there is no store: exit 1, saying so', async () => {
    const run = await leadsCli(['list'], { VERCEL: '1', VERCEL_ENV: 'production' })
    expect(run.stderr).toMatch(/^\[leads\] no lead store: on Vercel, leads are kept only in Upstash Redis\./)
    expect(run.status).toBe(1)
  })

  it('retry without a destination exits 1, naming the settings', async () => {
    const run = await leadsCli(['retry'], { LEADS_DATABASE_PATH: databasePath })
    expect(run.stderr).toBe('[leads] nothing to deliver to: set LEADS_WEBHOOK_URL and LEADS_WEBHOOK_SECRET, or LEADS_SLACK_WEBHOOK_URL.\n')
    expect(run.status).toBe(1)
  })
})

describe('the delivery cron route (GET /api/cron/deliver-leads), served by next start', () => {
  const databasePath = path.join(dir, 'cron/leads.sqlite')
  let site: RunningSite
  let store: LeadArchive
  let config: SiteConfig

  beforeAll(async () => {
    config = parseConfig(envFor(databasePath))
    store = openLeadStore(config) as LeadArchive
    site = await startSite(envFor(databasePath, { CRON_SECRET }), { server: 'next-start' })
  })
  afterAll(async () => {
    await site?.stop()
    await store?.close()
  })

  it('is the path vercel.json declares as a cron job', () => {
    const declared = JSON.parse(readFileSync(path.join(projectRoot, 'vercel.json'), 'utf8')) as { crons: Array<{ path: string; schedule: string }> }
    // Once a day: every Vercel plan deploys it (Hobby refuses a cron job that runs more often).
    expect(declared.crons).toEqual([{ path: '/api/cron/deliver-leads', schedule: '0 6 * * *' }])
  })

  it.each([
    ['no Authorization', {}],
    ['another secret', { Authorization: 'Bearer not-the-cron-secret-at-all' }],
    ['the secret without Bearer', { Authorization: CRON_SECRET }],
  ])('answers 401 to %s, delivering nothing', async (_case, headers: Record<string, string>) => {
    const before = receiver.accepted().length
    const response = await site.fetch('/api/cron/deliver-leads', { headers })
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({
      error: 'unauthorized',
      detail: 'This route is called by Vercel Cron with Authorization: Bearer <CRON_SECRET>.',
    })
    expect(receiver.accepted().length).toBe(before)
  })

  it('purges the leads past retention first, then retries a delivery that failed before', async () => {
    await receiver.setMode('error')
    const pending = await store.save(lead('cron@example.com', new Date(Date.now() - 60 * 60_000)))
    // The first attempt failed an hour ago (schedule clock): its retry is due now.
    const hourAgo = new Date(Date.now() - 60 * 60_000)
    expect(await deliverPending(store, config.leads, { now: () => hourAgo, attemptTimeoutMs: 2_000 })).toEqual({
      delivered: 0,
      retried: 1,
      failed: 0,
    })
    await store.save(lead('expired@example.com', new Date(Date.now() - 200 * DAY)))
    await receiver.setMode('up')
    const before = receiver.accepted().length
    const response = await site.fetch('/api/cron/deliver-leads', { headers: { Authorization: `Bearer ${CRON_SECRET}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    // The purge comes first, whatever the deliveries do: the expired lead is gone before it could be sent.
    expect(await response.json()).toEqual({ store: 'sqlite', delivered: 1, retried: 0, failed: 0, purged: 1 })
    expect(
      receiver
        .accepted()
        .slice(before)
        .map((request) => request.headers['webhook-id']),
    ).toEqual([pending.id])
    const [kept] = await store.list()
    expect(kept?.id).toBe(pending.id)
    expect(kept?.deliveries.webhook).toMatchObject({ state: 'delivered', attempts: 2 })
  })
})

describe('isCronAuthorized', () => {
  it('accepts only the exact Bearer secret, and nothing while CRON_SECRET is unset', () => {
    expect(isCronAuthorized(`Bearer ${CRON_SECRET}`, CRON_SECRET)).toBe(true)
    expect(isCronAuthorized(`Bearer ${CRON_SECRET}x`, CRON_SECRET)).toBe(false)
    expect(isCronAuthorized('Bearer undefined', undefined)).toBe(false)
    expect(isCronAuthorized(null, CRON_SECRET)).toBe(false)
  })
})
