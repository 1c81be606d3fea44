/**
 * The build's prerendered output as `npm start` serves it, the way a CDN serves Vercel's: every
 * prerendered page, Markdown twin, document and problem page is read once at start from `.next`
 * (the prerender manifest lists them, so nothing here repeats app/'s routes), answered at its own
 * path and at the paths the build rewrites to it (the routes manifest's rewrites, ./rewrites.ts),
 * given the headers the build states for the URL (the routes manifest's header rules,
 * ./header-rules.ts, then the route's own headers from its `.meta`, as Next applies them), compressed
 * once when first asked for compressed, and answered from memory with ETag/304 and HEAD. Nothing here
 * knows what a page's headers are.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { bodyForClient, encodableBody, varyOnEncoding, type EncodableBody } from '../http/compression.ts'
import { ifNoneMatchMatches } from '../http/conditional.ts'
import { CONTENT_TYPES, READ_METHODS } from '../http/headers.ts'
import type { HeaderList } from '../http/header-list.ts'
import type { HttpAnswer } from '../http/http-answer.ts'
import { weakEtag } from '../http/static-response.ts'
import { negotiatedTwin } from '../pages/negotiation.ts'
import { isPagePath, NOT_FOUND_ROUTE } from '../routes/page-paths.ts'
import { NOT_FOUND_TWIN, SITE_PAGES, twinRoutePath } from '../routes/site-pages.ts'
import { HeaderRules, type RuleRequest } from './header-rules.ts'
import { Rewrites, type RewriteTarget } from './rewrites.ts'
import { readRoutesManifest, type RoutesManifest } from './routes-manifest.ts'

export interface StaticEntry {
  status: number
  /** Every header but Content-Length and Content-Encoding, with `Vary: Accept-Encoding` when compressible. */
  headers: HeaderList
  etag: string | null
  body: EncodableBody
}

/** A prerendered route's body, status and own headers, before the header rules of the URL it answers. */
export interface StaticBody {
  status: number
  headers: Array<[string, string]>
  body: EncodableBody
}

interface PrerenderManifest {
  routes: Record<string, unknown>
}

interface RouteMeta {
  status?: number
  headers?: Record<string, string | string[]>
}

/** Next's own bookkeeping headers of a prerendered entry, which Vercel does not send either. */
const NEXT_INTERNAL_HEADER = /^x-next(?:js)?-/

/**
 * A route handler's output is `<route>.body` with its headers in `.meta`; a page's is `<route>.html`,
 * sent as HTML with a validator of its bytes (Next and Vercel send their own).
 */
function readBody(appDir: string, route: string): StaticBody | null {
  const base = path.join(appDir, route === '/' ? 'index' : route.slice(1))
  let meta: RouteMeta
  try {
    meta = JSON.parse(readFileSync(`${base}.meta`, 'utf8')) as RouteMeta
  } catch {
    return null
  }
  const own = Object.entries(meta.headers ?? {})
    .filter(([name]) => !NEXT_INTERNAL_HEADER.test(name))
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((item): [string, string] => [name, item]))
  const routeBody = readIfExists(`${base}.body`)
  const html = routeBody ? null : readIfExists(`${base}.html`)
  const identity = routeBody ?? html
  if (!identity) return null
  const headers: Array<[string, string]> = html ? [['Content-Type', CONTENT_TYPES.html], ['ETag', weakEtag(html)], ...own] : own
  return { status: meta.status ?? 200, headers, body: encodableBody(identity) }
}

function readIfExists(file: string): Buffer | null {
  try {
    return readFileSync(file)
  } catch {
    return null
  }
}

/** The answer of a body at a URL: the URL's rule headers, then the body's own, which replace same-named ones. */
function entryAt(body: StaticBody, ruleHeaders: ReadonlyArray<[string, string]>): StaticEntry {
  const own = new Set(body.headers.map(([name]) => name.toLowerCase()))
  const headers: Array<[string, string]> = [...ruleHeaders.filter(([name]) => !own.has(name.toLowerCase())), ...body.headers]
  const etag = headers.find(([name]) => name.toLowerCase() === 'etag')?.[1] ?? null
  if (!body.body.compressible) return { status: body.status, headers, etag, body: body.body }
  const vary = headers.find(([name]) => name.toLowerCase() === 'vary')
  const withVary: Array<[string, string]> = vary
    ? headers.map(([name, value]) => (name === vary[0] ? [name, varyOnEncoding(value)] : [name, value]))
    : [...headers, ['Vary', varyOnEncoding(null)]]
  return { status: body.status, headers: withVary, etag, body: body.body }
}

/** Next keeps app/ folders whose name starts with `_` private: their output answers no URL of its own. */
const isPrivateRoute = (route: string) => route.startsWith('/_')

export class StaticOutput {
  /** Request path → the answer, for every URL known at start: the routes themselves and the paths rewritten to one. */
  private readonly byPath = new Map<string, StaticEntry>()
  /** A page path asked for as Markdown → its twin with the page path's rule headers, as proxy.ts rewrites it. */
  private readonly negotiated = new Map<string, StaticEntry>()
  private readonly notFoundHtml: StaticBody | null
  private readonly notFoundMarkdown: StaticBody | null
  private readonly bodies: Map<string, StaticBody>
  private readonly rules: HeaderRules
  private readonly rewrites: Rewrites

