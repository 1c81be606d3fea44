import { ContentError } from '@/lib/content/site-content.ts'
import { PRODUCT_NAME } from '@/lib/contract/constants.ts'
import { shareImage } from '@/lib/pages/brand-image.tsx'
import { SHARE_IMAGE_SIZE, shareImageAlt } from '@/lib/pages/page-model.ts'
import { getSite } from '@/lib/site.ts'

/**
 * A root metadata file applies to every route, the visual editor's too, and the editor must open while
 * a content file is broken (it is where the file gets fixed, under `npm run dev`): there the words are
 * the product name alone. The site's own pages read the content themselves and say what is wrong; a
 * build never has broken content (it is checked first).
 */
function altText(): string {
  try {
    return shareImageAlt(getSite())
  } catch (error) {
    if (error instanceof ContentError) return PRODUCT_NAME
    throw error
  }
}

export const alt = altText()
export const size = SHARE_IMAGE_SIZE
export const contentType = 'image/png'
export default shareImage
