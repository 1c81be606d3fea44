'use client'
import { useEffect, useState } from 'react'

/**
 * Copies `text`, or the body of the same-origin `source` (fetched on click), to the clipboard and says
 * so in a live region. Disabled until the page's script runs: without script it could not copy.
 */
export function CopyButton({ label, what, text, source }: { label: string; what: string; text?: string; source?: string }) {
  const [ready, setReady] = useState(false)
  const [status, setStatus] = useState('')
  useEffect(() => setReady(true), [])

  async function copy() {
    try {
      let value = text
      if (value === undefined && source !== undefined) {
        const response = await fetch(source, { headers: { Accept: 'text/markdown' } })
        if (!response.ok) throw new Error(`${source} answered ${response.status}`)
        value = await response.text()
      }
      await navigator.clipboard.writeText(value ?? '')
      setStatus(`Copied ${what} to the clipboard.`)
    } catch {
      setStatus(`Could not copy ${what}: the browser refused the clipboard.`)
    }
  }

  return (
    <span className="copy">
      <button type="button" className="button button-secondary" disabled={!ready} onClick={copy}>
        {label}
      </button>
      <span className="copy-status" role="status">
        {status}
      </span>
    </span>
  )
}
