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

/**
 * The same email (whatever its case) with the same message is the same lead. Suspected spam has keys
 * of its own: a person's lead is never taken for a repeat of spam, nor spam for a repeat of a lead.
 */
export function duplicateKey(fields: Pick<LeadFields, 'email' | 'goal'>, spam: boolean): string {
  const key = createHash('sha256').update(`${fields.email.trim().toLowerCase()}\n${fields.goal.trim()}`).digest('base64url')
  return spam ? `spam:${key}` : key
}

/** A fencing token: the claim of one attempt. */
export function newLeaseToken(): string {
  return randomBytes(12).toString('base64url')
}

/** A new salt for address hashes. */
export function newAddressSalt(): string {
  return randomBytes(32).toString('hex')
}
