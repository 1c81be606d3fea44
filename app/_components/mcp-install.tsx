import { PRODUCT_NAME } from '@/lib/contract/constants.ts'
import { CopyButton } from './copy-button.tsx'

export interface McpInstallProps {
  mcpUrl: string
  markdownPath: string
  links: { cursor: string; vscode: string }
}

/** Install the MCP server in an editor with one click, or copy its URL or this page's Markdown. */
export function McpInstall({ mcpUrl, markdownPath, links }: McpInstallProps) {
  return (
    <section className="card install" aria-labelledby="install-heading">
      <h2 id="install-heading">Add the {PRODUCT_NAME} MCP server to your editor</h2>
      <p id="install-note">
        The server is at <code>{mcpUrl}</code>. The install links open Cursor or VS Code, which ask before adding it. No key or login is needed.
      </p>
      <p className="install-actions">
        <a className="button" href={links.cursor} aria-describedby="install-note">
          Add to Cursor
        </a>
        <a className="button" href={links.vscode} aria-describedby="install-note">
          Add to VS Code
        </a>
        <CopyButton label="Copy MCP URL" what="the MCP URL" text={mcpUrl} />
        <CopyButton label="Copy page as Markdown" what="this page as Markdown" source={markdownPath} />
      </p>
    </section>
  )
}
