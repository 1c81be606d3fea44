import { PROBLEM_CODES, type ProblemCode } from '@/lib/contract/problems.ts'
import { problemDocumentResponse } from '@/lib/discovery/documents.ts'

export const dynamic = 'force-static'
export const dynamicParams = false

export function generateStaticParams() {
  return PROBLEM_CODES.map((code) => ({ code }))
}

export async function GET(_request: Request, context: RouteContext<'/problems/[code]'>): Promise<Response> {
  const { code } = await context.params
  return problemDocumentResponse(code as ProblemCode)
}
