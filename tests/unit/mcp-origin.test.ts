import { describe, expect, it } from 'vitest'
import { parseConfig } from '../../lib/env.ts'
import { buildOriginPolicy, checkOrigin, isLoopbackHost } from '../../lib/http/origin-policy.ts'

const local = buildOriginPolicy(parseConfig({ HOST: '127.0.0.1', PORT: '4000', BASE_URL: 'https://agents.example.com' }))
const configured = buildOriginPolicy(
  parseConfig({ HOST: '127.0.0.1', PORT: '4000', MCP_ALLOWED_ORIGINS: 'https://console.example.org, http://localhost:5173' }),
)
const publicBind = buildOriginPolicy(parseConfig({ HOST: '0.0.0.0', PORT: '4000', BASE_URL: 'https://agents.example.com' }))
const vercel = buildOriginPolicy(parseConfig({ VERCEL: '1', VERCEL_ENV: 'production', VERCEL_PROJECT_PRODUCTION_URL: 'agents.example.com' }))

describe('Origin', () => {
  it('serves requests without an Origin header', () => {
    expect(checkOrigin(null, '127.0.0.1:4000', local)).toEqual({ ok: true })
  })

  it("allows the site's own origin and, on a loopback bind, the loopback origins of its port", () => {
    for (const origin of ['https://agents.example.com', 'http://localhost:4000', 'http://127.0.0.1:4000', 'http://[::1]:4000']) {
      expect(checkOrigin(origin, 'localhost:4000', local)).toEqual({ ok: true })
    }
  })

  it('allows the origins listed in MCP_ALLOWED_ORIGINS', () => {
    expect(checkOrigin('https://console.example.org', 'localhost:4000', configured)).toEqual({ ok: true })
    expect(checkOrigin('http://localhost:5173', 'localhost:4000', configured)).toEqual({ ok: true })
    expect(checkOrigin('https://agents.example.com', 'localhost:4000', configured).ok).toBe(false)
  })

  it.each([
    ['a foreign origin', 'https://evil.example.com'],
    ['another port of localhost', 'http://localhost:4001'],
    ['another scheme', 'https://localhost:4000'],
    ['the opaque origin null', 'null'],
    ['an unparsable value', 'not a url'],
    ['a non-web scheme', 'file:///etc/passwd'],
    ['a value with a path', 'https://agents.example.com/evil'],
  ])('refuses %s', (_label, origin) => {
    const verdict = checkOrigin(origin, 'localhost:4000', local)
    expect(verdict.ok).toBe(false)
  })
})

describe('Host on a loopback bind (DNS rebinding)', () => {
  it.each(['localhost:4000', '127.0.0.1:4000', '[::1]:4000', 'agents.example.com'])('accepts %s', (host) => {
    expect(checkOrigin(null, host, local)).toEqual({ ok: true })
  })

  it.each([['evil.example.com'], ['evil.example.com:4000'], ['127.0.0.1.evil.example.com'], [null], ['a b']])('refuses %s', (host) => {
    expect(checkOrigin(null, host, local).ok).toBe(false)
  })

  it('does not pin Host on a public bind or behind the platform, where Host is the public name', () => {
    expect(publicBind.allowedHostnames).toBeNull()
    expect(vercel.allowedHostnames).toBeNull()
    expect(checkOrigin(null, 'anything.example.net', publicBind)).toEqual({ ok: true })
    expect(checkOrigin('https://agents.example.com', 'agents.example.com', vercel)).toEqual({ ok: true })
    expect(checkOrigin('https://evil.example.com', 'agents.example.com', vercel).ok).toBe(false)
  })

  it('knows the loopback names', () => {
    expect(['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]'].every(isLoopbackHost)).toBe(true)
    expect(['0.0.0.0', 'example.com', '10.0.0.1'].some(isLoopbackHost)).toBe(false)
  })
})

describe('MCP_ALLOWED_ORIGINS', () => {
  it('is normalised to serialized origins', () => {
    expect(parseConfig({ MCP_ALLOWED_ORIGINS: ' https://Console.Example.org/ ,http://localhost:5173' }).mcpAllowedOrigins).toEqual([
      'https://console.example.org',
      'http://localhost:5173',
    ])
  })

  it('names the variable when an entry is not an origin', () => {
    expect(() => parseConfig({ MCP_ALLOWED_ORIGINS: 'https://a.example.com/path' })).toThrow(/MCP_ALLOWED_ORIGINS/)
    expect(() => parseConfig({ MCP_ALLOWED_ORIGINS: 'console.example.org' })).toThrow(/MCP_ALLOWED_ORIGINS/)
  })
})
