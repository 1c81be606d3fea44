import { serveProblemDocument } from '@/lib/discovery/documents.ts'
import { unknownProblemType } from '@/lib/server/direct-routes.ts'

export const dynamic = 'force-dynamic'

export async function GET(request: Request, context: RouteContext<'/problems/[code]'>): Promise<Response> {
  const { code } = await context.params
  return serveProblemDocument(request, code) ?? unknownProblemType()
}
export { GET as HEAD }
