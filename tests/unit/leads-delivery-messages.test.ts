import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { leadEvent, slackEscape, slackMessage } from '../../lib/leads/delivery-send.ts'
import { NO_ATTRIBUTION } from '../../lib/leads/lead.ts'
import type { StoredLead } from '../../lib/leads/lead-archive.ts'

const lead: StoredLead = {
  id: 'lead_0mwxabc000123456789abcdef',
  receivedAt: new Date('2026-11-26T09:00:00.000Z'),
  sourcePage: '/contact',
  addressHash: 'never-sent',
  spamReason: null,
  attribution: NO_ATTRIBUTION,
  fields: {
    name: '<@U123> & <!channel> *Bold*',
    email: 'ana@example.com',
    company: 'A&B <Co>',
    teamSize: '11-50',
    goal: 'Grow > 2x',
    topic: 'programme',
    plan: 'programme',
  },
  deliveries: {},
}

describe('slackEscape', () => {
  it('escapes &, < and > (in that order, so an escape is never escaped twice) and nothing else', () => {
    expect(slackEscape('a & b < c > d "e" *f*')).toBe('a &amp; b &lt; c &gt; d "e" *f*')
    expect(slackEscape('&lt;')).toBe('&amp;lt;')
  })
})

describe('slackMessage', () => {
  it('is plain text (mrkdwn off) with every field escaped: a mention or HTML in a name shows as typed', () => {
    expect(slackMessage(lead)).toEqual({
      text:
        'New lead from /contact: &lt;@U123&gt; &amp; &lt;!channel&gt; *Bold* &lt;ana@example.com&gt;\n' +
        'Company: A&amp;B &lt;Co&gt; · team size: 11-50 · topic: programme · plan: programme\n\nGrow &gt; 2x\n\n(lead_0mwxabc000123456789abcdef)',
      mrkdwn: false,
    })
  })
})

describe('slackMessage of a lead holding control characters', () => {
  it('writes each out as \\uXXXX, keeping the goal’s tabs and line breaks: the channel shows what was typed, commanding nothing', () => {
    const text = slackMessage({
      ...lead,
      fields: { ...lead.fields, name: 'Eve\u001b[2J\u202e', company: 'C\u009b1m', goal: 'a\tb\nc\u0007' },
    }).text
    expect(text.split('\n')[0]).toBe('New lead from /contact: Eve\\u001B[2J\\u202E &lt;ana@example.com&gt;')
    expect(text).toContain('Company: C\\u009B1m ·')
    expect(text).toContain('\n\na\tb\nc\\u0007\n\n')
  })
})

describe('slackMessage of a lead from a campaign', () => {
  it('names where it came from on a line of its own before the id', () => {
    const attribution = { ...NO_ATTRIBUTION, utmCampaign: 'spring <b>', utmSource: 'newsletter', landingPage: '/pricing' }
    expect(
      slackMessage({ ...lead, attribution })
        .text.split('\n')
        .slice(-2),
    ).toEqual(['From: campaign spring &lt;b&gt; (newsletter) · landed on /pricing', '(lead_0mwxabc000123456789abcdef)'])
  })
})

describe('leadEvent', () => {
  it('is a lead.created event with the fields, time, page and where the lead came from, without the address hash', () => {
    expect(leadEvent(lead)).toEqual({
      type: 'lead.created',
      timestamp: '2026-11-26T09:00:00.000Z',
      data: { id: lead.id, receivedAt: '2026-11-26T09:00:00.000Z', sourcePage: '/contact', ...lead.fields, attribution: NO_ATTRIBUTION },
    })
    expect(JSON.stringify(leadEvent(lead))).not.toContain('never-sent')
  })

  it('signed by the library, verifies with the same secret and fails with another', () => {
    const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`
    const body = JSON.stringify(leadEvent(lead))
    const now = new Date()
    const headers = {
      'webhook-id': lead.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(lead.id, now, body),
    }
    expect(new Webhook(secret).verify(body, headers)).toEqual(leadEvent(lead))
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 8).toString('base64')}`).verify(body, headers)).toThrow()
  })
})
