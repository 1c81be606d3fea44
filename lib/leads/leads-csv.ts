/**
 * Leads as CSV (RFC 4180: every cell quoted, quotes doubled, CRLF between records) for a spreadsheet.
 * A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a formula by
 * Excel, Sheets or LibreOffice (formula injection: a "name" that runs `=HYPERLINK(…)`), so it gets a
 * leading `'`, which spreadsheets show as text and hide. A control character is written out as `\u001B`
 * (lib/leads/control-characters.ts; the goal keeps its tabs and line breaks). Everything else is
 * exported exactly as stored.
 */
import { escapeControls } from './control-characters.ts'
import type { LeadAttribution } from './lead.ts'
import { DESTINATIONS, type DeliveryState, type StoredLead } from './lead-archive.ts'

const FORMULA_START = /^[=+\-@\t\r]/

export function csvCell(value: string, options: { lineBreaks?: boolean } = {}): string {
  const shown = escapeControls(value, options)
  const guarded = FORMULA_START.test(shown) ? `'${shown}` : shown
  return `"${guarded.replaceAll('"', '""')}"`
}

/** A record; the cells at `multiLine` positions keep their tabs and line breaks. */
function csvRow(cells: readonly string[], multiLine: ReadonlySet<number> = new Set()): string {
  return `${cells.map((cell, index) => csvCell(cell, { lineBreaks: multiLine.has(index) })).join(',')}\r\n`
}

const LEAD_CSV_HEADER = [
  'id',
  'received_at',
  'name',
  'email',
  'company',
  'team_size',
  'goal',
  'topic',
  'plan',
  'source_page',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'landing_page',
  'referrer_origin',
  'via_webmcp',
  'spam',
  ...DESTINATIONS.map((destination) => `${destination}_delivery`),
] as const

/** A delivery in a few words: `delivered 2026-…`, `pending (2 attempts, last HTTP 503)`, `failed (…)`. */
export function describeDelivery(state: DeliveryState | undefined): string {
  if (!state) return ''
  if (state.state === 'delivered') return `delivered ${state.deliveredAt?.toISOString() ?? ''}`.trim()
  const last = state.lastOutcome ? `, last ${state.lastOutcome}` : ''
  return `${state.state} (${state.attempts} attempt${state.attempts === 1 ? '' : 's'}${last})`
}

const GOAL_COLUMN = new Set([LEAD_CSV_HEADER.indexOf('goal')])

/**
 * Where a lead came from in a few words, or null when nothing is known: `campaign spring (newsletter /
 * email) · landed on /pricing · referred by https://news.example · filled by the browser's agent`.
 */
export function describeAttribution(attribution: LeadAttribution): string | null {
  const { utmSource, utmMedium, utmCampaign, utmTerm, utmContent } = attribution
  const via = [utmSource, utmMedium, utmTerm, utmContent].filter((value) => value !== null).join(' / ')
  const parts = [
    utmCampaign !== null || via ? `campaign ${utmCampaign ?? '(unnamed)'}${via ? ` (${via})` : ''}` : null,
    attribution.landingPage !== null ? `landed on ${attribution.landingPage}` : null,
    attribution.referrerOrigin !== null ? `referred by ${attribution.referrerOrigin}` : null,
    attribution.viaWebMcp ? "filled by the browser's agent" : null,
  ].filter((part) => part !== null)
  return parts.length > 0 ? parts.join(' · ') : null
}

export function leadsCsv(leads: readonly StoredLead[]): string {
  let csv = csvRow(LEAD_CSV_HEADER)
  for (const lead of leads) {
    const { fields } = lead
    csv += csvRow(
      [
        lead.id,
        lead.receivedAt.toISOString(),
        fields.name,
        fields.email,
        fields.company,
        fields.teamSize,
        fields.goal,
        fields.topic,
        fields.plan ?? '',
        lead.sourcePage,
        lead.attribution.utmSource ?? '',
        lead.attribution.utmMedium ?? '',
        lead.attribution.utmCampaign ?? '',
        lead.attribution.utmTerm ?? '',
        lead.attribution.utmContent ?? '',
        lead.attribution.landingPage ?? '',
        lead.attribution.referrerOrigin ?? '',
        lead.attribution.viaWebMcp ? 'yes' : 'no',
        lead.spamReason ?? 'no',
        ...DESTINATIONS.map((destination) => describeDelivery(lead.deliveries[destination])),
      ],
      GOAL_COLUMN,
    )
  }
  return csv
}