  /** `bodies`: route → its prerendered body; `manifest`: the build's header rules and rewrites. */
  constructor(bodies: Map<string, StaticBody>, manifest: Pick<RoutesManifest, 'caseSensitive' | 'headers' | 'rewrites'>) {
    this.bodies = bodies
    this.rules = new HeaderRules(manifest)
    this.rewrites = new Rewrites(manifest)
    this.notFoundHtml = bodies.get(NOT_FOUND_ROUTE) ?? null
    this.notFoundMarkdown = bodies.get(twinRoutePath(NOT_FOUND_TWIN)) ?? null
    for (const [route, body] of bodies) if (!isPrivateRoute(route)) this.precompute(this.byPath, route, body)
    // `/pricing.md` → the twin route. Next looks for a route at the path first, then rewrites.
    for (const [source, route] of this.rewrites.literal('afterFiles')) {
      const body = bodies.get(route)
      if (body && !this.byPath.has(source) && !bodies.has(source)) this.precompute(this.byPath, source, body)
    }
    for (const page of SITE_PAGES) {
      const twin = bodies.get(twinRoutePath(page.key))
      if (twin) this.precompute(this.negotiated, page.path, twin)
    }
  }

  private precompute(into: Map<string, StaticEntry>, pathname: string, body: StaticBody): void {
    const ruleHeaders = this.rules.forPath(pathname)
    // Headers that depend on the request are applied per request (see match).
    if (ruleHeaders) into.set(pathname, entryAt(body, ruleHeaders))
  }

  /** Every prerendered route of the build at `distDir`, with the build's header rules and rewrites. */
  static load(distDir: string): StaticOutput {
    const manifest = JSON.parse(readFileSync(path.join(distDir, 'prerender-manifest.json'), 'utf8')) as PrerenderManifest
    const appDir = path.join(distDir, 'server', 'app')
    const bodies = new Map<string, StaticBody>()
    for (const route of Object.keys(manifest.routes)) {
      const body = readBody(appDir, route)
      if (body) bodies.set(route, body)
    }
    return new StaticOutput(bodies, readRoutesManifest(distDir))
  }

  /**
   * The entry that answers a GET or HEAD of `pathname`: the page's twin when the request prefers
   * Markdown (as proxy.ts decides), else what Next would route to, in its order: a rewrite before the
   * routes, the prerendered route at that path, a rewrite after the routes (a page's `.md` URL → its
   * twin), a fallback rewrite (any other `.md` URL → the Markdown 404), the HTML 404 for a page path
   * that names no page; or null (Next answers: assets, the Flags Explorer, rewrites npm start leaves
   * to Next).
   */
  match(pathname: string, request: RuleRequest): StaticEntry | null {
    const accept = request.headers.accept
    const twin = negotiatedTwin(pathname, Array.isArray(accept) ? accept.join(', ') : (accept ?? null))
    if (twin) {
      return twin === NOT_FOUND_TWIN
        ? this.answerAt(pathname, this.notFoundMarkdown, request)
        : (this.negotiated.get(pathname) ?? this.answerAt(pathname, this.bodies.get(twinRoutePath(twin)) ?? null, request))
    }
    if (this.rewrites.has('beforeFiles')) {
      const target = this.rewrites.match('beforeFiles', pathname, request)
      if (target) return this.rewritten(pathname, target, request)
    }
    const direct = this.byPath.get(pathname)
    if (direct) return direct
    const body = this.bodies.get(pathname)
    if (body && !isPrivateRoute(pathname)) return this.answerAt(pathname, body, request)
    const target = this.rewrites.match('afterFiles', pathname, request) ?? this.rewrites.match('fallback', pathname, request)
    if (target) return this.rewritten(pathname, target, request)
    return isPagePath(pathname) ? this.answerAt(pathname, this.notFoundHtml, request) : null
  }

  private rewritten(pathname: string, target: Exclude<RewriteTarget, null>, request: RuleRequest): StaticEntry | null {
    return target === 'next' ? null : this.answerAt(pathname, this.bodies.get(target.route) ?? null, request)
  }

  /** A body at a URL whose headers were not computed at start (a path that names nothing, or rules with conditions). */
  private answerAt(pathname: string, body: StaticBody | null, request: RuleRequest): StaticEntry | null {
    return body ? entryAt(body, this.rules.forRequest(pathname, request)) : null
  }
}

/** The answer to a GET or HEAD for an entry: 304 when If-None-Match names it, else the (encoded) body. */
export function answerStatic(entry: StaticEntry, method: string, ifNoneMatch: string | null, acceptEncoding: string | null | undefined): HttpAnswer {
  if (entry.etag && entry.status === 200 && ifNoneMatchMatches(ifNoneMatch, entry.etag)) {
    return { status: 304, headers: entry.headers.filter(([name]) => name.toLowerCase() !== 'content-type'), body: null }
  }
  const { bytes: body, encoding } = bodyForClient(entry.body, acceptEncoding)
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
export const METHOD_NOT_ALLOWED: HttpAnswer = {
  status: 405,
  headers: [
    ['Allow', READ_METHODS],
    ['Content-Type', CONTENT_TYPES.text],
    ['Content-Length', String(METHOD_NOT_ALLOWED_BODY.byteLength)],
  ],
  body: METHOD_NOT_ALLOWED_BODY,
}
