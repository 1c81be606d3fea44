/**
 * Header names and fixed header sets shared by every answer of the public surface: the contract
 * version, CORS for any origin (decisions.md) and the caching rules of API answers.
 */
import { API_VERSION_HEADER, CONTRACT_VERSION, RATE_LIMIT_HEADER_NAMES } from '../contract/constants.ts'

export type HeaderList = ReadonlyArray<readonly [string, string]>

/** Headers a browser agent must be able to read (none of them is CORS-safelisted). */
export const EXPOSED_HEADERS = [...RATE_LIMIT_HEADER_NAMES, 'Retry-After', API_VERSION_HEADER, 'Link', 'Deprecation', 'Sunset', 'ETag']

export const CORS_HEADERS: HeaderList = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', ')],
]

/** Every REST and MCP answer: the contract version, never stored by shared caches (quota headers are per client). */
export const API_HEADERS: HeaderList = [[API_VERSION_HEADER, CONTRACT_VERSION], ['Cache-Control', 'no-store'], ...CORS_HEADERS]

export const CONTENT_TYPES = {
  json: 'application/json',
  problem: 'application/problem+json',
  markdown: 'text/markdown; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
  openapi: 'application/vnd.oai.openapi+json',
  serverCard: 'application/mcp-server-card+json',
} as const
