import { describe, expect, it } from 'vitest'
import { chooseEncoding } from '../../lib/http/compression.ts'
import { explicitQualityOf, parseAccept, parseAcceptEncoding, prefersMarkdown, qualityOf } from '../../lib/http/negotiate.ts'

describe('parseAccept', () => {
  it('parses media ranges, q-values and parameters in header order', () => {
    expect(parseAccept('text/html;level=1, text/markdown; q=0.8 ,*/*;q=0.1')).toEqual([
      { type: 'text', subtype: 'html', params: { level: '1' }, q: 1, index: 0 },
      { type: 'text', subtype: 'markdown', params: {}, q: 0.8, index: 1 },
      { type: '*', subtype: '*', params: {}, q: 0.1, index: 2 },
    ])
  })

  it('lower-cases types, subtypes and parameter names, keeps parameter values', () => {
    expect(parseAccept('Text/MarkDown;Variant=GFM;Q=0.5')).toEqual([
      { type: 'text', subtype: 'markdown', params: { variant: 'GFM' }, q: 0.5, index: 0 },
    ])
  })

  it('unquotes quoted parameter values and keeps commas and semicolons inside quotes', () => {
    expect(parseAccept('text/html;foo="a, b; c";q=0.3, text/plain;bar="x\\"y"')).toEqual([
      { type: 'text', subtype: 'html', params: { foo: 'a, b; c' }, q: 0.3, index: 0 },
      { type: 'text', subtype: 'plain', params: { bar: 'x"y' }, q: 1, index: 1 },
    ])
  })

  it('treats parameters after q as accept-extensions, not media-type parameters', () => {
    expect(parseAccept('text/markdown;q=0.7;ext=1')[0]).toEqual({ type: 'text', subtype: 'markdown', params: {}, q: 0.7, index: 0 })
  })

  it('accepts every qvalue form of RFC 9110 §12.4.2', () => {
    const qs = ['0', '0.', '0.5', '0.123', '1', '1.', '1.000'].map((q) => parseAccept(`text/plain;q=${q}`)[0]?.q)
    expect(qs).toEqual([0, 0, 0.5, 0.123, 1, 1, 1])
  })

  it('skips malformed ranges and keeps the well-formed ones', () => {
    const malformed = [
      'text',
      '/html',
      'text/',
      '*/html',
      'te xt/html',
      'text/html;q=1.5',
      'text/html;q=0.1234',
      'text/html;q=abc',
      'text/html;q=-1',
      'text/html;level',
      'text/html;=1',
      'text/h(tml',
    ]
    for (const range of malformed) {
      expect(parseAccept(`${range}, text/markdown;q=0.4`), range).toEqual([{ type: 'text', subtype: 'markdown', params: {}, q: 0.4, index: 0 }])
    }
  })

  it('reads an unterminated quoted string to the end of the header, as the grammar says', () => {
    expect(parseAccept('text/html;a="unterminated, text/markdown')).toEqual([])
    expect(prefersMarkdown('text/markdown, text/html;a="x, text/markdown;q=0')).toBe(true)
  })

  it('returns no ranges for absent, empty or garbage headers, and never throws', () => {
    for (const value of [undefined, null, '', ' ', ',,,', ';;;', '"', '\\', '\u0000', 'ä/ö', '😀/😀', ';q=1', '=,=;=']) {
      expect(parseAccept(value), String(value)).toEqual([])
    }
  })

  it('handles empty list elements and surrounding whitespace', () => {
    expect(parseAccept(' , text/markdown ,, ').map((r) => `${r.type}/${r.subtype}`)).toEqual(['text/markdown'])
  })

  it('stays fast and bounded on very long headers', () => {
    const huge = `${'text/html;q=0.5, '.repeat(50_000)}text/markdown`
    const started = performance.now()
    const ranges = parseAccept(huge)
    expect(performance.now() - started).toBeLessThan(500)
    // Only the first 8 KiB is read: the trailing text/markdown is beyond it.
    expect(ranges.every((range) => range.subtype === 'html')).toBe(true)
    expect(prefersMarkdown(huge)).toBe(false)
  })
})

describe('qualityOf', () => {
  it('uses the most specific matching range', () => {
    const ranges = parseAccept('text/*;q=0.3, text/html;q=0.7, */*;q=0.5')
    expect(qualityOf(ranges, 'text/html')).toBe(0.7)
    expect(qualityOf(ranges, 'text/markdown')).toBe(0.3)
    expect(qualityOf(ranges, 'image/png')).toBe(0.5)
  })

  it('is 0 when no range matches', () => {
    expect(qualityOf(parseAccept('application/json'), 'text/html')).toBe(0)
  })

  it('takes the highest q among equally specific ranges', () => {
    expect(qualityOf(parseAccept('text/html;level=1;q=0.2, text/html;q=0.9'), 'text/html')).toBe(0.9)
  })
})

