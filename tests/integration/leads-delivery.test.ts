/**
 * Delivery by several instances, as deployed: two `npm start` processes on one SQLite file, and two
 * on one Upstash Redis (a real Redis behind the Upstash REST bridge), both posting leads through the
 * contact form and both running delivery rounds, to a receiver that refuses the first 40 attempts
 * and then answers each in 4.5 s, close to the attempt's 5 s deadline: every lead's webhook-id is
 * accepted exactly once. Then what holds across instances without a setting: one address salt and one
 * limit per client (Upstash); and a flood, which is stored whole and sent at the pace of
 * LEADS_DELIVERIES_PER_MINUTE.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../lib/env.ts'
import { LEAD_FORM_PATH } from '../../lib/leads/form-fields.ts'
import { FILL_TIME_FIELD } from '../../lib/routes/page-script-hooks.ts'
import type { LeadArchive, StoredLead } from '../../lib/leads/lead-archive.ts'
import { openLeadStore } from '../../lib/leads/store.ts'
import { startRedis, type RunningRedis } from '../../harness/redis.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'
import { startUpstashBridge, type UpstashBridge } from '../../harness/upstash-bridge.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const SECRET = `whsec_${Buffer.from('two-instances-test-secret-32-byt').toString('base64')}`
const LEADS = 200
const REFUSED_ATTEMPTS = 40
const SLOW_MS = 4_500

let redis: RunningRedis
let bridge: UpstashBridge
const dir = mkdtempSync(path.join(tmpdir(), 'leads-delivery-'))
const sites: RunningSite[] = []
const receivers: WebhookReceiver[] = []

beforeAll(async () => {
  redis = await startRedis()
  bridge = await startUpstashBridge({ redisPort: redis.port })
})
afterAll(async () => {
  await Promise.all(sites.map((site) => site.stop()))
  await Promise.all(receivers.map((receiver) => receiver.stop()))
  await bridge?.stop()
  await redis?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

const STORES: Array<[string, () => Record<string, string>]> = [
  ['one SQLite file', () => ({ LEADS_DATABASE_PATH: path.join(dir, `${Math.random().toString(36).slice(2)}/leads.sqlite`) })],
  [
    'one Upstash Redis',
    () => ({
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: bridge.token,
      REDIS_KEY_PREFIX: `two-${Math.random().toString(36).slice(2)}`,
    }),
  ],
]

function formBody(index: number, email = `lead-${index}@example.com`): string {
  return new URLSearchParams({
    name: `Visitor ${index}`,
    email,
    company: 'Two Instances Ltd',
    teamSize: '11-50',
    goal: `Lead number ${index}, to be delivered exactly once.`,
    topic: 'programme',
    [FILL_TIME_FIELD]: '15000',
  }).toString()
}

function post(site: RunningSite, body: string, address: string): Promise<Response> {
  return site.fetch(LEAD_FORM_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', 'X-Forwarded-For': address },
    body,
  })
}

async function startInstances(env: Record<string, string>): Promise<[RunningSite, RunningSite]> {
  const pair = await Promise.all([startSite(env), startSite(env)])
  sites.push(...pair)
  return pair
}

async function storedLeads(env: Record<string, string>): Promise<StoredLead[]> {
  const store = openLeadStore(parseConfig(env)) as LeadArchive
  try {
    return await store.list()
  } finally {
    await store.close()
  }
}

async function until(condition: () => boolean | Promise<boolean>, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs
  while (!(await condition()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250))
}

describe.each(STORES)('two npm start instances on %s', (_name, storeEnv) => {
  it(`deliver each of ${LEADS} leads once to a receiver that refuses ${REFUSED_ATTEMPTS} attempts, then answers in ${SLOW_MS / 1000} s`, async () => {
    const receiver = await startWebhookReceiver({ slowMs: SLOW_MS })
    receivers.push(receiver)
    await receiver.setMode('error')
    const env = {
      ...storeEnv(),
      LEADS_WEBHOOK_URL: `${receiver.origin}/hooks/leads`,
      LEADS_WEBHOOK_SECRET: SECRET,
      LEADS_DELIVERIES_PER_MINUTE: '100000',
      TRUST_PROXY: '127.0.0.1',
    }
    const instances = await startInstances(env)
    let next = 0
    const statuses: number[] = []
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < LEADS) {
          const index = next
          next += 1
          const response = await post(instances[index % 2] as RunningSite, formBody(index), `10.1.${index >> 8}.${index & 255}`)
          await response.arrayBuffer()
          statuses.push(response.status)
          if ((receiver.refused().error ?? 0) >= REFUSED_ATTEMPTS) await receiver.setMode('slow')
        }
      }),
    )
    await until(() => (receiver.refused().error ?? 0) >= REFUSED_ATTEMPTS, 10_000)
    await receiver.setMode('slow')
    expect(statuses.filter((status) => status !== 303)).toEqual([])

    const stored = await storedLeads(env)
    expect(stored).toHaveLength(LEADS)
    const storedIds = stored.map((lead) => lead.id).sort()
    const acceptedIds = () => receiver.accepted().map((request) => request.headers['webhook-id'] as string)
    await until(() => new Set(acceptedIds()).size >= LEADS, 150_000)
    expect([...new Set(acceptedIds())].sort()).toEqual(storedIds)
    const counts = new Map<string, number>()
    for (const id of acceptedIds()) counts.set(id, (counts.get(id) ?? 0) + 1)
    expect([...counts].filter(([, count]) => count > 1)).toEqual([])
    expect(receiver.refused().error).toBeGreaterThanOrEqual(REFUSED_ATTEMPTS)
    for (const site of instances) expect(site.output()).not.toContain('outlived its lease')
  }, 240_000)
})

describe('two npm start instances on one Upstash Redis, without LEADS_ADDRESS_SALT', () => {
  it('hash one address alike, and hold the limit per client across both: five posts split between them, the sixth refused on either', async () => {
    const env = {
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: bridge.token,
      REDIS_KEY_PREFIX: `salt-${Math.random().toString(36).slice(2)}`,
      TRUST_PROXY: '127.0.0.1',
    }
    const [first, second] = await startInstances(env)
    const statuses: number[] = []
    for (let index = 0; index < 6; index += 1) {
      const response = await post(index % 2 === 0 ? first : second, formBody(index, `limit-${index}@example.com`), '198.51.100.23')
      await response.arrayBuffer()
      statuses.push(response.status)
    }
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429])
    const hashes = new Set((await storedLeads(env)).map((lead) => lead.addressHash))
    expect(hashes.size).toBe(1)
    expect([...hashes][0]).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe('a flood of leads from many addresses', () => {
  it('is stored whole, and the sales team gets at most LEADS_DELIVERIES_PER_MINUTE per destination a minute; the rest wait, pending', async () => {
    const receiver = await startWebhookReceiver()
    receivers.push(receiver)
    const env = {
      LEADS_DATABASE_PATH: path.join(dir, 'flood/leads.sqlite'),
      LEADS_WEBHOOK_URL: `${receiver.origin}/hooks/leads`,
      LEADS_WEBHOOK_SECRET: SECRET,
      LEADS_SLACK_WEBHOOK_URL: `${receiver.origin}/services/T000/B000/flood`,
      LEADS_DELIVERIES_PER_MINUTE: '5',
      TRUST_PROXY: '127.0.0.1',
    }
    const [site] = await Promise.all([startSite(env)])
    sites.push(site as RunningSite)
    const statuses: number[] = []
    for (let index = 0; index < 30; index += 1) {
      const response = await post(site as RunningSite, formBody(index, `flood-${index}@example.com`), `10.2.0.${index + 1}`)
      await response.arrayBuffer()
      statuses.push(response.status)
    }
    expect(new Set(statuses)).toEqual(new Set([303]))
    const byPath = () => {
      const accepted = receiver.accepted()
      return [
        accepted.filter((request) => request.path === '/hooks/leads').length,
        accepted.filter((request) => request.path.startsWith('/services/')).length,
      ]
    }
    await until(() => byPath()[0] === 5 && byPath()[1] === 5, 10_000)
    // Long enough for every attempt after an answer, and npm start's first timer round, to have run.
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    expect(byPath()).toEqual([5, 5])
    const stored = await storedLeads(env)
    expect(stored).toHaveLength(30)
    const pending = (destination: 'webhook' | 'slack') => stored.filter((lead) => lead.deliveries[destination]?.state === 'pending').length
    expect([pending('webhook'), pending('slack')]).toEqual([25, 25])
  }, 60_000)
})
