/**
 * The site's generated images (touch icon, Open Graph and Twitter card), drawn at build time with
 * Next's ImageResponse from the same name and tagline as the pages: no remote assets, no fonts fetched.
 */
import { ImageResponse } from 'next/og'
import { PRODUCT_NAME } from '../contract/constants.ts'
import { getSite } from '../site.ts'
import { SHARE_IMAGE_SIZE } from './page-model.ts'

const ACCENT = '#3f37c9'
const ACCENT_INK = '#2d2699'

/** The mark of app/icon.svg, as an element satori can draw. */
function Mark({ size }: { size: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" xmlns="http://www.w3.org/2000/svg">
      <title>{PRODUCT_NAME}</title>
      <rect width="64" height="64" rx="14" fill={ACCENT} />
      <path d="M32 14a18 18 0 1 1-17.3 13" fill="none" stroke="#fff" strokeWidth="6" strokeLinecap="round" />
      <path d="M8 24l7 6 6-8" fill="none" stroke="#fff" strokeWidth="6" strokeLinecap="round" strokeLinejoin="round" />
      <circle cx="32" cy="32" r="5" fill="#fff" />
    </svg>
  )
}

export function shareImage(): ImageResponse {
  const { tagline } = getSite().content.home.data
  return new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
        padding: 80,
        color: '#fff',
        background: `linear-gradient(135deg, #5b52e8, ${ACCENT_INK})`,
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 28 }}>
        <Mark size={120} />
        <div style={{ fontSize: 96, fontWeight: 700 }}>{PRODUCT_NAME}</div>
      </div>
      <div style={{ marginTop: 48, fontSize: 52, lineHeight: 1.25, maxWidth: 1000 }}>{tagline}</div>
    </div>,
    SHARE_IMAGE_SIZE,
  )
}

export const TOUCH_ICON_SIZE = { width: 180, height: 180 }

export function touchIcon(): ImageResponse {
  return new ImageResponse(<Mark size={180} />, TOUCH_ICON_SIZE)
}
