import { handleAgentRestRequest } from '@/lib/agent-routes.ts'

export const dynamic = 'force-dynamic'

export {
  handleAgentRestRequest as GET,
  handleAgentRestRequest as HEAD,
  handleAgentRestRequest as POST,
  handleAgentRestRequest as PUT,
  handleAgentRestRequest as PATCH,
  handleAgentRestRequest as DELETE,
  handleAgentRestRequest as OPTIONS,
}
