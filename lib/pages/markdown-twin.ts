/**
 * The answer of a page's Markdown twin, as Cloudflare's and Vercel's agent-facing sites send it:
 * `text/markdown; charset=utf-8`, an estimate of its size in tokens (`X-Markdown-Tokens`) and the
 * site's Content Signals, plus the headers it shares with the page's HTML (lib/pages/page-headers.ts).
 */
import { CONTENT_TYPES, CORS_HEADERS } from '../http/headers.ts'
import { RESOURCE_SECURITY_HEADERS } from '../http/security-headers.ts'
import { staticResponse } from '../http/static-response.ts'
import { getSite } from '../site.ts'
import { buildPageMarkdown } from './page-markdown.ts'
import { pageHeaders } from './page-headers.ts'
import { NOT_FOUND_TWIN, type TwinKey } from '../routes/site-pages.ts'

/** About four characters per token for English prose, the rule of thumb Cloudflare's estimate follows. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

export function markdownTwinResponse(key: TwinKey): Response {
  const site = getSite()
  const text = buildPageMarkdown(site, key)
  return staticResponse(
    key === NOT_FOUND_TWIN ? 404 : 200,
    text,
    CONTENT_TYPES.markdown,
    pageHeaders(site, key),
    [
      ['X-Markdown-Tokens', String(estimateTokens(text))],
      ['Content-Signal', site.config.contentSignal],
    ],
    CORS_HEADERS,
    RESOURCE_SECURITY_HEADERS,
  )
}
