import { serveDocument } from '@/lib/discovery/documents.ts'

export const dynamic = 'force-dynamic'

export function GET(request: Request): Response {
  return serveDocument(request, 'mcpManifest')
}
export { GET as HEAD }
