/**
 * Who the client is, for quotas. Self-hosted (`npm start`), the custom server derives the address from
 * the TCP peer (trusting `X-Forwarded-For` only from `TRUST_PROXY` peers) and overwrites the forwarding
 * headers, so handlers read one header they can trust; on Vercel the platform sets that header.
 */
import { isIPv4 } from 'node:net'
import type { AgentRequest } from './http/agent-request.ts'
import { cidrContains, formatIpAddress, parseCidr, parseIpAddress, type CidrRange, type IpAddress, UNKNOWN_CLIENT } from './net/ip-address.ts'

/** The header handlers read: `X-Real-IP` (Vercel sets it; `npm start` overwrites it). */
export const CLIENT_ADDRESS_HEADER = 'x-real-ip'
export const FORWARDED_FOR_HEADER = 'x-forwarded-for'

/** Parses `TRUST_PROXY` entries (addresses or CIDR ranges); returns the invalid entries separately. */
export function parseTrustedProxies(entries: readonly string[]): { ranges: CidrRange[]; invalid: string[] } {
  const ranges: CidrRange[] = []
  const invalid: string[] = []
  for (const entry of entries) {
    const range = parseCidr(entry)
    if (range) ranges.push(range)
    else invalid.push(entry)
  }
  return { ranges, invalid }
}

export type ClientAddressResolver = (peer: string | undefined, forwardedFor: string | readonly string[] | undefined) => string

/**
 * The client of a connection: the TCP peer, unless the peer is a trusted proxy; then the right-most
 * `X-Forwarded-For` entry that is not a trusted proxy (every hop to its right was added by a proxy we
 * trust). When every entry is trusted, the left-most one. An entry that is not an address ends the walk
 * at the last valid hop. The answer is canonical text, or `unknown` when the peer itself is unknown.
 */
export function createClientAddressResolver(trustProxy: readonly string[]): ClientAddressResolver {
  const { ranges, invalid } = parseTrustedProxies(trustProxy)
  if (invalid.length > 0) throw new Error(`TRUST_PROXY: not an IP address or CIDR range: ${invalid.join(', ')}`)
  const isTrusted = (address: IpAddress) => ranges.some((range) => cidrContains(range, address))

  return (peer, forwardedFor) => {
    // The usual socket without TRUST_PROXY: a dotted quad (net.isIPv4 takes no other form) is already canonical.
    if (ranges.length === 0 && peer && isIPv4(peer)) return peer
    const peerAddress = peer ? parseIpAddress(peer) : null
    if (!peerAddress) return UNKNOWN_CLIENT
    if (ranges.length === 0 || !isTrusted(peerAddress)) return formatIpAddress(peerAddress)
    const chain = typeof forwardedFor === 'string' ? forwardedFor : forwardedFor?.join(',')
    if (!chain) return formatIpAddress(peerAddress)
    const hops = chain.split(',')
    let client = peerAddress
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = parseIpAddress(hops[i] as string)
      if (!hop) break
      client = hop
      if (!isTrusted(hop)) break
    }
    return formatIpAddress(client)
  }
}

/** The parts of a Node `IncomingMessage` whose client headers the custom server overwrites. */
export interface MutableRequestHeaders {
  headers: Record<string, string | string[] | undefined>
  rawHeaders: string[]
}

/**
 * Replaces every `X-Forwarded-For` / `X-Real-IP` the client sent with the resolved address, in both
 * `headers` and `rawHeaders` (code that rebuilds a request from `rawHeaders` must not see the originals).
 */
export function overwriteClientAddressHeaders(request: MutableRequestHeaders, address: string): void {
  request.headers[FORWARDED_FOR_HEADER] = address
  request.headers[CLIENT_ADDRESS_HEADER] = address
  const raw = request.rawHeaders
  const rewritten: string[] = []
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase()
    if (name === FORWARDED_FOR_HEADER || name === CLIENT_ADDRESS_HEADER) continue
    rewritten.push(raw[i] as string, raw[i + 1] as string)
  }
  rewritten.push('X-Forwarded-For', address, 'X-Real-IP', address)
  request.rawHeaders = rewritten
}

const RESOLVED_MARK = Symbol.for('cadence.client-address-resolved-by-server')

/** Called by the custom server (scripts/start.ts): every request's client header was written from the socket. */
export function markClientAddressResolvedByServer(): void {
  ;(globalThis as Record<symbol, unknown>)[RESOLVED_MARK] = true
}

export function isClientAddressResolvedByServer(): boolean {
  return (globalThis as Record<symbol, unknown>)[RESOLVED_MARK] === true
}

export type ClientAddressSource = 'server' | 'vercel' | 'unverified'

/**
 * The client address text of a request, as the deployment delivers it. `unverified` (plain `next start`
 * or `next dev`): Next sets X-Forwarded-For from the socket only when the client sent none, so these
 * headers are the client's to choose; the last hop is taken, and a warning at start says so.
 */
export function readClientAddress(request: AgentRequest, source: ClientAddressSource): string | null {
  const realIp = request.headers.get(CLIENT_ADDRESS_HEADER)
  if (source === 'server') return realIp
  const forwardedFor = request.headers.get(FORWARDED_FOR_HEADER)
  if (source === 'vercel') return realIp ?? firstHop(forwardedFor)
  return lastHop(forwardedFor) ?? realIp
}

function firstHop(chain: string | null): string | null {
  if (!chain) return null
  const comma = chain.indexOf(',')
  return (comma < 0 ? chain : chain.slice(0, comma)).trim() || null
}

function lastHop(chain: string | null): string | null {
  if (!chain) return null
  return chain.slice(chain.lastIndexOf(',') + 1).trim() || null
}
