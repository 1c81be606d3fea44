/**
 * The build's prerendered output as `npm start` serves it, the way a CDN serves Vercel's: every
 * prerendered page, Markdown twin, document and problem page is read once at start from `.next`
 * (the prerender manifest lists them, so nothing here repeats app/'s routes), given the headers Next
 * and Vercel send for it, compressed once, and answered from memory with ETag/304 and HEAD.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { chooseEncoding, encodeBody, varyOnEncoding, type EncodedBodies } from '../http/compression.ts'
import { ifNoneMatchMatches } from '../http/conditional.ts'
import { CACHE_CONTROL, CONTENT_TYPES, READ_METHODS, type HeaderList } from '../http/headers.ts'
import { PAGE_SECURITY_HEADERS, pageContentSecurityPolicy } from '../http/security-headers.ts'
import { weakEtag } from '../http/static-response.ts'
import { isPagePath, negotiatedTwin } from '../pages/negotiation.ts'
import { pageHeaders } from '../pages/page-headers.ts'
import { NOT_FOUND_TWIN, pageAtPath, SITE_PAGES, twinRoutePath } from '../pages/site-pages.ts'
import type { Site } from '../site.ts'

export interface StaticEntry {
  status: number
  /** Every header but Content-Length and Content-Encoding, with `Vary: Accept-Encoding` when compressed. */
  headers: HeaderList
  etag: string | null
  identity: Buffer
  encoded: EncodedBodies | null
}

interface PrerenderManifest {
  routes: Record<string, unknown>
}

interface RouteMeta {
  status?: number
  headers?: Record<string, string | string[]>
}

/** Where Next prerenders app/not-found.tsx, the HTML answer for paths that name nothing. */
const NOT_FOUND_ROUTE = '/_not-found'

/** Next's own bookkeeping headers of a prerendered entry, which Vercel does not send either. */
const NEXT_INTERNAL_HEADER = /^x-next(?:js)?-/

function readEntry(appDir: string, route: string, site: Site): StaticEntry | null {
  const base = path.join(appDir, route === '/' ? 'index' : route.slice(1))
  let meta: RouteMeta
  try {
    meta = JSON.parse(readFileSync(`${base}.meta`, 'utf8')) as RouteMeta
  } catch {
    return null
  }
  const page = pageAtPath(route)
  let body: Buffer
  let headers: Array<[string, string]>
  if (page || route === NOT_FOUND_ROUTE) {
    body = readFileSync(`${base}.html`)
    const shared: HeaderList = [
      ...(page ? pageHeaders(site, page.key) : [['Cache-Control', CACHE_CONTROL.notFound] as const]),
      ...PAGE_SECURITY_HEADERS,
      ['Content-Security-Policy', pageContentSecurityPolicy(body.toString('utf8'), site.config.baseUrl)],
    ]
    headers = [['Content-Type', CONTENT_TYPES.html], ...shared.map(([name, value]): [string, string] => [name, value]), ['ETag', weakEtag(body)]]
  } else {
    try {
      body = readFileSync(`${base}.body`)
    } catch {
      return null
    }
    headers = Object.entries(meta.headers ?? {})
      .filter(([name]) => !NEXT_INTERNAL_HEADER.test(name))
      .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((item): [string, string] => [name, item]))
  }
  return compressed(route === NOT_FOUND_ROUTE ? 404 : (meta.status ?? 200), headers, body)
}

function compressed(status: number, headers: Array<[string, string]>, identity: Buffer): StaticEntry {
  const etag = headers.find(([name]) => name.toLowerCase() === 'etag')?.[1] ?? null
  const encoded = encodeBody(identity)
  if (!encoded) return { status, headers, etag, identity, encoded }
  const vary = headers.find(([name]) => name.toLowerCase() === 'vary')
  const withVary: Array<[string, string]> = vary
    ? headers.map(([name, value]) => (name === vary[0] ? [name, varyOnEncoding(value)] : [name, value]))
    : [...headers, ['Vary', varyOnEncoding(null)]]
  return { status, headers: withVary, etag, identity, encoded }
}

