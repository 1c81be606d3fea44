/**
 * The leads on Vercel: without Upstash Redis the build warns that the contact form is off (no durable
 * store), and with it but without CRON_SECRET that the daily cron run is refused; `vercel build`
 * declares the delivery cron job from vercel.json, once a day; and the cron route's own
 * function, run as Vercel runs it, answers 401 without the secret and, with Upstash configured,
 * delivers what is pending in the shared store.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../lib/env.ts'
import { NO_ATTRIBUTION } from '../../lib/leads/lead.ts'
import type { LeadArchive } from '../../lib/leads/lead-archive.ts'
import { leadDeploymentWarnings, openLeadStore } from '../../lib/leads/store.ts'
import { projectRoot } from '../../harness/paths.ts'
import { startRedis, type RunningRedis } from '../../harness/redis.ts'
import { ensureSiteBuild, isolatedEnv, SITE_BUILDS } from '../../harness/site-build.ts'
import { startUpstashBridge, type UpstashBridge } from '../../harness/upstash-bridge.ts'
import { runVercelFunction, VercelOutput, type RunningFunction } from '../../harness/vercel-output.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const PRODUCTION = SITE_BUILDS.vercel
const WARNING = leadDeploymentWarnings(parseConfig(PRODUCTION))[0] as string
const UPSTASH_SETTINGS = { UPSTASH_REDIS_REST_URL: 'https://redis.example', UPSTASH_REDIS_REST_TOKEN: 'token' }
const CRON_WARNING = leadDeploymentWarnings(parseConfig({ ...PRODUCTION, ...UPSTASH_SETTINGS }))[0] as string
const SECRET = `whsec_${Buffer.from('vercel-cron-test-secret-32-bytes').toString('base64')}`
const CRON_SECRET = 'vercel-cron-secret-0123456789abcdef'

function prebuild(env: Record<string, string>) {
  return spawnSync(process.execPath, [path.join(projectRoot, 'scripts/prebuild.ts')], {
    cwd: projectRoot,
    encoding: 'utf8',
    env: { ...isolatedEnv(), ...env },
  })
}

describe('a build without a durable lead store', () => {
  it('is warned, once, on Vercel production and preview without Upstash', () => {
    expect(WARNING).toMatch(/^\[leads\] Warning: Vercel without Upstash Redis .* so \/contact offers no contact form\./)
    for (const env of [PRODUCTION, SITE_BUILDS.preview]) {
      const build = prebuild(env)
      expect(build.status).toBe(0)
      expect(build.stderr.split(WARNING).length - 1).toBe(1)
    }
  })

  it('is warned with Upstash but without CRON_SECRET that the cron run is refused; with both, not warned; nor for npm start (the SQLite file)', () => {
    expect(CRON_WARNING).toBe(
      '[leads] Warning: CRON_SECRET is unset, so Vercel Cron cannot run /api/cron/deliver-leads (it answers 401): deliveries ' +
        'that failed are retried only when another lead arrives, and leads older than LEADS_RETENTION_DAYS are not purged. ' +
        'Set CRON_SECRET to a random string of 16+ characters.',
    )
    const withoutCronSecret = prebuild({ ...PRODUCTION, ...UPSTASH_SETTINGS })
    expect(withoutCronSecret.status).toBe(0)
    expect(withoutCronSecret.stderr.split(CRON_WARNING).length - 1).toBe(1)
    const withUpstash = prebuild({ ...PRODUCTION, ...UPSTASH_SETTINGS, CRON_SECRET })
    expect(withUpstash.status).toBe(0)
    expect(withUpstash.stderr).not.toContain('[leads]')
    const local = prebuild({ BASE_URL: 'http://127.0.0.1:3000' })
    expect(local.status).toBe(0)
    expect(local.stderr).not.toContain('[leads]')
  })
})

describe('vercel build', () => {
  let redis: RunningRedis
  let bridge: UpstashBridge
  let receiver: WebhookReceiver
  let run: RunningFunction | undefined
  let projectDir: string

  beforeAll(async () => {
    projectDir = ensureSiteBuild('vercel')
    redis = await startRedis()
    bridge = await startUpstashBridge({ redisPort: redis.port })
    receiver = await startWebhookReceiver()
  })
  afterAll(async () => {
    await run?.stop()
    await receiver?.stop()
    await bridge?.stop()
    await redis?.dispose()
  })

  it("declares vercel.json's cron job in its output, once a day (what Vercel's Hobby plan allows)", () => {
    const declared = JSON.parse(readFileSync(path.join(projectRoot, 'vercel.json'), 'utf8')) as { crons: unknown }
    const output = JSON.parse(readFileSync(path.join(projectDir, '.vercel/output/config.json'), 'utf8')) as { crons?: unknown }
    expect(output.crons).toEqual(declared.crons)
    expect(output.crons).toEqual([{ path: '/api/cron/deliver-leads', schedule: '0 6 * * *' }])
  })

  it("the cron route's function answers 401 without the secret and delivers what is pending in Upstash with it", async () => {
    const upstash = { UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: bridge.token, REDIS_KEY_PREFIX: 'vercel-cron-test' }
    const leads = { LEADS_WEBHOOK_URL: `${receiver.origin}/hooks/leads`, LEADS_WEBHOOK_SECRET: SECRET }
    const store = openLeadStore(parseConfig({ ...PRODUCTION, ...upstash, ...leads })) as LeadArchive
    const saved = await store.save({
      fields: {
        name: 'Vercel Visitor',
        email: 'cron@example.com',
        company: 'Edge',
        teamSize: '51-250',
        goal: 'Hello',
        topic: 'programme',
        plan: null,
      },
      receivedAt: new Date(),
      sourcePage: '/contact',
      addressHash: 'sha256:x',
      spamReason: null,
      attribution: NO_ATTRIBUTION,
    })
    const cron = new VercelOutput(projectDir).functions().get('/api/cron/deliver-leads') as string
    run = await runVercelFunction(cron, projectDir, { ...PRODUCTION, ...upstash, ...leads, CRON_SECRET }, '/api/cron/deliver-leads')
    const refused = await fetch(`${run.origin}/api/cron/deliver-leads`)
    expect(refused.status).toBe(401)
    expect(receiver.accepted()).toEqual([])
    const response = await fetch(`${run.origin}/api/cron/deliver-leads`, { headers: { Authorization: `Bearer ${CRON_SECRET}` } })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ store: 'upstash', delivered: 1, retried: 0, failed: 0, purged: 0 })
    expect(receiver.accepted().map((request) => request.headers['webhook-id'])).toEqual([saved.id])
    expect((await store.list())[0]?.deliveries.webhook).toMatchObject({ state: 'delivered', attempts: 1 })
    expect(run.output()).toContain('[leads] deliveries: 1 delivered')
    expect(run.output()).not.toContain('cron@example.com')
  }, 120_000)
})
