import { STYLESHEET_PATH } from '@/lib/pages/navigation.ts'

/** Root layout of every page: the stylesheet; each page sets its own metadata (lib/pages/page-model.ts). */
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
      </head>
      <body>{children}</body>
    </html>
  )
}
