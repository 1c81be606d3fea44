/**
 * The HTML homepage as a plain string template, without React (route handlers may not import
 * react-dom/server). Its chrome mirrors app/_components/site-header.tsx and site-footer.tsx markup
 * for markup; every value is escaped except `mainHtml`, which must be trusted Markdown output.
 */
import { PRODUCT_NAME } from '../contract/constants.ts'
import type { SiteUrls } from '../site-urls.ts'
import { footerGroups, headerLinks, SKIP_LINK_TARGET, STYLESHEET_PATH, type NavLink } from './navigation.ts'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] as string)
}

export interface HtmlPageInput {
  urls: SiteUrls
  title: string
  description: string
  canonical: string
  noindex: boolean
  /** Path of the page, to mark its navigation link as current. */
  path: string
  /** Trusted HTML of the `<main>` element's content. */
  mainHtml: string
  footerTagline: string
}

function renderLink(link: NavLink, currentPath: string): string {
  const current = link.path === currentPath ? ' aria-current="page"' : ''
  return `<li><a href="${escapeHtml(link.href)}"${current}>${escapeHtml(link.label)}</a></li>`
}

export function renderSiteHeader(urls: SiteUrls, currentPath: string): string {
  const links = headerLinks(urls).map((link) => renderLink(link, currentPath)).join('')
  return (
    `<header class="site-header"><div class="container header-inner">` +
    `<a class="brand" href="${escapeHtml(urls.home)}">${escapeHtml(PRODUCT_NAME)}</a>` +
    `<nav class="site-nav" aria-label="Main"><ul>${links}</ul></nav>` +
    `</div></header>`
  )
}

export function renderSiteFooter(urls: SiteUrls, currentPath: string, tagline: string): string {
  const groups = footerGroups(urls)
    .map(
      (group) =>
        `<div class="footer-group"><h2 class="footer-heading">${escapeHtml(group.heading)}</h2>` +
        `<ul>${group.links.map((link) => renderLink(link, currentPath)).join('')}</ul></div>`,
    )
    .join('')
  return (
    `<footer class="site-footer"><div class="container footer-inner">` +
    `<div class="footer-brand"><p class="footer-name">${escapeHtml(PRODUCT_NAME)}</p><p>${escapeHtml(tagline)}</p></div>` +
    `<nav class="footer-nav" aria-label="Footer">${groups}</nav>` +
    `</div></footer>`
  )
}

/** A complete HTML document with the site chrome around `mainHtml`. */
export function renderHtmlPage(input: HtmlPageInput): string {
  const robots = input.noindex ? '<meta name="robots" content="noindex, nofollow">' : ''
  return (
    `<!DOCTYPE html><html lang="en"><head>` +
    `<meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(input.title)}</title>` +
    `<meta name="description" content="${escapeHtml(input.description)}">` +
    robots +
    `<link rel="canonical" href="${escapeHtml(input.canonical)}">` +
    `<link rel="alternate" type="text/markdown" href="${escapeHtml(input.canonical)}">` +
    `<link rel="stylesheet" href="${STYLESHEET_PATH}">` +
    `</head><body>` +
    `<a class="skip-link" href="#${SKIP_LINK_TARGET}">Skip to main content</a>` +
    renderSiteHeader(input.urls, input.path) +
    `<main id="${SKIP_LINK_TARGET}" tabindex="-1">${input.mainHtml}</main>` +
    renderSiteFooter(input.urls, input.path, input.footerTagline) +
    `</body></html>\n`
  )
}
