import { describe, expect, it } from 'vitest'
import { decodeMcpNameHeader, isPlainFieldValue } from '../../lib/mcp/header-values.ts'

const sentinel = (value: string) => `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`

describe('Mcp-Name header values', () => {
  it('passes plain ASCII values through unchanged', () => {
    expect(decodeMcpNameHeader('service.get_public_capabilities')).toEqual({ ok: true, value: 'service.get_public_capabilities' })
    expect(decodeMcpNameHeader('service://public/product-overview')).toEqual({ ok: true, value: 'service://public/product-overview' })
  })

  it('decodes the spec examples of the Base64 sentinel', () => {
    expect(decodeMcpNameHeader('=?base64?SGVsbG8sIOS4lueVjA==?=')).toEqual({ ok: true, value: 'Hello, 世界' })
    expect(decodeMcpNameHeader('=?base64?IHBhZGRlZCA=?=')).toEqual({ ok: true, value: ' padded ' })
    expect(decodeMcpNameHeader('=?base64?bGluZTEKbGluZTI=?=')).toEqual({ ok: true, value: 'line1\nline2' })
    expect(decodeMcpNameHeader('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=')).toEqual({ ok: true, value: '=?base64?literal?=' })
    expect(decodeMcpNameHeader(sentinel('service://public/über'))).toEqual({ ok: true, value: 'service://public/über' })
  })

  it.each([
    ['non-canonical Base64', '=?base64?SGVsbG8?='],
    ['characters outside the alphabet', '=?base64?SGV$bG8=?='],
    ['bytes that are not UTF-8', `=?base64?${Buffer.from([0xff, 0xfe, 0xfd]).toString('base64')}?=`],
    ['a raw non-ASCII value', 'service://public/über'],
    ['a control character', 'a\u0001b'],
  ])('refuses %s', (_label, raw) => {
    expect(decodeMcpNameHeader(raw).ok).toBe(false)
  })

  it('keeps the sentinel markers case-sensitive: an uppercase prefix is a plain value', () => {
    expect(decodeMcpNameHeader('=?BASE64?SGk=?=')).toEqual({ ok: true, value: '=?BASE64?SGk=?=' })
  })

  it('allows visible ASCII, spaces and tabs only', () => {
    expect(isPlainFieldValue('tools/call \t x')).toBe(true)
    expect(isPlainFieldValue('é')).toBe(false)
    expect(isPlainFieldValue('a\nb')).toBe(false)
  })
})
