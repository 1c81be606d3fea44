import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfig } from '../../lib/env.ts'

const SECRET = `whsec_${Buffer.alloc(32, 1).toString('base64')}`

function issuesOf(env: Record<string, string>) {
  try {
    parseConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.issues
    throw error
  }
  throw new Error('no ConfigError')
}

describe('lead settings', () => {
  it('default to the SQLite file .data/leads.sqlite, 180 days, no destination, 20 deliveries a minute, no cron secret', () => {
    const config = parseConfig({})
    expect(config.leads).toEqual({
      store: { kind: 'sqlite', path: '.data/leads.sqlite' },
      addressSalt: null,
      retentionDays: 180,
      webhook: null,
      slackWebhookUrl: null,
      deliveriesPerMinute: 20,
    })
    expect(config.cronSecret).toBeUndefined()
  })

  it('keep leads in Upstash when it is configured, anywhere; on Vercel without it nowhere', () => {
    const upstash = { UPSTASH_REDIS_REST_URL: 'https://u.example', UPSTASH_REDIS_REST_TOKEN: 't' }
    expect(parseConfig(upstash).leads.store).toEqual({ kind: 'upstash' })
    expect(parseConfig({ ...upstash, VERCEL: '1', VERCEL_ENV: 'production' }).leads.store).toEqual({ kind: 'upstash' })
    expect(parseConfig({ VERCEL: '1', VERCEL_ENV: 'preview' }).leads.store).toBeNull()
    expect(parseConfig({ LEADS_DATABASE_PATH: '/var/lib/cadence/leads.sqlite' }).leads.store).toEqual({
      kind: 'sqlite',
      path: '/var/lib/cadence/leads.sqlite',
    })
  })

  it('read the webhook with its secret, Slack, retention, salt, cron secret and deliveries per minute', () => {
    const config = parseConfig({
      LEADS_WEBHOOK_URL: 'https://crm.example.com/hooks/leads',
      LEADS_WEBHOOK_SECRET: SECRET,
      LEADS_SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/X',
      LEADS_RETENTION_DAYS: '30',
      LEADS_ADDRESS_SALT: 'a-long-enough-salt',
      CRON_SECRET: 'sixteen-chars-ok',
      LEADS_DELIVERIES_PER_MINUTE: '600',
    })
    expect(config.leads).toMatchObject({
      deliveriesPerMinute: 600,
      webhook: { url: 'https://crm.example.com/hooks/leads', secret: SECRET },
      slackWebhookUrl: 'https://hooks.slack.com/services/T/B/X',
      retentionDays: 30,
      addressSalt: 'a-long-enough-salt',
    })
    expect(config.cronSecret).toBe('sixteen-chars-ok')
  })

  it.each([
    [{ LEADS_WEBHOOK_URL: 'https://crm.example.com/x' }, 'LEADS_WEBHOOK_SECRET', 'set both LEADS_WEBHOOK_URL and LEADS_WEBHOOK_SECRET, or neither'],
    [{ LEADS_WEBHOOK_SECRET: SECRET }, 'LEADS_WEBHOOK_URL', 'set both LEADS_WEBHOOK_URL and LEADS_WEBHOOK_SECRET, or neither'],
    [
      { LEADS_WEBHOOK_URL: 'ftp://crm.example.com/x', LEADS_WEBHOOK_SECRET: SECRET },
      'LEADS_WEBHOOK_URL',
      'expected an http(s) URL such as https://crm.example.com/hooks/leads',
    ],
    [{ LEADS_RETENTION_DAYS: '0' }, 'LEADS_RETENTION_DAYS', 'expected a whole number of days from 1 to 3650, got "0"'],
    [{ CRON_SECRET: 'short' }, 'CRON_SECRET', 'expected a random string of at least 16 characters'],
    [{ LEADS_ADDRESS_SALT: 'short' }, 'LEADS_ADDRESS_SALT', 'expected a random string of at least 16 characters'],
    [
      { LEADS_DELIVERIES_PER_MINUTE: '0' },
      'LEADS_DELIVERIES_PER_MINUTE',
      'expected a whole number of deliveries per minute from 1 to 100000, got "0"',
    ],
  ])('refuse %o naming %s', (env, variable, expected) => {
    expect(issuesOf(env)).toEqual([{ variable, expected }])
  })

  it('refuse a webhook secret that is not whsec_ base64, without repeating it', () => {
    const [issue] = issuesOf({ LEADS_WEBHOOK_URL: 'https://crm.example.com/x', LEADS_WEBHOOK_SECRET: 'not-a-secret-value' })
    expect(issue?.variable).toBe('LEADS_WEBHOOK_SECRET')
    expect(issue?.expected).toMatch(/^expected a Standard Webhooks secret: whsec_ followed by at least 24 random bytes in base64/)
    expect(issue?.expected).not.toContain('not-a-secret-value')
  })
})
