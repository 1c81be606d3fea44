/** Headers as name-value pairs, in the order they are sent; a name may repeat. */
export type HeaderList = ReadonlyArray<readonly [string, string]>
