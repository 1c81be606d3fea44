/**
 * Who the client is, for quotas. Self-hosted (`npm start`), the custom server derives the address from
 * the TCP peer (trusting `X-Forwarded-For` only from `TRUST_PROXY` peers) and hands it to the handlers
 * on the request value itself, so no header a client sent can stand in for it; on Vercel the platform
 * sets the header handlers read.
 */
import { isIPv4 } from 'node:net'
import type { AgentRequest } from './http/agent-request.ts'
import { processSingleton } from './process-singleton.ts'
import { cidrContains, formatIpAddress, parseCidr, parseIpAddress, type CidrRange, type IpAddress, UNKNOWN_CLIENT } from './net/ip-address.ts'

/** The header handlers read on Vercel: `X-Real-IP` (the platform sets it). */
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

/** Where a web request's address comes from: Vercel's headers, or headers anyone could have sent (`next start`). */
export type ForwardedAddressSource = 'vercel' | 'unverified'

/** Decided by the deployment: on Vercel the platform sets the headers; anywhere else a client may. */
export function forwardedAddressSource(config: { onVercel: boolean }): ForwardedAddressSource {
  return config.onVercel ? 'vercel' : 'unverified'
}

/** `npm start` says so before Next's own server registers: its addresses come from the socket. */
export function markAddressesFromSocket(): void {
  processSingleton('client-addresses-from-socket', () => true)
}

/**
 * The start's warning of a server that reads client addresses from headers a client may write:
 * plain `next start` outside Vercel (not `npm start`, not `next dev`), where the agent quota and the
 * contact form's limit per client can both be dodged with a forged `X-Forwarded-For`.
 */
export function forgeableAddressWarning(config: { onVercel: boolean }, development: boolean): string | null {
  if (forwardedAddressSource(config) === 'vercel' || development) return null
  if (processSingleton('client-addresses-from-socket', () => false)) return null
  return (
    '[quota] [leads] Warning: not started through `npm start`: client addresses come from the X-Forwarded-For header, which a ' +
    "client can write itself, so the agent quota and the contact form's limit per client trust it. Use npm start (it reads " +
    'the socket, and TRUST_PROXY for a reverse proxy), or run behind a proxy that sets X-Forwarded-For.'
  )
}

/**
 * The client address text of a request, as the deployment delivers it: the address `npm start` resolved
 * and put on its plain request; else, from a web request's headers, `vercel`'s (the platform sets
 * them) or `unverified` ones (plain `next start` or `next dev`: Next sets X-Forwarded-For from the
 * socket only when the client sent none, so these headers are the client's to choose; the last hop is
 * taken, and a warning says so).
 */
export function readClientAddress(request: AgentRequest, source: ForwardedAddressSource): string | null {
  if (!(request instanceof Request)) return request.clientAddress
  const realIp = request.headers.get(CLIENT_ADDRESS_HEADER)
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
