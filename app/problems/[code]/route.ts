import { serveProblemDocument } from '@/lib/discovery/documents.ts'

export const dynamic = 'force-dynamic'

export async function GET(request: Request, context: RouteContext<'/problems/[code]'>): Promise<Response> {
  const { code } = await context.params
  return serveProblemDocument(request, code) ?? new Response('No such problem type.\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}
export { GET as HEAD }
