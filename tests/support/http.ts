/** Small helpers for asserting on HTTP answers in tests. */

export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text()
  try {
    return JSON.parse(text)
  } catch {
    throw new Error(`expected JSON, got ${response.status} ${response.headers.get('content-type')}: ${text.slice(0, 300)}`)
  }
}

/** The Markdown body of a content file with its placeholders filled, read straight from disk. */
/**
 * The contract's figures as the contract and decisions.md state them, written out here rather than read
 * from lib/ so that a drifted constant shows up as a wrong page, not as a page that agrees with itself.
 */
export const CONTRACT_PLACEHOLDERS: Readonly<Record<string, string>> = {
  contract_version: '2026-08-25',
  mcp_protocol_version: '2026-07-28',
  mcp_legacy_protocol_versions: '`2025-11-25`, `2025-06-18`, `2025-03-26`',
  mcp_newest_legacy_protocol_version: '2025-11-25',
  mcp_discover_ttl_ms: '3600000',
  mcp_list_ttl_ms: '300000',
  mcp_max_body_mib: '2',
  mcp_max_batch_messages: '20',
  mcp_code_header_mismatch: '-32020',
  mcp_code_base: '-31000',
  mcp_code_method_not_allowed: '-31405',
  mcp_code_body_too_large: '-31413',
  mcp_code_unsupported_media_type: '-31415',
  mcp_code_rate_limited: '-31429',
  mcp_code_disabled: '-31503',
  quota_capacity: '150',
  quota_requests_per_window: '120',
  quota_window_seconds: '60',
  quota_burst: '30',
  quota_refill_per_second: '2',
  quota_max_per_window: '270',
  quota_policy: '"public-agent-rest";q=120;w=60;burst=30',
  quota_policy_name: 'public-agent-rest',
  sunset_notice_days: '180',
}

/** A content file's body as the site serves it: placeholders filled with the deployment's and the contract's values. */
export async function expectedMarkdown(relativePath: string, deployment: Record<string, string>): Promise<string> {
  const { readFile } = await import('node:fs/promises')
  const { projectRoot } = await import('../../harness/paths.ts')
  const source = await readFile(`${projectRoot}/${relativePath}`, 'utf8')
  const body = `${source.replace(/^---\n[\s\S]*?\n---\n/, '').trim()}\n`
  const values = { ...CONTRACT_PLACEHOLDERS, ...deployment }
  return body.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name]
    if (value === undefined) throw new Error(`no test value for {{${name}}}`)
    return value
  })
}
