/** Where the visual editor (Keystatic) answers: its admin app and its API. Neither is a page of the site. */
export const EDITOR_PATH = '/keystatic'
export const EDITOR_API_PATH = '/api/keystatic'

/** next.config headers() sources of every editor URL. */
export const EDITOR_PATH_SOURCES = [EDITOR_PATH, `${EDITOR_PATH}/:path*`, `${EDITOR_API_PATH}/:path*`] as const
