/**
 * The lead-delivery case of `npm run bench`: two `npm start` instances share one lead store (an SQLite
 * file, then Upstash through the local REST bridge) and deliver the same pending leads to a webhook
 * receiver on loopback that answers at once. The leads are stored after both are ready; then both are
 * asked for delivery rounds (the cron route, as a scheduler would) until every lead is in. It reports
 * deliveries per second and how many webhook-ids arrived more than once (the right answer is none).
 */
import { createServer } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseConfig } from '../../lib/env.ts'
import { NO_ATTRIBUTION } from '../../lib/leads/lead.ts'
import type { LeadArchive } from '../../lib/leads/lead-archive.ts'
import { openLeadStore } from '../../lib/leads/store.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

const CRON_SECRET = 'bench-cron-secret-0123456789'
const SECRET = `whsec_${Buffer.from('bench-delivery-secret-of-32-byte').toString('base64')}`

interface Receiver {
  url: string
  ids: Map<string, number>
  close: () => Promise<void>
}

async function startReceiver(): Promise<Receiver> {
  const ids = new Map<string, number>()
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      const id = String(request.headers['webhook-id'])
      ids.set(id, (ids.get(id) ?? 0) + 1)
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { url: `http://127.0.0.1:${port}/hooks/leads`, ids, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

async function storeLeads(env: Record<string, string>, count: number): Promise<void> {
  const store = openLeadStore(parseConfig(env)) as LeadArchive
  try {
    const receivedAt = new Date()
    const saves = Array.from({ length: count }, (_, index) =>
      store.save({
        fields: {
          name: `Bench Lead ${index}`,
          email: `delivery-${index}@example.com`,
          company: 'Delivery Bench Ltd',
          teamSize: '11-50',
          goal: `Delivered once: ${index}`,
          topic: 'programme',
          plan: null,
        },
        attribution: NO_ATTRIBUTION,
        receivedAt,
        sourcePage: '/contact',
        addressHash: 'bench',
        spamReason: null,
      }),
    )
    await Promise.all(saves)
  } finally {
    await store.close()
  }
}

async function measure(label: string, storeEnv: Record<string, string>, count: number): Promise<string> {
  const receiver = await startReceiver()
  const env = {
    ...storeEnv,
    LEADS_WEBHOOK_URL: receiver.url,
    LEADS_WEBHOOK_SECRET: SECRET,
    LEADS_DELIVERIES_PER_MINUTE: '100000',
    CRON_SECRET,
    TRUST_PROXY: '127.0.0.1',
  }
  const sites: RunningSite[] = []
  try {
    sites.push(...(await Promise.all([startSite(env), startSite(env)])))
    await storeLeads(env, count)
    const started = performance.now()
    const rounds = (site: RunningSite) => async () => {
      while (receiver.ids.size < count) {
        const response = await site.fetch('/api/cron/deliver-leads', { headers: { Authorization: `Bearer ${CRON_SECRET}` } })
        await response.arrayBuffer()
        if (response.status !== 200) throw new Error(`${label}: the cron route answered ${response.status}`)
      }
    }
    await Promise.all(sites.map((site) => rounds(site)()))
    const seconds = (performance.now() - started) / 1000
    const repeated = [...receiver.ids.values()].filter((times) => times > 1).length
    return `${label}: ${count} leads delivered by two instances in ${seconds.toFixed(2)} s, ${(count / seconds).toFixed(0)} deliveries/s, ${repeated} webhook-ids more than once`
  } finally {
    for (const site of sites) await site.stop()
    await receiver.close()
  }
}

export async function benchDelivery(count: number): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-delivery-'))
  const lines: string[] = []
  try {
    lines.push(await measure('lead-delivery, one SQLite file', { LEADS_DATABASE_PATH: path.join(dir, 'leads.sqlite') }, count))
    const { startUpstashStack } = await import('./upstash.ts')
    const upstash = await startUpstashStack()
    try {
      lines.push(await measure('lead-delivery, one Upstash Redis', { ...upstash.env, REDIS_KEY_PREFIX: 'bench-delivery' }, count))
    } finally {
      await upstash.stop()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(`\n${lines.join('\n')}`)
}
