/**
 * Whether a request carries Web Bot Auth headers at all: the one check an unsigned request pays. The
 * verifier itself (./web-bot-auth.ts, with its Structured Fields parser) is loaded by the first
 * request that has one (lib/on-demand.ts).
 */

export function hasSignatureHeaders(header: (name: string) => string | null | undefined): boolean {
  return header('signature-input') != null || header('signature') != null || header('signature-agent') != null
}
