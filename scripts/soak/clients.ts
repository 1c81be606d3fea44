/**
 * Simulated clients: a seeded random source and distinct addresses sent as `X-Forwarded-For` by the
 * trusted loopback proxy — header text only, never connected to: IPv4 from 198.18.0.0/15 (RFC 2544,
 * benchmarking), IPv6 from 2001:db8::/32 (documentation), each IPv6 client in its own /64.
 */

export type Random = () => number

/** mulberry32: small, fast, reproducible from SOAK_SEED. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
export const integer = (random: Random, min: number, max: number): number => min + Math.floor(random() * (max - min + 1))

/** The i-th IPv4 client: 198.18.0.0 + i (i < 131 072). */
export function ipv4Client(index: number): string {
  const value = (198 << 24) + (18 << 16) + index
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.')
}

/** The i-th IPv6 client: its own /64 under 2001:db8::/32, with an interface id of its own. */
export function ipv6Client(index: number, interfaceId = 1 + (index % 7)): string {
  return `2001:db8:${(index >>> 16).toString(16)}:${(index & 0xffff).toString(16)}::${interfaceId.toString(16)}`
}

/**
 * A client's X-Forwarded-For value, in one of the forms a proxy chain produces: the bare address, a
 * spoofed left-most hop before it (ignored: only the hop the trusted proxy appended counts), an IPv4
 * with a port, a bracketed IPv6 with a port.
 */
export function forwardedForm(random: Random, address: string): string {
  const form = random()
  if (form < 0.6) return address
  if (form < 0.8) return `203.0.113.${integer(random, 1, 254)}, ${address}`
  return `${address.includes(':') ? `[${address}]` : address}:${integer(random, 1024, 65535)}`
}

/** `count` clients, a quarter of them IPv6; `forwardedFor`: a random one's X-Forwarded-For value. */
export function clientPool(count: number) {
  const addresses = Array.from({ length: count }, (_, i) => (i % 4 === 3 ? ipv6Client(i) : ipv4Client(i)))
  return { addresses, ipv6: Math.floor(count / 4), forwardedFor: (random: Random) => forwardedForm(random, pick(random, addresses)) }
}
export type ClientPool = ReturnType<typeof clientPool>
