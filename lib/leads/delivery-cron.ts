/**
 * The Vercel Cron Job's round (declared in vercel.json `crons`: GET /api/cron/deliver-leads every 5 minutes,
 * a Pro plan schedule — Hobby allows one run a day): Vercel calls it with
 * `Authorization: Bearer <CRON_SECRET>`; anyone else — and everyone while CRON_SECRET is unset — gets
 * 401. It runs one delivery round (what is pending and due, then the purge of old leads) and answers
 * the counts. On `npm start` the background timer does the same; the route works there too.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { getConfig } from '../env.ts'
import { describeRound, errorName, runDeliveryRound } from './delivery.ts'
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

export async function answerDeliveryCron(request: Request): Promise<Response> {
  const config = getConfig()
  if (!isCronAuthorized(request.headers.get('authorization'), config.cronSecret)) {
    return Response.json(
      { error: 'unauthorized', detail: 'This route is called by Vercel Cron with Authorization: Bearer <CRON_SECRET>.' },
      { status: 401, headers: { ...NO_STORE, 'WWW-Authenticate': 'Bearer' } },
    )
  }
  const store = leadStoreFor(config)
  if (!store) return Response.json({ store: null, delivered: 0, retried: 0, failed: 0, purged: 0 }, { headers: NO_STORE })
  try {
    const round = await runDeliveryRound(config, store, { maxAttempts: CRON_MAX_ATTEMPTS })
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
