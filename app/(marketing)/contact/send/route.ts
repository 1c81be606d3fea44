import { after } from 'next/server'
import { toResponse } from '@/lib/http/http-answer.ts'
import { decideLeadForm, deliverLeadAfterAnswer } from '@/lib/lead-routes.ts'

export const dynamic = 'force-dynamic'

/** The contact form's posts (lib/leads/submission.ts); delivery runs after the answer has gone. */
async function handleLeadForm(request: Request): Promise<Response> {
  const result = await decideLeadForm(request)
  const id = result.deliverId
  if (id) after(() => deliverLeadAfterAnswer(id))
  return toResponse(result.answer)
}

export {
  handleLeadForm as GET,
  handleLeadForm as HEAD,
  handleLeadForm as POST,
  handleLeadForm as PUT,
  handleLeadForm as PATCH,
  handleLeadForm as DELETE,
  handleLeadForm as OPTIONS,
}
