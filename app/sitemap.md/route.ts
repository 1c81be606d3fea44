import { documentResponse } from '@/lib/discovery/documents.ts'

export const dynamic = 'force-static'

export const GET = () => documentResponse('sitemapMarkdown')
