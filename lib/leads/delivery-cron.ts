/**
 * The Vercel Cron Job's round (declared in vercel.json `crons`: GET /api/cron/deliver-leads once a day,
 * which every Vercel plan allows; a Pro project may run it every few minutes, docs/contact-form.md):
 * Vercel calls it with `Authorization: Bearer <CRON_SECRET>`; anyone else — and everyone while
 * CRON_SECRET is unset, which the build warns of and each refused call logs — gets 401. It runs one
 * delivery round (the purge of old leads, then what is pending and due) and answers the counts. On
 * `npm start` the background timer does the same; the route works there too.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { getConfig } from '../env.ts'
import { type DeliveryTelemetry, describeRound, errorName, runDeliveryRound } from './delivery.ts'
import { leadStoreFor } from './store.ts'

/** Attempts per cron run: bounded, so a run ends well within a function's duration even if every receiver hangs. */
const CRON_MAX_ATTEMPTS = 200

const NO_STORE = { 'Cache-Control': 'no-store' }

/** Compared as digests: the same length whatever was sent, and in constant time. */
export function isCronAuthorized(authorization: string | null, secret: string | undefined): boolean {
  if (!secret || !authorization) return false
  const digest = (value: string) => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(authorization), digest(`Bearer ${secret}`))
}

export async function answerDeliveryCron(request: Request, telemetry?: DeliveryTelemetry): Promise<Response> {
  const config = getConfig()
  if (!config.cronSecret) {
    console.warn('[leads] /api/cron/deliver-leads was called, but CRON_SECRET is unset, so it answers 401: set CRON_SECRET to run delivery rounds')
  }
  if (!isCronAuthorized(request.headers.get('authorization'), config.cronSecret)) {
    return Response.json(
      { error: 'unauthorized', detail: 'This route is called by Vercel Cron with Authorization: Bearer <CRON_SECRET>.' },
      { status: 401, headers: { ...NO_STORE, 'WWW-Authenticate': 'Bearer' } },
    )
  }
  const store = leadStoreFor(config)
  if (!store) return Response.json({ store: null, delivered: 0, retried: 0, failed: 0, purged: 0 }, { headers: NO_STORE })
  try {
    const round = await runDeliveryRound(config, store, { maxAttempts: CRON_MAX_ATTEMPTS, telemetry })
    const line = describeRound(round)
    if (line) console.log(line)
    return Response.json({ store: store.kind, ...round }, { headers: NO_STORE })
  } catch (error) {
    const reason = errorName(error)
    console.error(`[leads] delivery round failed: ${reason}`)
    return Response.json(
      { error: 'store_unavailable', detail: `The lead store failed (${reason}); the next run tries again.` },
      { status: 503, headers: NO_STORE },
    )
  }
}
