import { describe, expect, it } from 'vitest'
import { HeaderRules } from '../../lib/server/header-rules.ts'
import type { ManifestHeaderRule } from '../../lib/server/routes-manifest.ts'

const rule = (regex: string, headers: Record<string, string>, extra: Partial<ManifestHeaderRule> = {}): ManifestHeaderRule => ({
  source: regex,
  regex,
  headers: Object.entries(headers).map(([key, value]) => ({ key, value })),
  ...extra,
})

const request = (headers: Record<string, string> = {}, search = '') => ({ headers, search })

describe('header rules of the routes manifest, applied as Next applies them', () => {
  const rules = new HeaderRules({
    caseSensitive: false,
    headers: [
      rule('^(?:/((?!api(?:/|$))[^/.]+))?(?:/)?$', { 'Cache-Control': 'short', 'X-Frame-Options': 'DENY' }),
      rule('^/pricing(?:/)?$', { 'cache-control': 'long', Link: '<a>' }),
      rule('^(?:/(.*))?(?:/)?$', { 'Strict-Transport-Security': 'max-age=1' }),
    ],
  })

  it('adds every matching rule in order, a later rule replacing a header of the same name whatever its case', () => {
    expect(rules.forPath('/pricing')).toEqual([
      ['cache-control', 'long'],
      ['X-Frame-Options', 'DENY'],
      ['Link', '<a>'],
      ['Strict-Transport-Security', 'max-age=1'],
    ])
  })

  it('matches paths without regard to case unless the manifest says caseSensitive, and leaves out rules that do not match', () => {
    expect(rules.forPath('/PRICING')?.find(([name]) => name === 'Link')).toEqual(['Link', '<a>'])
    expect(rules.forPath('/api/x')).toEqual([['Strict-Transport-Security', 'max-age=1']])
    const sensitive = new HeaderRules({ caseSensitive: true, headers: [rule('^/pricing(?:/)?$', { Link: '<a>' })] })
    expect(sensitive.forPath('/PRICING')).toEqual([])
  })

  describe('conditions', () => {
    const conditional = new HeaderRules({
      headers: [
        rule('^/x$', { A: '1' }, { has: [{ type: 'header', key: 'Accept', value: 'text/(markdown|plain)' }] }),
        rule('^/x$', { B: '2' }, { missing: [{ type: 'cookie', key: 'seen' }] }),
        rule(
          '^/x$',
          { C: '3' },
          {
            has: [
              { type: 'query', key: 'v', value: '\\d+' },
              { type: 'host', value: 'example\\.com' },
            ],
          },
        ),
        rule('^/y$', { D: '4' }),
      ],
    })

    it('leave a path whose rules have conditions to be decided per request', () => {
      expect(conditional.forPath('/x')).toBeNull()
      expect(conditional.forPath('/y')).toEqual([['D', '4']])
    })

    it('hold when the value is present and the whole of it matches; missing ones when absent', () => {
      expect(conditional.forRequest('/x', request({ accept: 'text/markdown' }))).toEqual([
        ['A', '1'],
        ['B', '2'],
      ])
      expect(conditional.forRequest('/x', request({ accept: 'text/markdown, text/html', cookie: 'a=1; seen=yes' }))).toEqual([])
      expect(conditional.forRequest('/x', request({ host: 'EXAMPLE.com:8080', cookie: 'seen=' }, '?v=42'))).toEqual([
        ['B', '2'],
        ['C', '3'],
      ])
      expect(conditional.forRequest('/x', request({ host: 'example.com', cookie: 'seen=1' }, '?v=4x'))).toEqual([])
    })
  })
})
