import { describe, expect, it } from 'vitest'
import { inlineScriptHashes, pageContentSecurityPolicy, siteWideHeaders } from '../../lib/http/security-headers.ts'

describe('security headers', () => {
  it('HSTS only for an https site; a preview also says noindex', () => {
    expect(siteWideHeaders({ baseUrl: 'http://127.0.0.1:3000', noindex: false })).toEqual([])
    expect(siteWideHeaders({ baseUrl: 'https://a.example', noindex: true })).toEqual([
      ['Strict-Transport-Security', 'max-age=63072000'],
      ['X-Robots-Tag', 'noindex'],
    ])
  })

  it('hashes inline scripts only, each once, as the browser hashes their text', () => {
    const html = '<script src="/_next/a.js" async=""></script><script>a()</script><script id="_R_">b()</script><script>a()</script>'
    expect(inlineScriptHashes(html)).toEqual([
      "'sha256-qVpDBgj7bpq5hMAcGp3AOc79J3Y1Z4HvySTwKrWDoy4='",
      "'sha256-cf242PFc/kb7xD0Qzhsmd9vvRkc+cWFmbi+k+YvtdKc='",
    ])
  })

  it('over plain http the page policy does not ask to upgrade requests', () => {
    expect(pageContentSecurityPolicy('<script>a()</script>', 'http://127.0.0.1:3000')).not.toContain('upgrade-insecure-requests')
    expect(pageContentSecurityPolicy('<script>a()</script>', 'https://a.example').endsWith("frame-ancestors 'none'; upgrade-insecure-requests")).toBe(
      true,
    )
  })
})
