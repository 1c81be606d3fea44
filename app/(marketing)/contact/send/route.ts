import { after } from 'next/server'
import { renderContactAnswer } from '@/app/_components/contact-answer.tsx'
import { toResponse } from '@/lib/http/http-answer.ts'
import { decideLeadForm, deliverLeadAfterAnswer, leadFormHttpAnswer } from '@/lib/lead-routes.ts'

export const dynamic = 'force-dynamic'

/** The contact form's posts (lib/leads/submission.ts); delivery runs after the answer has gone. */
async function handleLeadForm(request: Request): Promise<Response> {
  const result = await decideLeadForm(request)
  const id = result.deliverId
  if (id) after(() => deliverLeadAfterAnswer(id))
  return toResponse(await leadFormHttpAnswer(request, result, renderContactAnswer))
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
