import { answerLeadDeliveryCron } from '@/lib/lead-routes.ts'

export const dynamic = 'force-dynamic'

export { answerLeadDeliveryCron as GET }
