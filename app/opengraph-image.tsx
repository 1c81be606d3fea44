import { shareImage } from '@/lib/pages/brand-image.tsx'
import { SHARE_IMAGE_SIZE, shareImageAlt } from '@/lib/pages/page-model.ts'
import { getSite } from '@/lib/site.ts'

export const alt = shareImageAlt(getSite())
export const size = SHARE_IMAGE_SIZE
export const contentType = 'image/png'
export default shareImage
