/**
 * Leads as CSV (RFC 4180: every cell quoted, quotes doubled, CRLF between records) for a spreadsheet.
 * A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a formula by
 * Excel, Sheets or LibreOffice (formula injection: a "name" that runs `=HYPERLINK(…)`), so it gets a
 * leading `'`, which spreadsheets show as text and hide. Everything else is exported exactly as stored.
 */
import { DESTINATIONS, type DeliveryState, type StoredLead } from './lead-archive.ts'

const FORMULA_START = /^[=+\-@\t\r]/

export function csvCell(value: string): string {
  const guarded = FORMULA_START.test(value) ? `'${value}` : value
  return `"${guarded.replaceAll('"', '""')}"`
}

export function csvRow(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`
}

export const LEAD_CSV_HEADER = [
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

export function leadsCsv(leads: readonly StoredLead[]): string {
  let csv = csvRow(LEAD_CSV_HEADER)
  for (const lead of leads) {
    const { fields } = lead
    csv += csvRow([
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
      lead.spam ? 'yes' : 'no',
      ...DESTINATIONS.map((destination) => describeDelivery(lead.deliveries[destination])),
    ])
  }
  return csv
}
