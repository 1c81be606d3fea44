/**
 * IP address text → canonical form, CIDR ranges and the quota bucket of an address, on ipaddr.js
 * (parsing, IPv4-mapped IPv6, range matching, RFC 5952 text). Node's `net.isIP` decides what is an
 * address first: ipaddr.js alone would also take the legacy IPv4 forms (`127.1`, `0x7f.0.0.1`, octal)
 * that no proxy writes. IPv4-mapped IPv6 addresses count as IPv4; IPv6 clients share one bucket per
 * /64. Parsing never throws: bad text is `null`.
 */
import ipaddr from 'ipaddr.js'
import { isIP, isIPv4 } from 'node:net'

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6

export interface CidrRange {
  network: IpAddress
  bits: number
  text: string
}

/** Strips what may surround an address in a header: spaces, brackets, a port, an IPv6 zone. */
function stripDecorations(text: string): string {
  let value = text.trim()
  if (value.startsWith('[')) {
    const end = value.indexOf(']')
    if (end < 0) return ''
    value = value.slice(1, end)
  } else if (value.indexOf(':') > 0 && value.indexOf(':') === value.lastIndexOf(':') && value.includes('.')) {
    // IPv4 with a port, e.g. 203.0.113.5:4711
    value = value.slice(0, value.indexOf(':'))
  }
  const zone = value.indexOf('%')
  if (zone >= 0) value = value.slice(0, zone)
  return value
}

/** Text that `net.isIP` accepted, as written (an IPv4-mapped address stays IPv6). */
function parseValid(value: string, version: number): IpAddress {
  // The parser of the known family: ipaddr.parse/process would validate the text once more first (4× the time).
  return version === 4 ? ipaddr.IPv4.parse(value) : ipaddr.IPv6.parse(value)
}

/** Parses one address (IPv4 or IPv6, optionally bracketed, with a port or zone); `null` when it is not one. */
export function parseIpAddress(text: string): IpAddress | null {
  const value = stripDecorations(text)
  const version = isIP(value)
  if (version === 0) return null
  const address = parseValid(value, version)
  // An IPv4-mapped address (::ffff:a.b.c.d) is the IPv4 client itself.
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address
}

/** Canonical text: dotted quad, or RFC 5952 (lower case, no leading zeros, the longest zero run as `::`). */
export function formatIpAddress(address: IpAddress): string {
  return address.kind() === 'ipv4' ? address.toString() : (address as ipaddr.IPv6).toRFC5952String()
}

/** The canonical text of an address, or `null` when the text is not an address. */
export function canonicalIpAddress(text: string): string | null {
  const address = parseIpAddress(text)
  return address ? formatIpAddress(address) : null
}

/** The first `bits` bits of an address, the rest zero. */
function networkOf(address: IpAddress, bits: number): IpAddress {
  const bytes = address.toByteArray().map((byte, index) => {
    const covered = bits - index * 8
    return covered >= 8 ? byte : covered <= 0 ? 0 : byte & (0xff << (8 - covered))
  })
  return ipaddr.fromByteArray(bytes)
}

/** `10.0.0.0/8`, `2001:db8::/32`, or a single address (a /32 or /128). `null` when invalid. */
export function parseCidr(text: string): CidrRange | null {
  const trimmed = text.trim()
  const slash = trimmed.indexOf('/')
  const addressText = slash < 0 ? trimmed : trimmed.slice(0, slash)
  const bitsText = slash < 0 ? null : trimmed.slice(slash + 1)
  const version = isIP(addressText)
  if (version === 0) return null
  const written = parseValid(addressText, version)
  let bits = written.kind() === 'ipv4' ? 32 : 128
  if (bitsText !== null) {
    if (!/^\d{1,3}$/.test(bitsText)) return null
    bits = Number(bitsText)
    if (bits > (written.kind() === 'ipv4' ? 32 : 128)) return null
  }
  let address: IpAddress = written
  // An IPv4-mapped range written in IPv6 form (::ffff:10.0.0.0/104) is an IPv4 range.
  if (written.kind() === 'ipv6' && (written as ipaddr.IPv6).isIPv4MappedAddress()) {
    bits -= 96
    if (bits < 0) return null
    address = (written as ipaddr.IPv6).toIPv4Address()
  }
  const network = networkOf(address, bits)
  return { network, bits, text: `${formatIpAddress(network)}/${bits}` }
}

export function cidrContains(range: CidrRange, address: IpAddress): boolean {
  return address.kind() === range.network.kind() && address.match(range.network, range.bits)
}

/**
 * The quota bucket of a client address: the IPv4 address itself, or the /64 network of an IPv6
 * address (one subscriber usually holds a whole /64). Unparseable text shares the bucket `unknown`.
 */
export function quotaBucketKey(addressText: string | null | undefined): string {
  if (!addressText) return UNKNOWN_CLIENT
  // Fast path: the custom server and Vercel both hand over a plain canonical IPv4 address.
  if (isIPv4(addressText)) return addressText
  const address = parseIpAddress(addressText)
  if (!address) return UNKNOWN_CLIENT
  if (address.kind() === 'ipv4') return address.toString()
  return `${formatIpAddress(networkOf(address, 64))}/64`
}

export const UNKNOWN_CLIENT = 'unknown'
