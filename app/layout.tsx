import { STYLESHEET_PATH } from '@/lib/pages/navigation.ts'

/** Root layout of the React pages; the HTML homepage (lib/pages/html.ts) links the same stylesheet. */
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
