import { PRODUCT_NAME } from '@/lib/contract/constants.ts'
import { SHARE_IMAGE_SIZE, shareImage } from '@/lib/pages/brand-image.tsx'
import { getSite } from '@/lib/site.ts'

export const alt = `${PRODUCT_NAME}: ${getSite().content.home.data.tagline}`
export const size = SHARE_IMAGE_SIZE
export const contentType = 'image/png'
export default shareImage
