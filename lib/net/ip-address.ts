/**
 * IP address text → canonical form, CIDR ranges and the quota bucket of an address. IPv4-mapped IPv6
 * addresses count as IPv4; IPv6 clients share one bucket per /64. Parsing never throws: bad text is `null`.
 */
import { isIPv4, isIPv6 } from 'node:net'

export type IpAddress = { version: 4; value: number } | { version: 6; words: readonly number[] }

export interface CidrRange {
  version: 4 | 6
  /** IPv4: the network as uint32; IPv6: eight 16-bit words. */
  network: number | readonly number[]
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

function parseIPv4Value(text: string): number {
  const parts = text.split('.')
  return ((Number(parts[0]) << 24) | (Number(parts[1]) << 16) | (Number(parts[2]) << 8) | Number(parts[3])) >>> 0
}

function parseIPv6Words(text: string): number[] {
  let value = text
  // Embedded IPv4 in the last 32 bits (e.g. ::ffff:192.0.2.1) becomes two hex words.
  if (value.includes('.')) {
    const lastColon = value.lastIndexOf(':')
    const v4 = parseIPv4Value(value.slice(lastColon + 1))
    value = `${value.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
  }
  const doubleColon = value.indexOf('::')
  if (doubleColon < 0) return value.split(':').map((word) => parseInt(word, 16))
  const left = value
    .slice(0, doubleColon)
    .split(':')
    .filter(Boolean)
    .map((word) => parseInt(word, 16))
  const right = value
    .slice(doubleColon + 2)
    .split(':')
    .filter(Boolean)
    .map((word) => parseInt(word, 16))
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right]
}

/** Parses one address (IPv4 or IPv6, optionally bracketed, with a port or zone); `null` when it is not one. */
export function parseIpAddress(text: string): IpAddress | null {
  const value = stripDecorations(text)
  if (isIPv4(value)) return { version: 4, value: parseIPv4Value(value) }
  if (!isIPv6(value)) return null
  const words = parseIPv6Words(value)
  if (words.length !== 8) return null
  // IPv4-mapped (::ffff:a.b.c.d) is the IPv4 client itself.
  if (words[0] === 0 && words[1] === 0 && words[2] === 0 && words[3] === 0 && words[4] === 0 && words[5] === 0xffff) {
    return { version: 4, value: (((words[6] as number) << 16) | (words[7] as number)) >>> 0 }
  }
  return { version: 6, words }
}

function formatIPv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 0xff}.${(value >>> 8) & 0xff}.${value & 0xff}`
}

/** RFC 5952 text: lower case, no leading zeros, the longest run (≥ 2) of zero words as `::`. */
function formatIPv6(words: readonly number[]): string {
  let bestStart = -1
  let bestLength = 1
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && words[j] === 0) j++
    if (j - i > bestLength) {
      bestStart = i
      bestLength = j - i
    }
    i = j
  }
  const hex = words.map((w) => w.toString(16))
  if (bestStart < 0) return hex.join(':')
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`
}

export function formatIpAddress(address: IpAddress): string {
  return address.version === 4 ? formatIPv4(address.value) : formatIPv6(address.words)
}

/** The canonical text of an address, or `null` when the text is not an address. */
export function canonicalIpAddress(text: string): string | null {
  const address = parseIpAddress(text)
  return address ? formatIpAddress(address) : null
}

/** `10.0.0.0/8`, `2001:db8::/32`, or a single address (a /32 or /128). `null` when invalid. */
export function parseCidr(text: string): CidrRange | null {
  const trimmed = text.trim()
  const slash = trimmed.indexOf('/')
  const addressText = slash < 0 ? trimmed : trimmed.slice(0, slash)
  const bitsText = slash < 0 ? null : trimmed.slice(slash + 1)
  if (addressText.startsWith('[') || addressText.includes('%')) return null
  const address = parseIpAddress(addressText)
  if (!address) return null
  // An IPv4-mapped range written in IPv6 form (::ffff:10.0.0.0/104) is an IPv4 range.
  const mappedOffset = address.version === 4 && addressText.includes(':') ? 96 : 0
  const maxBits = address.version === 4 ? 32 : 128
  let bits = maxBits
  if (bitsText !== null) {
    if (!/^\d{1,3}$/.test(bitsText)) return null
    bits = Number(bitsText) - mappedOffset
    if (bits < 0 || bits > maxBits) return null
  }
  if (address.version === 4) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0
    const network = (address.value & mask) >>> 0
    return { version: 4, network, bits, text: `${formatIPv4(network)}/${bits}` }
  }
  const network = address.words.map((word, index) => word & wordMask(bits, index))
  return { version: 6, network, bits, text: `${formatIPv6(network)}/${bits}` }
}

function wordMask(bits: number, index: number): number {
  const covered = bits - index * 16
  if (covered >= 16) return 0xffff
  if (covered <= 0) return 0
  return (0xffff << (16 - covered)) & 0xffff
}

export function cidrContains(range: CidrRange, address: IpAddress): boolean {
  if (range.version !== address.version) return false
  if (address.version === 4) {
    const mask = range.bits === 0 ? 0 : (0xffffffff << (32 - range.bits)) >>> 0
    return (address.value & mask) >>> 0 === range.network
  }
  const network = range.network as readonly number[]
  for (let i = 0; i < 8; i++) {
    if (((address.words[i] as number) & wordMask(range.bits, i)) !== network[i]) return false
  }
  return true
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
  if (address.version === 4) return formatIPv4(address.value)
  const w = address.words
  return `${formatIPv6([w[0] as number, w[1] as number, w[2] as number, w[3] as number, 0, 0, 0, 0])}/64`
}

export const UNKNOWN_CLIENT = 'unknown'
