import { describe, expect, it } from 'vitest'
import { pageContentSecurityPolicy, siteWideHeaders } from '../../lib/http/security-headers.ts'

describe('security headers', () => {
  it('HSTS only for an https site; a preview also says noindex', () => {
    expect(siteWideHeaders({ baseUrl: 'http://127.0.0.1:3000', noindex: false })).toEqual([])
    expect(siteWideHeaders({ baseUrl: 'https://a.example', noindex: true })).toEqual([
      ['Strict-Transport-Security', 'max-age=63072000'],
      ['X-Robots-Tag', 'noindex'],
    ])
  })

  it("allows scripts from the site's own origin only: no inline script", () => {
    expect(pageContentSecurityPolicy([], 'http://127.0.0.1:3000').split('; ')[1]).toBe("script-src 'self'")
  })

  it('over plain http the page policy does not ask to upgrade requests', () => {
    expect(pageContentSecurityPolicy([], 'http://127.0.0.1:3000')).not.toContain('upgrade-insecure-requests')
    expect(pageContentSecurityPolicy([], 'https://a.example').endsWith("frame-ancestors 'none'; upgrade-insecure-requests")).toBe(true)
  })
})
