import { describe, expect, it } from 'vitest'
import { RATE_LIMIT_HEADER_NAMES } from '../../lib/contract/constants.ts'
import { EXPOSED_HEADERS } from '../../lib/http/headers.ts'
import { formatQuotaHeaders, quotaHeaders, rateLimitFieldValue } from '../../lib/quota/quota-headers.ts'
import { RATE_LIMIT_POLICY_VALUE } from '../../lib/contract/constants.ts'

describe('rate-limit header formatting', () => {
  it('formats the policy as an sf-string name with integer parameters', () => {
    expect(RATE_LIMIT_POLICY_VALUE).toBe('"public-agent-rest";q=120;w=60;burst=30')
    expect(rateLimitFieldValue(149, 1)).toBe('"public-agent-rest";r=149;t=1')
  })

  it('an admitted request carries the five fields in contract order, no Retry-After', () => {
    expect(quotaHeaders({ limit: 150, remaining: 149, reset: 1, retryAfter: null })).toEqual([
      ['RateLimit-Limit', '150'],
      ['RateLimit-Remaining', '149'],
      ['RateLimit-Reset', '1'],
      ['RateLimit-Policy', '"public-agent-rest";q=120;w=60;burst=30'],
      ['RateLimit', '"public-agent-rest";r=149;t=1'],
    ])
  })

  it('a refused request adds Retry-After equal to RateLimit-Reset', () => {
    expect(quotaHeaders({ limit: 150, remaining: 0, reset: 1, retryAfter: 1 })).toEqual([
      ['RateLimit-Limit', '150'],
      ['RateLimit-Remaining', '0'],
      ['RateLimit-Reset', '1'],
      ['RateLimit-Policy', '"public-agent-rest";q=120;w=60;burst=30'],
      ['RateLimit', '"public-agent-rest";r=0;t=1'],
      ['Retry-After', '1'],
    ])
  })

  it('reuses one frozen list per value set and formats out-of-range values freshly', () => {
    const a = quotaHeaders({ limit: 150, remaining: 10, reset: 70, retryAfter: null })
    expect(quotaHeaders({ limit: 150, remaining: 10, reset: 70, retryAfter: null })).toBe(a)
    expect(Object.isFrozen(a)).toBe(true)
    const odd = { limit: 150, remaining: 3, reset: 500, retryAfter: 500 }
    expect(quotaHeaders(odd)).toEqual(formatQuotaHeaders(odd))
  })

  it('uses the contract header names, all exposed to browsers', () => {
    const names = quotaHeaders({ limit: 150, remaining: 0, reset: 1, retryAfter: 1 }).map(([name]) => name)
    expect(names.slice(0, 5)).toEqual([...RATE_LIMIT_HEADER_NAMES])
    for (const name of names) expect(EXPOSED_HEADERS).toContain(name)
  })
})
