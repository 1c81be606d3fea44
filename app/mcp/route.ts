import { handleMcpRequest } from '@/lib/agent-routes.ts'

export const dynamic = 'force-dynamic'

export {
  handleMcpRequest as GET,
  handleMcpRequest as HEAD,
  handleMcpRequest as POST,
  handleMcpRequest as PUT,
  handleMcpRequest as PATCH,
  handleMcpRequest as DELETE,
  handleMcpRequest as OPTIONS,
}
