import { markdownTwinResponse } from '@/lib/pages/markdown-twin.ts'
import { TWIN_KEYS, type TwinKey } from '@/lib/routes/site-pages.ts'

// Every page's Markdown twin, prerendered; `/pricing.md` and a Markdown-preferring request for
// `/pricing` are rewritten here (next.config.ts, proxy.ts).
export const dynamic = 'force-static'
export const dynamicParams = false

export function generateStaticParams() {
  return TWIN_KEYS.map((page) => ({ page }))
}

export async function GET(_request: Request, context: RouteContext<'/md/[page]'>): Promise<Response> {
  const { page } = await context.params
  return markdownTwinResponse(page as TwinKey)
}
