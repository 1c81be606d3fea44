import { TOUCH_ICON_SIZE, touchIcon } from '@/lib/pages/brand-image.tsx'

export const size = TOUCH_ICON_SIZE
export const contentType = 'image/png'
export default touchIcon
