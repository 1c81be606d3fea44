/**
 * The one place where a request to the agent surface (REST under /api/agent/v1 and POST /mcp) is
 * admitted before any handler runs: the rollout state of `public_agent_access`, then the per-client
 * quota. The answer carries the headers every admitted or refused response must show, and what was
 * decided (outcome, the store that counted it, tokens left), which the handlers return for telemetry.
 */
import type { AgentRequest } from './http/agent-request.ts'
import { forwardedAddressSource, readClientAddress, type ForwardedAddressSource } from './client-address.ts'
import { getConfig } from './env.ts'
import type { HeaderList } from './http/header-list.ts'
import { quotaBucketKey } from './net/ip-address.ts'
import { quotaHeaders } from './quota/quota-headers.ts'
import { getQuota, type Quota, type QuotaStoreUsed } from './quota/quota.ts'
import { quotaHeaderValues } from './quota/token-bucket.ts'
import { isPublicAgentAccessEnabled } from './rollout/public-agent-access.ts'

/**
 * What was decided: `outcome`, the store that counted the request and the tokens left (null when the
 * access is off). Handlers hand it to telemetry as a value (lib/telemetry/observe.ts reports it).
 */
export interface AdmissionRecord {
  outcome: 'admitted' | 'rate-limited' | 'disabled'
  quotaStore: QuotaStoreUsed | null
  quotaRemaining: number | null
}

/**
 * `headers`: admitted → the five rate-limit headers; `rate_limit_exceeded` → the same plus
 * `Retry-After`; `public_agent_access_disabled` → `Retry-After` only (nothing was spent).
 */
export type Admission = AdmissionRecord &
  (
    | { admitted: true; headers: HeaderList }
    | { admitted: false; reason: 'public_agent_access_disabled'; retryAfterSeconds: number; headers: HeaderList }
    | { admitted: false; reason: 'rate_limit_exceeded'; retryAfterSeconds: number; headers: HeaderList }
  )

interface AdmissionContext {
  quota: Quota
  /** Where a web request's address comes from; a plain request (`npm start`) carries its own. */
  addressSource: ForwardedAddressSource
  disabled: Admission
}

let context: AdmissionContext | undefined

function getContext(): AdmissionContext {
  if (context) return context
  const config = getConfig()
  const retryAfterSeconds = config.disabledRetryAfterSeconds
  context = {
    quota: getQuota(),
    addressSource: forwardedAddressSource(config),
    disabled: Object.freeze({
      admitted: false,
      reason: 'public_agent_access_disabled',
      outcome: 'disabled',
      quotaStore: null,
      quotaRemaining: null,
      retryAfterSeconds,
      headers: Object.freeze([Object.freeze(['Retry-After', String(retryAfterSeconds)] as const)]),
    }),
  }
  return context
}

export async function admitAgentRequest(request: AgentRequest): Promise<Admission> {
  const { quota, addressSource, disabled } = getContext()
  if (!(await isPublicAgentAccessEnabled(request))) return disabled
  const key = quotaBucketKey(readClientAddress(request, addressSource))
  const pending = quota.consume(key)
  const decision = pending instanceof Promise ? await pending : pending
  const quotaStore = quota.storeInUse()
  const values = quotaHeaderValues(decision, Date.now())
  const headers = quotaHeaders(values)
  // Header lists are cached per value set, and so are the answers built on them (one per store): no allocation here.
  const byStore = answers.get(headers) ?? {}
  let admission = byStore[quotaStore]
  if (admission === undefined) {
    const record = { quotaStore, quotaRemaining: decision.remaining }
    admission = Object.freeze(
      decision.allowed
        ? { admitted: true, outcome: 'admitted', headers, ...record }
        : {
            admitted: false,
            outcome: 'rate-limited',
            reason: 'rate_limit_exceeded',
            retryAfterSeconds: values.retryAfter ?? values.reset,
            headers,
            ...record,
          },
    )
    answers.set(headers, { ...byStore, [quotaStore]: admission })
  }
  return admission
}

const answers = new WeakMap<HeaderList, Partial<Record<QuotaStoreUsed, Admission>>>()
