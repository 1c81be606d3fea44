// js-yaml is Keystatic's YAML reader and writer (a dependency of @keystatic/core, without bundled types):
// the round-trip helper calls the same functions the editor does.
declare module 'js-yaml' {
  export function load(text: string): unknown
  export function dump(value: unknown): string
}