export class StaticOutput {
  private readonly entries: Map<string, StaticEntry>
  /** `/pricing.md` → the twin route: the same rewrites next.config.ts declares. */
  private readonly markdownPaths: Map<string, string>

  constructor(entries: Map<string, StaticEntry>) {
    this.entries = entries
    this.markdownPaths = new Map(SITE_PAGES.map((page) => [page.markdownPath, twinRoutePath(page.key)]))
  }

  /** Every prerendered route of the build at `distDir`. */
  static load(distDir: string, site: Site): StaticOutput {
    const manifest = JSON.parse(readFileSync(path.join(distDir, 'prerender-manifest.json'), 'utf8')) as PrerenderManifest
    const appDir = path.join(distDir, 'server', 'app')
    const entries = new Map<string, StaticEntry>()
    for (const route of Object.keys(manifest.routes)) {
      const entry = readEntry(appDir, route, site)
      if (entry) entries.set(route, entry)
    }
    return new StaticOutput(entries)
  }

  get paths(): string[] {
    return [...this.entries.keys()]
  }

  /**
   * The entry that answers a GET or HEAD of `pathname`: the page's twin when the request prefers
   * Markdown (as proxy.ts decides), a twin for its `.md` URL, the Markdown 404 for any other `.md`
   * URL that nothing serves, else the prerendered route at that path, the HTML 404 for a page path
   * that names no page, or null (Next answers: assets, the Flags Explorer).
   */
  match(pathname: string, accept: string | null): StaticEntry | null {
    const twin = negotiatedTwin(pathname, accept)
    if (twin) return this.entries.get(twinRoutePath(twin)) ?? null
    const direct = this.entries.get(this.markdownPaths.get(pathname) ?? pathname)
    if (direct) return direct
    if (pathname.endsWith('.md')) return this.entries.get(twinRoutePath(NOT_FOUND_TWIN)) ?? null
    return isPagePath(pathname) ? (this.entries.get(NOT_FOUND_ROUTE) ?? null) : null
  }
}

export interface StaticAnswer {
  status: number
  headers: HeaderList
  body: Uint8Array | null
}

/** The answer to a GET or HEAD for an entry: 304 when If-None-Match names it, else the (encoded) body. */
export function answerStatic(
  entry: StaticEntry,
  method: string,
  ifNoneMatch: string | null,
  acceptEncoding: string | null | undefined,
): StaticAnswer {
  if (entry.etag && entry.status === 200 && ifNoneMatchMatches(ifNoneMatch, entry.etag)) {
    return { status: 304, headers: entry.headers.filter(([name]) => name.toLowerCase() !== 'content-type'), body: null }
  }
  const encoding = entry.encoded ? chooseEncoding(acceptEncoding) : null
  const body = encoding && entry.encoded ? entry.encoded[encoding] : entry.identity
  const headers: HeaderList = [
    ...entry.headers,
    ...(encoding ? ([['Content-Encoding', encoding]] as const) : []),
    ['Content-Length', String(body.byteLength)],
  ]
  return { status: entry.status, headers, body: method === 'HEAD' ? null : body }
}

const METHOD_NOT_ALLOWED_BODY = Buffer.from('Method not allowed: this address answers GET and HEAD.\n')

/**
 * Any other method on a prerendered path: 405 with `Allow` (RFC 9110 §15.5.6). Next is not
 * consistent here (it answers some POSTs with the page, others with 405); npm start always refuses.
 */
export const METHOD_NOT_ALLOWED: StaticAnswer = {
  status: 405,
  headers: [
    ['Allow', READ_METHODS],
    ['Content-Type', CONTENT_TYPES.text],
    ['Content-Length', String(METHOD_NOT_ALLOWED_BODY.byteLength)],
  ],
  body: METHOD_NOT_ALLOWED_BODY,
}
