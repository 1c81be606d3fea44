import { answerDeliveryCron } from '@/lib/leads/delivery-cron.ts'

export const dynamic = 'force-dynamic'

export { answerDeliveryCron as GET }
