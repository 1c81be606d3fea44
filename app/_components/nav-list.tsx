import type { NavLink } from '@/lib/pages/navigation.ts'

/** A list of site links; the one for the current page is marked `aria-current="page"`. */
export function NavList({ links, currentPath }: { links: readonly NavLink[]; currentPath: string }) {
  return (
    <ul>
      {links.map((link) => (
        <li key={link.href}>
          <a href={link.href} aria-current={link.path === currentPath ? 'page' : undefined}>
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  )
}
