import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfig } from '../../lib/env.ts'
import { describeConfigError } from '../../lib/env-files.ts'
import { perInstanceQuotaWarning } from '../../lib/quota/quota.ts'

function errorOf(env: Record<string, string>): ConfigError {
  try {
    parseConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error(`no ConfigError for ${JSON.stringify(env)}`)
}

describe('parseConfig', () => {
  it('has embedded defaults that need nothing', () => {
    const config = parseConfig({})
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      baseUrl: 'http://localhost:3000',
      deployment: 'local',
      noindex: false,
      serviceName: 'service',
      publicAgentAccessDefault: true,
      disabledRetryAfterSeconds: 300,
      upstash: null,
      trustProxy: [],
      mcpAllowedOrigins: [],
    })
  })

  it('follows PORT in the default base URL', () => {
    expect(parseConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080')
  })

  it.each([
    [{ BASE_URL: 'https://agents.example.com/' }, 'https://agents.example.com'],
    [{ BASE_URL: 'https://agents.example.com', VERCEL_ENV: 'preview', VERCEL_URL: 'x.vercel.app' }, 'https://agents.example.com'],
    [{ VERCEL_ENV: 'preview', VERCEL_URL: 'a.vercel.app', VERCEL_BRANCH_URL: 'b.vercel.app' }, 'https://b.vercel.app'],
    [{ VERCEL_ENV: 'preview', VERCEL_URL: 'a.vercel.app' }, 'https://a.vercel.app'],
    [{ VERCEL_ENV: 'production', VERCEL_URL: 'a.vercel.app', VERCEL_PROJECT_PRODUCTION_URL: 'cadence.example' }, 'https://cadence.example'],
    [{ VERCEL_ENV: 'development', VERCEL_URL: 'a.vercel.app' }, 'https://a.vercel.app'],
  ])('resolves the base URL of %o to %s', (env, expected) => {
    expect(parseConfig(env).baseUrl).toBe(expected)
  })

  it('marks every non-production Vercel deployment noindex', () => {
    expect(parseConfig({ VERCEL_ENV: 'preview', VERCEL_URL: 'a.vercel.app' }).noindex).toBe(true)
    expect(parseConfig({ VERCEL_ENV: 'development', VERCEL_URL: 'a.vercel.app' }).noindex).toBe(true)
    expect(parseConfig({ VERCEL_ENV: 'production', VERCEL_URL: 'a.vercel.app' }).noindex).toBe(false)
  })

  it('reads Upstash or Vercel KV credentials, and refuses half of a pair', () => {
    expect(parseConfig({ UPSTASH_REDIS_REST_URL: 'https://u.example', UPSTASH_REDIS_REST_TOKEN: 't' }).upstash).toEqual({
      url: 'https://u.example',
      token: 't',
    })
    expect(parseConfig({ KV_REST_API_URL: 'https://k.example', KV_REST_API_TOKEN: 'k' }).upstash).toEqual({ url: 'https://k.example', token: 'k' })
    expect(errorOf({ UPSTASH_REDIS_REST_URL: 'https://u.example' }).message).toBe(
      'Invalid setting UPSTASH_REDIS_REST_TOKEN: set both UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN, or neither',
    )
    expect(errorOf({ KV_REST_API_TOKEN: 't' }).message).toBe(
      'Invalid setting KV_REST_API_URL: set both KV_REST_API_URL and KV_REST_API_TOKEN, or neither',
    )
  })

  it.each([
    [{ BASE_URL: 'agents.example.com' }, /BASE_URL: expected an absolute http\(s\) URL/],
    [{ BASE_URL: 'https://agents.example.com/api' }, /BASE_URL: expected a bare origin/],
    [{ BASE_URL: 'ftp://agents.example.com' }, /BASE_URL: expected a bare origin/],
    [{ PORT: 'eighty' }, /PORT:/],
    [{ PUBLIC_AGENT_ACCESS: 'maybe' }, /PUBLIC_AGENT_ACCESS:/],
    [{ SERVICE_NAME: 'Bad Name' }, /SERVICE_NAME: expected lower-case letters/],
    [{ APP_URL: 'not a url' }, /APP_URL:/],
    [{ MCP_SERVER_NAME: 'agents.example.com' }, /MCP_SERVER_NAME: expected an MCP registry name/],
    [{ MCP_SERVER_NAME: 'https://agents.example.com/mcp' }, /MCP_SERVER_NAME: expected an MCP registry name/],
    [{ MCP_SERVER_NAME: 'com.example/agents/mcp' }, /MCP_SERVER_NAME: expected an MCP registry name/],
  ])('rejects %o with the variable named', (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError)
    expect(() => parseConfig(env)).toThrow(message)
  })

  it('reads MCP_SERVER_NAME, unset by default', () => {
    expect(parseConfig({}).mcpServerName).toBeUndefined()
    expect(parseConfig({ MCP_SERVER_NAME: ' com.example.agents/cadence_public-2 ' }).mcpServerName).toBe('com.example.agents/cadence_public-2')
  })

  it('parses comma-separated lists', () => {
    expect(parseConfig({ MCP_ALLOWED_ORIGINS: ' https://a.example , https://b.example,' }).mcpAllowedOrigins).toEqual([
      'https://a.example',
      'https://b.example',
    ])
  })

  it('reads AGENT_SIGNATURE_DIRECTORIES: https origins (http for loopback only), none, or the public signers by default', () => {
    expect(parseConfig({}).agentSignatureDirectories).toEqual(['https://chatgpt.com'])
    expect(parseConfig({ AGENT_SIGNATURE_DIRECTORIES: 'none' }).agentSignatureDirectories).toEqual([])
    expect(
      parseConfig({ AGENT_SIGNATURE_DIRECTORIES: 'https://chatgpt.com/, http://127.0.0.1:4100, http://localhost:9, https://chatgpt.com' })
        .agentSignatureDirectories,
    ).toEqual(['https://chatgpt.com', 'http://127.0.0.1:4100', 'http://localhost:9'])
    for (const wrong of ['http://signer.example', 'https://signer.example/keys', 'ftp://127.0.0.1', 'chatgpt.com']) {
      expect(() => parseConfig({ AGENT_SIGNATURE_DIRECTORIES: wrong }), wrong).toThrow(
        `Invalid setting AGENT_SIGNATURE_DIRECTORIES: expected https origins of key directories such as https://chatgpt.com (http only for a loopback host), or none, got ${JSON.stringify(wrong)}`,
      )
    }
  })

  it('counts an empty or blank value as unset', () => {
    const config = parseConfig({
      PORT: '',
      HOST: ' ',
      DISABLED_RETRY_AFTER_SECONDS: '',
      PUBLIC_AGENT_ACCESS: '  ',
      BASE_URL: '',
      APP_URL: '',
      REDIS_TIMEOUT_MS: '',
    })
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      baseUrl: 'http://localhost:3000',
      disabledRetryAfterSeconds: 300,
      publicAgentAccessDefault: true,
      redisTimeoutMs: 500,
    })
  })

  it.each([
    [{ PORT: 'abc' }, 'Invalid setting PORT: expected a port number from 1 to 65535, got "abc"'],
    [{ PORT: '0' }, 'Invalid setting PORT: expected a port number from 1 to 65535, got "0"'],
    [{ PORT: '3000.5' }, 'Invalid setting PORT: expected a port number from 1 to 65535, got "3000.5"'],
    [
      { DISABLED_RETRY_AFTER_SECONDS: '-1' },
      'Invalid setting DISABLED_RETRY_AFTER_SECONDS: expected a whole number of seconds from 1 to 86400, got "-1"',
    ],
    [{ REDIS_TIMEOUT_MS: '10' }, 'Invalid setting REDIS_TIMEOUT_MS: expected a whole number of milliseconds from 50 to 5000, got "10"'],
    [{ PUBLIC_AGENT_ACCESS: 'maybe' }, 'Invalid setting PUBLIC_AGENT_ACCESS: expected true or false (or 1/0, yes/no, on/off), got "maybe"'],
    [{ APP_URL: 'app.example' }, 'Invalid setting APP_URL: expected an http(s) URL such as https://app.cadence.example, got "app.example"'],
    [
      { BASE_URL: 'https://agents.example.com/api' },
      'Invalid setting BASE_URL: expected a bare origin (scheme and host, no path, query or credentials) such as https://agents.example.com, got "https://agents.example.com/api"',
    ],
  ])('explains %o in one line naming the variable and what is expected', (env, message) => {
    expect(errorOf(env).message).toBe(message)
  })

  it('reads boolean words in any case', () => {
    expect(parseConfig({ PUBLIC_AGENT_ACCESS: 'FALSE' }).publicAgentAccessDefault).toBe(false)
    expect(parseConfig({ PUBLIC_AGENT_ACCESS: 'On' }).publicAgentAccessDefault).toBe(true)
  })

  it('never repeats a secret in its message', () => {
    const secret = 'not-the-32-bytes-it-should-be'
    const message = errorOf({ FLAGS_SECRET: secret }).message
    expect(message).toMatch(/^Invalid setting FLAGS_SECRET: expected 32 random bytes in base64url/)
    expect(message).not.toContain(secret)
  })

  it('reports one line per wrong variable, naming where each value came from', () => {
    const error = errorOf({ PORT: 'abc', PUBLIC_AGENT_ACCESS: 'maybe' })
    const sources: Record<string, string> = { PORT: '.env.local', PUBLIC_AGENT_ACCESS: 'the environment' }
    expect(describeConfigError(error, { files: ['.env.local'], sourceOf: (name) => sources[name] })).toEqual([
      'Invalid setting PORT (from .env.local): expected a port number from 1 to 65535, got "abc"',
      'Invalid setting PUBLIC_AGENT_ACCESS (from the environment): expected true or false (or 1/0, yes/no, on/off), got "maybe"',
    ])
  })
})

describe('the per-instance quota warning', () => {
  it('is given for Vercel production without Upstash only', () => {
    const production = { VERCEL: '1', VERCEL_ENV: 'production', VERCEL_PROJECT_PRODUCTION_URL: 'agents.example.com' }
    expect(perInstanceQuotaWarning(parseConfig(production))).toBe(
      '[quota] Warning: Vercel production without Upstash Redis (UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN, or KV_REST_API_URL and KV_REST_API_TOKEN): ' +
        'the quota is per instance — every function instance keeps its own buckets, so a client may get 150 requests at once from each instance. ' +
        'Add an Upstash Redis integration for one shared quota.',
    )
    expect(perInstanceQuotaWarning(parseConfig({ ...production, KV_REST_API_URL: 'https://k.example', KV_REST_API_TOKEN: 'k' }))).toBeUndefined()
    expect(perInstanceQuotaWarning(parseConfig({ VERCEL: '1', VERCEL_ENV: 'preview', VERCEL_URL: 'p.vercel.app' }))).toBeUndefined()
    expect(perInstanceQuotaWarning(parseConfig({}))).toBeUndefined()
  })
})
