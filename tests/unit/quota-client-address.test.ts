import { describe, expect, it } from 'vitest'
import { createClientAddressResolver, parseTrustedProxies, readClientAddress } from '../../lib/client-address.ts'
import { parseConfig } from '../../lib/env.ts'
import { canonicalIpAddress, cidrContains, parseCidr, parseIpAddress, quotaBucketKey } from '../../lib/net/ip-address.ts'

describe('IP address parsing', () => {
  it.each([
    ['203.0.113.5', '203.0.113.5'],
    [' 203.0.113.5 ', '203.0.113.5'],
    ['203.0.113.5:4711', '203.0.113.5'],
    ['::ffff:203.0.113.5', '203.0.113.5'],
    ['::FFFF:cb00:7105', '203.0.113.5'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:0db8:0000:0001:0000:0000:0000:0000', '2001:db8:0:1::'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::1', '::1'],
    ['::', '::'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221'],
  ])('%s → %s', (input, expected) => {
    expect(canonicalIpAddress(input)).toBe(expected)
  })

  it.each([
    '',
    'unknown',
    '256.1.1.1',
    '1.2.3',
    '1.2.3.4.5',
    '2001:db8::1::2',
    '12345::',
    'g::1',
    '[2001:db8::1',
    'example.com',
    '1.2.3.4, 5.6.7.8',
    // Legacy IPv4 forms that inet_aton (and ipaddr.js's own parser) would read as an address: no proxy writes them.
    '127.1',
    '0x7f.0.0.1',
    '0177.0.0.1',
    '2130706433',
  ])('rejects %j', (input) => {
    expect(parseIpAddress(input)).toBeNull()
  })
})

describe('CIDR ranges', () => {
  it('parses addresses and ranges, normalising the network', () => {
    expect(parseCidr('10.1.2.3/8')?.text).toBe('10.0.0.0/8')
    expect(parseCidr('127.0.0.1')?.text).toBe('127.0.0.1/32')
    expect(parseCidr('2001:db8:abcd::1/48')?.text).toBe('2001:db8:abcd::/48')
    expect(parseCidr('::1')?.text).toBe('::1/128')
    expect(parseCidr('0.0.0.0/0')?.text).toBe('0.0.0.0/0')
    expect(parseCidr('::ffff:10.0.0.0/104')?.text).toBe('10.0.0.0/8')
  })

  it.each([
    '10.0.0.0/33',
    '2001:db8::/129',
    '10.0.0.0/-1',
    '10.0.0.0/',
    'loopback',
    '10.0.0.0/8/8',
    '[::1]',
    '10.0.0.0/ 8',
    '10.1/16',
    '::ffff:10.0.0.0/95',
    '10.0.0.1:80',
  ])('rejects %j', (input) => {
    expect(parseCidr(input)).toBeNull()
  })

  it('matches addresses inside the range only, IPv4 and IPv6 apart', () => {
    const v4 = parseCidr('192.168.0.0/16')!
    expect(cidrContains(v4, parseIpAddress('192.168.255.1')!)).toBe(true)
    expect(cidrContains(v4, parseIpAddress('192.169.0.1')!)).toBe(false)
    expect(cidrContains(v4, parseIpAddress('::ffff:192.168.1.1')!)).toBe(true)
    const v6 = parseCidr('2001:db8:1234:5600::/56')!
    expect(cidrContains(v6, parseIpAddress('2001:db8:1234:56ff::1')!)).toBe(true)
    expect(cidrContains(v6, parseIpAddress('2001:db8:1234:5700::1')!)).toBe(false)
    expect(cidrContains(v6, parseIpAddress('192.168.1.1')!)).toBe(false)
    expect(cidrContains(parseCidr('0.0.0.0/0')!, parseIpAddress('8.8.8.8')!)).toBe(true)
  })
})

describe('quota bucket of an address', () => {
  it('is the IPv4 address, or the IPv6 /64', () => {
    expect(quotaBucketKey('203.0.113.5')).toBe('203.0.113.5')
    expect(quotaBucketKey('::ffff:203.0.113.5')).toBe('203.0.113.5')
    expect(quotaBucketKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64')
    expect(quotaBucketKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
    expect(quotaBucketKey('2001:0DB8:0001:0002:0:0:0:9')).toBe('2001:db8:1:2::/64')
    expect(quotaBucketKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
    expect(quotaBucketKey('2001:db8::1')).toBe('2001:db8::/64')
  })

  it('puts anything unparseable into one shared bucket', () => {
    expect(quotaBucketKey(null)).toBe('unknown')
    expect(quotaBucketKey('')).toBe('unknown')
    expect(quotaBucketKey('not-an-ip')).toBe('unknown')
  })
})

describe('client address resolution (npm start)', () => {
  it('uses the TCP peer and ignores X-Forwarded-For without TRUST_PROXY', () => {
    const resolve = createClientAddressResolver([])
    expect(resolve('198.51.100.7', '203.0.113.5')).toBe('198.51.100.7')
    expect(resolve('::ffff:127.0.0.1', '1.1.1.1')).toBe('127.0.0.1')
    expect(resolve(undefined, '1.1.1.1')).toBe('unknown')
  })

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    const resolve = createClientAddressResolver(['10.0.0.0/8'])
    expect(resolve('198.51.100.7', '203.0.113.5')).toBe('198.51.100.7')
  })

  it('takes the right-most untrusted hop behind trusted proxies', () => {
    const resolve = createClientAddressResolver(['10.0.0.0/8', '2001:db8:ffff::/48'])
    expect(resolve('10.0.0.2', '203.0.113.5')).toBe('203.0.113.5')
    // The client prepended a fake hop: the proxy appended the real one at the right.
    expect(resolve('10.0.0.2', '1.1.1.1, 203.0.113.5')).toBe('203.0.113.5')
    // Two trusted proxies in a row.
    expect(resolve('10.0.0.2', '1.1.1.1, 203.0.113.5, 10.9.9.9')).toBe('203.0.113.5')
    expect(resolve('2001:db8:ffff::1', '2001:db8:1:2::3')).toBe('2001:db8:1:2::3')
    // Several header lines are one list.
    expect(resolve('10.0.0.2', ['1.1.1.1', '203.0.113.5'])).toBe('203.0.113.5')
  })

  it('falls back sensibly when the chain is empty, all trusted, or malformed', () => {
    const resolve = createClientAddressResolver(['10.0.0.0/8'])
    expect(resolve('10.0.0.2', undefined)).toBe('10.0.0.2')
    expect(resolve('10.0.0.2', '')).toBe('10.0.0.2')
    expect(resolve('10.0.0.2', '10.0.0.9, 10.0.0.8')).toBe('10.0.0.9')
    expect(resolve('10.0.0.2', 'garbage')).toBe('10.0.0.2')
    expect(resolve('10.0.0.2', '203.0.113.5, garbage')).toBe('10.0.0.2')
    expect(resolve('10.0.0.2', 'garbage, 203.0.113.5')).toBe('203.0.113.5')
  })

  it('refuses invalid TRUST_PROXY entries, also at configuration time', () => {
    expect(parseTrustedProxies(['10.0.0.0/8', 'loopback', '::1']).invalid).toEqual(['loopback'])
    expect(() => createClientAddressResolver(['nope'])).toThrow(/TRUST_PROXY/)
    expect(() => parseConfig({ TRUST_PROXY: '10.0.0.0/8, nope' })).toThrow(/TRUST_PROXY: not an IP address or CIDR range: nope/)
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8, ::1' }).trustProxy).toEqual(['10.0.0.0/8', '::1'])
  })
})

describe('reading the client address in a handler', () => {
  const request = (headers: Record<string, string>) => new Request('http://localhost/api/agent/v1/health', { headers })

  it('behind npm start reads the address the server resolved and put on the request, whatever forwarding headers the client sent', () => {
    const plain = {
      method: 'GET',
      url: 'http://localhost/api/agent/v1/health',
      headers: new Headers({ 'x-real-ip': '3.3.3.3', 'x-forwarded-for': '1.1.1.1, 2.2.2.2' }),
      bytes: null,
      clientAddress: '198.51.100.7',
      compressAnswer: true,
    }
    expect(readClientAddress(plain, 'unverified')).toBe('198.51.100.7')
    expect(readClientAddress(plain, 'vercel')).toBe('198.51.100.7')
  })

  it('on Vercel reads the platform address', () => {
    expect(readClientAddress(request({ 'x-real-ip': '203.0.113.5', 'x-forwarded-for': '203.0.113.5' }), 'vercel')).toBe('203.0.113.5')
    expect(readClientAddress(request({ 'x-forwarded-for': '203.0.113.5, 10.0.0.1' }), 'vercel')).toBe('203.0.113.5')
  })

  it('unverified (plain next start) prefers the hop Next appended', () => {
    expect(readClientAddress(request({ 'x-forwarded-for': '1.1.1.1, 203.0.113.5' }), 'unverified')).toBe('203.0.113.5')
    expect(readClientAddress(request({}), 'unverified')).toBeNull()
  })
})

describe('configuration of the quota and rollout', () => {
  it('defaults', () => {
    const config = parseConfig({})
    expect(config.redisKeyPrefix).toBe('cadence')
    expect(config.redisTimeoutMs).toBe(500)
    expect(config.upstash).toBeNull()
    expect(config.flagsSecret).toBeUndefined()
  })

  it('validates FLAGS_SECRET as 32 bytes of base64url', () => {
    const secret = Buffer.alloc(32, 7).toString('base64url')
    expect(parseConfig({ FLAGS_SECRET: secret }).flagsSecret).toBe(secret)
    expect(() => parseConfig({ FLAGS_SECRET: 'short' })).toThrow(/FLAGS_SECRET/)
    expect(() => parseConfig({ FLAGS_SECRET: Buffer.alloc(16).toString('base64url') })).toThrow(/FLAGS_SECRET/)
  })

  it('bounds REDIS_TIMEOUT_MS and checks REDIS_KEY_PREFIX', () => {
    expect(parseConfig({ REDIS_TIMEOUT_MS: '250', REDIS_KEY_PREFIX: 'cadence:preview' })).toMatchObject({
      redisTimeoutMs: 250,
      redisKeyPrefix: 'cadence:preview',
    })
    expect(() => parseConfig({ REDIS_TIMEOUT_MS: '10' })).toThrow(/REDIS_TIMEOUT_MS/)
    expect(() => parseConfig({ REDIS_KEY_PREFIX: 'has space' })).toThrow(/REDIS_KEY_PREFIX/)
  })
})

describe('Upstash configuration', () => {
  it('accepts the REST URL and token, from either pair of variables', () => {
    expect(parseConfig({ UPSTASH_REDIS_REST_URL: 'https://eu1-x.upstash.io', UPSTASH_REDIS_REST_TOKEN: 't' }).upstash).toEqual({
      url: 'https://eu1-x.upstash.io',
      token: 't',
    })
    expect(parseConfig({ KV_REST_API_URL: 'https://kv.example', KV_REST_API_TOKEN: 'k' }).upstash).toEqual({ url: 'https://kv.example', token: 'k' })
  })

  it('refuses a URL the client could not use, naming the variable', () => {
    expect(() => parseConfig({ UPSTASH_REDIS_REST_URL: 'redis://localhost:6379', UPSTASH_REDIS_REST_TOKEN: 't' })).toThrow(
      /UPSTASH_REDIS_REST_URL: expected the https:\/\/ REST URL/,
    )
    expect(() => parseConfig({ KV_REST_API_URL: 'eu1-x.upstash.io', KV_REST_API_TOKEN: 't' })).toThrow(/KV_REST_API_URL/)
  })
})
