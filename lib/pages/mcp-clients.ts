/**
 * How an MCP client is told to add this deployment's server: its entry in a client configuration
 * (/mcp.json serves it), and one-click installs for the developer page. A preview installs the preview.
 */
import { PRODUCT_NAME } from '../contract/constants.ts'
import type { Site } from '../site.ts'

/** The name MCP clients list the server under, and its entry: Streamable HTTP at this deployment's MCP URL. */
function mcpClientEntry(site: Site) {
  return { key: `${PRODUCT_NAME.toLowerCase()}-public`, server: { type: 'http', url: site.urls.mcp } }
}

export function buildMcpClientConfiguration(site: Site) {
  const { key, server } = mcpClientEntry(site)
  return { mcpServers: { [key]: server }, servers: { [key]: server } }
}

/**
 * One-click installs of this deployment's MCP server (a preview installs the preview), in each
 * editor's documented link format. Cursor: `name` and `config`, the base64 of the server's mcp.json
 * entry (a remote server is its `url`). VS Code: the URL-encoded JSON that `code --add-mcp` takes.
 */
export function buildMcpInstallLinks(site: Site) {
  const { key, server } = mcpClientEntry(site)
  const cursorConfig = Buffer.from(JSON.stringify({ url: server.url })).toString('base64')
  return {
    cursor: `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(key)}&config=${encodeURIComponent(cursorConfig)}`,
    vscode: `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name: key, ...server }))}`,
  }
}
