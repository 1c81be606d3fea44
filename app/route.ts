import { handleHomepageMethodNotAllowed, handleHomepageRequest } from '@/lib/pages/homepage.ts'

// A route handler, not a page: App Router pages overwrite `Vary` and cache a static `/` for a year,
// so `/` negotiates Markdown or HTML itself (lib/pages/homepage.ts).
export const dynamic = 'force-dynamic'

export { handleHomepageRequest as GET, handleHomepageRequest as HEAD }
export {
  handleHomepageMethodNotAllowed as POST,
  handleHomepageMethodNotAllowed as PUT,
  handleHomepageMethodNotAllowed as PATCH,
  handleHomepageMethodNotAllowed as DELETE,
}
