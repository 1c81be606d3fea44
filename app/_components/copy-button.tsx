/**
 * A button that copies `text`, or the body of the same-origin `source` (fetched on click), to the
 * clipboard and says so in the live region beside it. Rendered disabled: the page script
 * (lib/pages/page-script.ts) enables it, since without script it could not copy.
 */
export function CopyButton({ label, what, text, source }: { label: string; what: string; text?: string; source?: string }) {
  return (
    <span className="copy">
      <button type="button" className="button button-secondary" disabled data-copy-what={what} data-copy-text={text} data-copy-source={source}>
        {label}
      </button>
      <span className="copy-status" role="status" />
    </span>
  )
}
