/**
 * Where the visual editor (Keystatic, lib/editor) answers: its admin app and its API. Neither is a
 * page of the site; the page paths (page-paths.ts) and robots.txt keep them out.
 */
export const EDITOR_PATH = '/keystatic'
export const EDITOR_API_PATH = '/api/keystatic'
