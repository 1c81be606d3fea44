/** What both stores derive from a lead the same way: its id and its duplicate key. */
import { createHash, randomBytes } from 'node:crypto'
import type { LeadFields } from './lead.ts'

/**
 * `lead_` + the time in base 36 (so ids sort by arrival) + 16 random hex digits. It is the
 * `webhook-id` of every delivery of the lead, by which receivers drop a repeated delivery.
 */
export function newLeadId(receivedAt: Date): string {
  return `lead_${receivedAt.getTime().toString(36).padStart(9, '0')}${randomBytes(8).toString('hex')}`
}

/** The same email (whatever its case) with the same message is the same lead. */
export function duplicateKey(fields: LeadFields): string {
  return createHash('sha256').update(`${fields.email.trim().toLowerCase()}\n${fields.goal.trim()}`).digest('base64url')
}
