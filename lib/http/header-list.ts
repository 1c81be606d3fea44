/** Headers as name-value pairs, in the order they are sent; a name may repeat. */
export type HeaderList = ReadonlyArray<readonly [string, string]>

/**
 * Adds one field to `fields` as undici's `Headers` combines them: the name in lower case, a repeated
 * name's values joined with ", " (Cookie's with "; ").
 */
export function combineField(fields: Map<string, string>, name: string, value: string): void {
  const key = name.toLowerCase()
  const before = fields.get(key)
  fields.set(key, before === undefined ? value : `${before}${key === 'cookie' ? '; ' : ', '}${value}`)
}
