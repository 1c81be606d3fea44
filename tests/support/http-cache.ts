/**
 * A small HTTP cache that follows RFC 9111 closely enough to replay what a CDN, a proxy or a browser
 * would do with a response: storing (§3), the Vary secondary key (§4.1), freshness (§4.2) and
 * validation (§4.3). `shared` plays a CDN or proxy; `honorVary: false` plays a non-conforming cache
 * that keys on the URL alone (several CDNs do this for HTML).
 */

export interface HttpCacheOptions {
  shared: boolean
  honorVary: boolean
}

export type Origin = (path: string, headers: Record<string, string>) => Promise<Response>

export interface CacheAnswer {
  status: number
  headers: Headers
  body: string
  /** `hit`: served from storage without asking the origin; `revalidated`: origin answered 304. */
  source: 'origin' | 'hit' | 'revalidated'
}

interface StoredEntry {
  requestHeaders: Headers
  status: number
  headers: Headers
  body: string
  storedAt: number
}

const HEURISTICALLY_CACHEABLE = new Set([200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501])

function parseCacheControl(value: string | null): Map<string, string | true> {
  const directives = new Map<string, string | true>()
  for (const part of (value ?? '').split(',')) {
    const [rawName, ...rest] = part.split('=')
    const name = rawName?.trim().toLowerCase()
    if (!name) continue
    directives.set(name, rest.length ? rest.join('=').trim().replace(/^"|"$/g, '') : true)
  }
  return directives
}

function fieldList(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean)
}

/** §4.1: combined field values, whitespace-normalized. */
function normalizedField(headers: Headers, name: string): string {
  return (headers.get(name) ?? '')
    .split(',')
    .map((item) => item.trim())
    .join(',')
}

export class HttpCache {
  readonly options: HttpCacheOptions
  private readonly origin: Origin
  private readonly entries = new Map<string, StoredEntry[]>()
  /** Seconds on the cache's clock; tests move it forward. */
  now = 0

  constructor(origin: Origin, options: HttpCacheOptions) {
    this.origin = origin
    this.options = options
  }

  get storedCount(): number {
    let count = 0
    for (const list of this.entries.values()) count += list.length
    return count
  }

  async get(path: string, requestHeaders: Record<string, string> = {}): Promise<CacheAnswer> {
    const request = new Headers(requestHeaders)
    const entry = this.select(path, request)
    if (entry) {
      if (this.isFresh(entry) && !parseCacheControl(entry.headers.get('cache-control')).has('no-cache')) {
        return { status: entry.status, headers: entry.headers, body: entry.body, source: 'hit' }
      }
      const etag = entry.headers.get('etag')
      if (etag) {
        // §4.3.1: the stored response's validator, with the *new* request's other header fields.
        const response = await this.origin(path, { ...requestHeaders, 'if-none-match': etag })
        if (response.status === 304) {
          // §4.3.4: freshen the stored response with the 304's header fields.
          for (const [name, value] of response.headers) entry.headers.set(name, value)
          entry.storedAt = this.now
          return { status: entry.status, headers: entry.headers, body: entry.body, source: 'revalidated' }
        }
        return this.storeAndAnswer(path, request, response)
      }
    }
    return this.storeAndAnswer(path, request, await this.origin(path, requestHeaders))
  }

  /** §4.1: a stored response is selected only when every field its Vary names matches the request. */
  private select(path: string, request: Headers): StoredEntry | undefined {
    for (const entry of this.entries.get(path) ?? []) {
      if (!this.options.honorVary) return entry
      const vary = fieldList(entry.headers.get('vary'))
      if (vary.includes('*')) continue
      if (vary.every((name) => normalizedField(entry.requestHeaders, name) === normalizedField(request, name))) return entry
    }
    return undefined
  }

  /** §3: may this cache store the response at all? */
  canStore(status: number, headers: Headers): boolean {
    const cc = parseCacheControl(headers.get('cache-control'))
    if (cc.has('no-store')) return false
    if (this.options.shared && cc.has('private')) return false
    if (this.options.shared && headers.has('set-cookie') && !cc.has('public')) return false
    return (
      cc.has('public') ||
      cc.has('max-age') ||
      (this.options.shared && cc.has('s-maxage')) ||
      headers.has('expires') ||
      cc.has('no-cache') ||
      HEURISTICALLY_CACHEABLE.has(status)
    )
  }

  /** §4.2.1 freshness lifetime; heuristic (§4.2.2) is 10 % of the Last-Modified age, else 0. */
  private freshnessLifetime(entry: StoredEntry): number {
    const cc = parseCacheControl(entry.headers.get('cache-control'))
    const sMaxAge = cc.get('s-maxage')
    if (this.options.shared && typeof sMaxAge === 'string') return Number(sMaxAge)
    const maxAge = cc.get('max-age')
    if (typeof maxAge === 'string') return Number(maxAge)
    const expires = entry.headers.get('expires')
    const date = entry.headers.get('date')
    if (expires && date) return Math.max(0, (Date.parse(expires) - Date.parse(date)) / 1000)
    const lastModified = entry.headers.get('last-modified')
    if (lastModified && date) return Math.max(0, (Date.parse(date) - Date.parse(lastModified)) / 10_000)
    return 0
  }

  private isFresh(entry: StoredEntry): boolean {
    return this.now - entry.storedAt < this.freshnessLifetime(entry)
  }

  private async storeAndAnswer(path: string, request: Headers, response: Response): Promise<CacheAnswer> {
    const body = await response.text()
    const headers = new Headers(response.headers)
    if (response.status !== 304 && this.canStore(response.status, headers)) {
      const entry: StoredEntry = { requestHeaders: request, status: response.status, headers, body, storedAt: this.now }
      const replaced = this.select(path, request)
      const others = (this.entries.get(path) ?? []).filter((existing) => existing !== replaced)
      this.entries.set(path, [entry, ...others])
    }
    return { status: response.status, headers, body, source: 'origin' }
  }
}
