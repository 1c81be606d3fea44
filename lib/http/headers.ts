/**
 * Header names and fixed header sets shared by every answer of the public surface: the contract
 * version, CORS for any origin (decisions.md) and the caching rules of API answers.
 */
import { API_VERSION_HEADER, CONTRACT_VERSION, RATE_LIMIT_HEADER_NAMES } from '../contract/constants.ts'
import type { HeaderList } from './header-list.ts'
import { RESOURCE_SECURITY_HEADERS } from './security-headers.ts'

/** The `Allow` value of everything read-only: the agent API, the pages and the documents. */
export const READ_METHODS = 'GET, HEAD'

/** Headers a browser agent must be able to read (none of them is CORS-safelisted). */
export const EXPOSED_HEADERS = [...RATE_LIMIT_HEADER_NAMES, 'Retry-After', API_VERSION_HEADER, 'Link', 'Deprecation', 'Sunset', 'ETag']

export const CORS_HEADERS: HeaderList = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', ')],
]

/**
 * Cache policies. Everything but the agent API is built once per deployment, so browsers keep it
 * briefly or revalidate it (ETag → 304) and shared caches (Vercel's CDN, a self-hosted proxy) keep it
 * for a day: `s-maxage` is what Vercel's CDN honours, and Vercel empties its cache on every deployment.
 */
export const CACHE_CONTROL = {
  /** Pages and their Markdown twins: a browser revalidates each use, so an edit shows on the next load. */
  page: 'public, max-age=0, must-revalidate, s-maxage=86400',
  /** Discovery documents: agents may reuse them for an hour (the server card draft's recommendation). */
  document: 'public, max-age=3600, s-maxage=86400',
  /** Answers for paths that name nothing: short, so a page added later is found soon. */
  notFound: 'public, max-age=0, must-revalidate, s-maxage=300',
  /** REST and MCP: quota headers are per client, so no cache may store them. */
  api: 'no-store',
} as const

/** Every REST and MCP answer: the contract version, never stored by any cache (quota headers are per client). */
export const API_HEADERS: HeaderList = [
  [API_VERSION_HEADER, CONTRACT_VERSION],
  ['Cache-Control', CACHE_CONTROL.api],
  ...CORS_HEADERS,
  ...RESOURCE_SECURITY_HEADERS,
]

export const CONTENT_TYPES = {
  json: 'application/json',
  problem: 'application/problem+json',
  markdown: 'text/markdown; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
  openapi: 'application/vnd.oai.openapi+json',
  serverCard: 'application/mcp-server-card+json',
  aiCatalog: 'application/ai-catalog+json',
  /** RFC 9727 §4.2: the API catalog is a linkset with the api-catalog profile. */
  apiCatalog: 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
} as const
