import { describe, expect, it } from 'vitest'
import type { StoredLead } from '../../lib/leads/lead-archive.ts'
import { NO_ATTRIBUTION } from '../../lib/leads/lead.ts'
import { csvCell, describeAttribution, leadsCsv } from '../../lib/leads/leads-csv.ts'

describe('csvCell', () => {
  it.each([
    ['=SUM(A1:A9)', `"'=SUM(A1:A9)"`],
    ['+1 555 0100', `"'+1 555 0100"`],
    ['-2+3', `"'-2+3"`],
    ['@cmd', `"'@cmd"`],
  ])('guards %j, which a spreadsheet would read as a formula, with a leading quote: %s', (value, expected) => {
    expect(csvCell(value)).toBe(expected)
  })

  it.each([
    ['\t=1', `"'\t=1"`],
    ['\r=1', `"'\r=1"`],
    ['two\r\nlines\nand more', '"two\r\nlines\nand more"'],
  ])('in a cell that keeps line breaks (the goal), guards %j or keeps it whole: %s', (value, expected) => {
    expect(csvCell(value, { lineBreaks: true })).toBe(expected)
  })

  it.each([
    ['Eve\u001b[2J', '"Eve\\u001B[2J"'],
    ['\u202eevil', '"\\u202Eevil"'],
    ['C1 \u009b31m and DEL \u007f', '"C1 \\u009B31m and DEL \\u007F"'],
    ['tab\there', '"tab\\u0009here"'],
    ['\t=1', '"\\u0009=1"'],
  ])('writes out the control characters of %j as \\uXXXX: %s', (value, expected) => {
    expect(csvCell(value)).toBe(expected)
  })

  it.each([
    ['plain', '"plain"'],
    ['', '""'],
    ['Say "hi", then leave', '"Say ""hi"", then leave"'],
    ['a=b, c-d @e', '"a=b, c-d @e"'],
    ['<b>Zoë</b> 🚀 שלום مرحبا', '"<b>Zoë</b> 🚀 שלום مرحبا"'],
  ])('quotes %j and doubles its quotes, nothing else changed: %s', (value, expected) => {
    expect(csvCell(value)).toBe(expected)
  })
})

describe('leadsCsv', () => {
  const lead: StoredLead = {
    id: 'lead_0mwxabc0001',
    receivedAt: new Date('2026-11-26T09:00:00.000Z'),
    sourcePage: '/contact',
    addressHash: 'h',
    spamReason: null,
    attribution: {
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: '=spring',
      utmTerm: null,
      utmContent: null,
      landingPage: '/pricing',
      referrerOrigin: 'https://news.example',
      viaWebMcp: true,
    },
    fields: {
      name: '=cmd|" /C calc"!A0',
      email: 'a@example.com',
      company: 'ACME, "Inc."',
      teamSize: '1-10',
      goal: 'x'.repeat(10_240),
      topic: 'demo',
      plan: null,
    },
    deliveries: {
      webhook: { state: 'delivered', attempts: 2, nextAttemptAt: null, lastOutcome: 'delivered', deliveredAt: new Date('2026-11-26T09:01:00.000Z') },
      slack: { state: 'pending', attempts: 1, nextAttemptAt: new Date('2026-11-26T09:02:00.000Z'), lastOutcome: 'HTTP 503', deliveredAt: null },
    },
  }

  it('writes a header and one CRLF-terminated record per lead, the 10 KB message whole, where it came from guarded too', () => {
    expect(leadsCsv([lead])).toBe(
      '"id","received_at","name","email","company","team_size","goal","topic","plan","source_page","utm_source","utm_medium","utm_campaign",' +
        '"utm_term","utm_content","landing_page","referrer_origin","via_webmcp","spam","webhook_delivery","slack_delivery"\r\n' +
        `"lead_0mwxabc0001","2026-11-26T09:00:00.000Z","'=cmd|"" /C calc""!A0","a@example.com","ACME, ""Inc.""","1-10","${'x'.repeat(10_240)}","demo","","/contact",` +
        `"newsletter","email","'=spring","","","/pricing","https://news.example","yes","no",` +
        '"delivered 2026-11-26T09:01:00.000Z","pending (1 attempt, last HTTP 503)"\r\n',
    )
  })

  it('says where a lead came from in a few words, or nothing when nothing is known', () => {
    expect(describeAttribution(lead.attribution)).toBe(
      "campaign =spring (newsletter / email) · landed on /pricing · referred by https://news.example · filled by the browser's agent",
    )
    expect(describeAttribution({ ...NO_ATTRIBUTION, utmSource: 'partner' })).toBe('campaign (unnamed) (partner)')
    expect(describeAttribution(NO_ATTRIBUTION)).toBeNull()
  })
})
