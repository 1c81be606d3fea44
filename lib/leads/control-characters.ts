/**
 * The characters a lead's text may not hold, stated once for the form's check and for every place a
 * lead is shown: C0 controls (a terminal reads ESC as the start of a command: `ESC[2J` clears the
 * screen), DEL, C1 controls (CSI among them, a terminal command on its own) and the bidirectional
 * embeddings, overrides and isolates (a right-to-left override shows `moc.elpmaxe@` for
 * `example.com@`). The goal, several lines long, keeps its tabs and line breaks.
 */

/** What a single-line field (name, email, company) may not hold. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this is for
export const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u
/** What the goal may not hold: the same, but tabs and line breaks. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this is for
export const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u

const SINGLE_LINE_ALL = new RegExp(SINGLE_LINE_FORBIDDEN.source, 'gu')
const MULTI_LINE_ALL = new RegExp(MULTI_LINE_FORBIDDEN.source, 'gu')

/**
 * Text as it may be shown to the operator or the sales team: each forbidden character written out as
 * `\u001B`, so that a lead stored before the check, or by another writer, shows what it holds and
 * commands nothing. `lineBreaks`: tabs and line breaks stay as they are.
 */
export function escapeControls(text: string, options: { lineBreaks?: boolean } = {}): string {
  return text.replace(options.lineBreaks ? MULTI_LINE_ALL : SINGLE_LINE_ALL, unicodeEscape)
}

const unicodeEscape = (character: string) => `\\u${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`

/**
 * JSON text with every forbidden character as a `\u` escape: `JSON.stringify` escapes the C0
 * controls but writes DEL, C1 controls and bidirectional overrides as they are. Still valid JSON of
 * the same value (its own line breaks and indentation are whitespace between tokens).
 */
export function escapeControlsInJson(json: string): string {
  return escapeControls(json, { lineBreaks: true })
}
