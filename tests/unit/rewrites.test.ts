import { describe, expect, it } from 'vitest'
import { Rewrites } from '../../lib/server/rewrites.ts'

const request = (headers: Record<string, string> = {}) => ({ headers, search: '' })

describe('rewrites of the routes manifest, applied as Next applies them (lib/server/rewrites.ts)', () => {
  const rewrites = new Rewrites({
    caseSensitive: false,
    rewrites: {
      beforeFiles: [],
      afterFiles: [
        { source: '/pricing.md', destination: '/md/pricing', regex: '^/pricing\\.md(?:/)?$' },
        { source: '/docs/:slug', destination: '/md/:slug', regex: '^/docs(?:/([^/]+?))(?:/)?$' },
        { source: '/beta.md', destination: '/md/beta', regex: '^/beta\\.md(?:/)?$', has: [{ type: 'header', key: 'x-beta' }] },
      ],
      fallback: [{ source: '/:path*.md', destination: '/md/not-found', regex: '^(?:/((?:[^/]+?)(?:/(?:[^/]+?))*))?\\.md(?:/)?$' }],
    },
  })

  it('names the destination of the first rewrite of a phase that matches, without regard to case unless the manifest says caseSensitive', () => {
    expect(rewrites.match('afterFiles', '/pricing.md', request())).toEqual({ route: '/md/pricing' })
    expect(rewrites.match('afterFiles', '/PRICING.md', request())).toEqual({ route: '/md/pricing' })
    expect(rewrites.match('afterFiles', '/other.md', request())).toBeNull()
    expect(rewrites.match('fallback', '/other/page.md', request())).toEqual({ route: '/md/not-found' })
    const sensitive = new Rewrites({ caseSensitive: true, rewrites: [{ source: '/a.md', destination: '/md/a', regex: '^/a\\.md(?:/)?$' }] })
    expect(sensitive.match('afterFiles', '/A.md', request())).toBeNull()
    expect(sensitive.match('afterFiles', '/a.md', request())).toEqual({ route: '/md/a' })
  })

  it('leaves to Next a rewrite whose destination has parameters, and a path with a trailing slash (Next redirects it first)', () => {
    expect(rewrites.match('afterFiles', '/docs/intro', request())).toBe('next')
    expect(rewrites.match('afterFiles', '/pricing.md/', request())).toBeNull()
  })

  it('applies a rewrite with conditions only to the requests that meet them', () => {
    expect(rewrites.match('afterFiles', '/beta.md', request())).toBeNull()
    expect(rewrites.match('afterFiles', '/beta.md', request({ 'x-beta': '1' }))).toEqual({ route: '/md/beta' })
  })

  it('lists for computing once only the rewrites of one path that hold for every request', () => {
    expect(rewrites.literal('afterFiles')).toEqual([['/pricing.md', '/md/pricing']])
    expect(rewrites.literal('fallback')).toEqual([])
    const shadowed = new Rewrites({
      rewrites: [
        { source: '/:name.md', destination: '/md/any', regex: '^(?:/([^/]+?))\\.md(?:/)?$' },
        { source: '/pricing.md', destination: '/md/pricing', regex: '^/pricing\\.md(?:/)?$' },
      ],
    })
    expect(shadowed.literal('afterFiles')).toEqual([])
  })
})
