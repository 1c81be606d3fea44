/**
 * The form route's answers as whole pages: the contact page as the build prerendered it, with the
 * sales form's block (lib/leads/form-html.ts, between its markers) replaced by the same block filled
 * in, or by a notice. So the visitor who made a mistake sees the page they sent from, rendered by the
 * one renderer, with their values and a message at each wrong field. The prerendered page is read once
 * from the build output (traced into the route's Vercel function by the build's last step,
 * lib/pages/prerendered-pages.ts); if it is missing, a bare page with the site's stylesheet carries the block.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { CONTENT_TYPES } from '../http/headers.ts'
import type { HeaderList } from '../http/header-list.ts'
import { PAGE_SECURITY_HEADERS, pageContentSecurityPolicy } from '../http/security-headers.ts'
import { prerenderedHtmlPath } from '../pages/prerendered-pages.ts'
import { sitePage } from '../routes/site-pages.ts'
import { LEAD_SLOT_END, LEAD_SLOT_START, renderLeadFormSlot, type LeadFormView, type LeadSlotState } from './form-html.ts'

export interface ContactPageTemplate {
  before: string
  after: string
}

/** The page around the block, or null when the HTML has no block. */
export function splitAtLeadSlot(html: string): ContactPageTemplate | null {
  const start = html.indexOf(LEAD_SLOT_START)
  const end = html.indexOf(LEAD_SLOT_END, start)
  if (start < 0 || end < 0) return null
  return { before: html.slice(0, start), after: html.slice(end + LEAD_SLOT_END.length) }
}

const BARE_PAGE: ContactPageTemplate = {
  before:
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="robots" content="noindex"><title>Contact</title><link rel="stylesheet" href="/site.css"></head><body><main class="container page">',
  after: '</main></body></html>',
}

let cached: ContactPageTemplate | undefined

/** The prerendered contact page around the block, read once per process. */
export function contactPageTemplate(projectDir: string = process.cwd()): ContactPageTemplate {
  if (cached) return cached
  const contactPageHtml = prerenderedHtmlPath(path.join(projectDir, '.next'), sitePage('contact').path)
  let html: string | null = null
  try {
    html = readFileSync(contactPageHtml, 'utf8')
  } catch {
    html = null
  }
  const template = html ? splitAtLeadSlot(html) : null
  if (!template) console.warn(`[leads] ${contactPageHtml} is missing or has no sales form block: form answers use a bare page`)
  cached = template ?? BARE_PAGE
  return cached
}

/** An answer of the form's route: the contact page with the block in the given state, never stored by a cache. */
export function leadFormPage(
  view: LeadFormView,
  state: LeadSlotState,
  baseUrl: string,
  template: ContactPageTemplate = contactPageTemplate(),
): { html: string; headers: HeaderList } {
  const html = `${template.before}${renderLeadFormSlot(view, state)}${template.after}`
  return {
    html,
    headers: [
      ['Content-Type', CONTENT_TYPES.html],
      ['Cache-Control', 'no-store'],
      ['Content-Security-Policy', pageContentSecurityPolicy(html, baseUrl)],
      ...PAGE_SECURITY_HEADERS,
      ['X-Robots-Tag', 'noindex'],
    ],
  }
}
