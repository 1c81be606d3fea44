import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfig } from '../../lib/env.ts'

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
    expect(parseConfig({ UPSTASH_REDIS_REST_URL: 'https://u.example', UPSTASH_REDIS_REST_TOKEN: 't' }).upstash).toEqual({ url: 'https://u.example', token: 't' })
    expect(parseConfig({ KV_REST_API_URL: 'https://k.example', KV_REST_API_TOKEN: 'k' }).upstash).toEqual({ url: 'https://k.example', token: 'k' })
    expect(() => parseConfig({ UPSTASH_REDIS_REST_URL: 'https://u.example' })).toThrow(/set both or neither/)
  })

  it.each([
    [{ BASE_URL: 'agents.example.com' }, /BASE_URL: expected an absolute http\(s\) URL/],
    [{ BASE_URL: 'https://agents.example.com/api' }, /BASE_URL: expected a bare origin/],
    [{ BASE_URL: 'ftp://agents.example.com' }, /BASE_URL: expected a bare origin/],
    [{ PORT: 'eighty' }, /PORT:/],
    [{ PUBLIC_AGENT_ACCESS: 'maybe' }, /PUBLIC_AGENT_ACCESS:/],
    [{ SERVICE_NAME: 'Bad Name' }, /SERVICE_NAME: lower-case letters/],
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
    expect(parseConfig({ MCP_ALLOWED_ORIGINS: ' https://a.example , https://b.example,' }).mcpAllowedOrigins).toEqual(['https://a.example', 'https://b.example'])
  })
})