describe('explicitQualityOf', () => {
  it('ignores wildcards and reports null when the type is not named', () => {
    expect(explicitQualityOf(parseAccept('text/*, */*'), 'text/markdown')).toBeNull()
    expect(explicitQualityOf(parseAccept('text/markdown;q=0'), 'text/markdown')).toBe(0)
    expect(explicitQualityOf(parseAccept('TEXT/MARKDOWN;q=0.2, text/markdown;variant=GFM;q=0.6'), 'text/markdown')).toBe(0.6)
  })
})

describe('prefersMarkdown', () => {
  const cases: Array<[string | null, boolean]> = [
    // Markdown
    ['text/markdown', true],
    ['TEXT/MARKDOWN', true],
    ['text/markdown; charset=utf-8', true],
    ['text/markdown;variant=GFM', true],
    ['text/markdown, text/html;q=0.9', true],
    ['text/html;q=0.9, text/markdown', true],
    ['text/markdown, text/html', true],
    ['text/html, text/markdown', true],
    ['text/markdown;q=0.5, text/html;q=0.5', true],
    ['text/markdown;q=0.001', true],
    ['text/markdown, */*;q=0.8', true],
    ['text/markdown, text/*;q=0.1', true],
    ['text/markdown;q=0.9, text/*;q=0.5, */*;q=0.1', true],
    ['application/json, text/markdown', true],
    ['text/html;q=0, text/markdown;q=0.1', true],
    ['text/markdown, text/html;q=oops', true],
    // HTML
    [null, false],
    ['', false],
    ['*/*', false],
    ['text/*', false],
    ['text/*, */*', false],
    ['text/html', false],
    ['text/markdown;q=0', false],
    ['text/markdown;q=0.0, */*', false],
    ['text/html, text/markdown;q=0.5', false],
    ['text/markdown;q=0.5, text/html', false],
    ['text/markdown;q=0.5, */*', false],
    ['text/markdown;q=0.5, text/*', false],
    ['text/x-markdown', false],
    ['text/markdownx', false],
    ['text/plain', false],
    ['application/json', false],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', false],
    ['text/markdown;q=2', false],
    ['text/markdown;q=', false],
    ['markdown', false],
    ['text/html;a="text/markdown"', false],
    ['garbage', false],
  ]
  it.each(cases)('%j → Markdown: %s', (accept, expected) => {
    expect(prefersMarkdown(accept)).toBe(expected)
  })
})

describe('an Accept header longer than the parser reads', () => {
  // Ranges of filler, then a refusal of Markdown whose `;q=0` falls just past the 8,192 characters read.
  const filler = Array.from({ length: 1200 }, (_, i) => `x/y${i}`).join(', ')
  const refusing = (cut: number) => `${filler.slice(0, cut)}, text/markdown;q=0`

  it('never turns a cut `text/markdown;q=0` into a preference for Markdown', () => {
    const header = refusing(8192 - ', text/markdown'.length)
    expect(header.indexOf(';q=0')).toBe(8192)
    expect(prefersMarkdown(header)).toBe(false)
    expect(parseAccept(header).some((range) => range.subtype === 'markdown')).toBe(false)
  })

  it('still reads every complete range before the cut', () => {
    const header = `text/markdown, ${filler}`
    expect(header.length).toBeGreaterThan(8192)
    expect(prefersMarkdown(header)).toBe(true)
  })
})

describe('Accept-Encoding, read by the same q-value parser (lib/http/compression.ts chooseEncoding)', () => {
  it('parses codings lower-cased with their q, skipping malformed ones', () => {
    expect(parseAcceptEncoding('GZip;q=0.5, br, *;q=0, x;q=abc, de flate, identity;q=1.')).toEqual([
      { coding: 'gzip', q: 0.5 },
      { coding: 'br', q: 1 },
      { coding: '*', q: 0 },
      { coding: 'identity', q: 1 },
    ])
  })

  const cases: Array<[string | null, 'br' | 'gzip' | null]> = [
    [null, null],
    ['', null],
    ['identity', null],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['BR', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['*', 'br'],
    ['*;q=0.1, br;q=0', 'gzip'],
    ['*;q=0', null],
    ['gzip;q=0.001', 'gzip'],
  ]
  it.each(cases)('%j → %s', (acceptEncoding, expected) => {
    expect(chooseEncoding(acceptEncoding)).toBe(expected)
  })
})
