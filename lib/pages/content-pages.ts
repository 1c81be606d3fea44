/**
 * What each page shows, derived once per deployment from content/ and the settings: titles,
 * descriptions, the filled Markdown bodies, plan prices and calls to action, the app's login and
 * signup URLs. The React pages render these views as HTML and lib/pages/page-markdown.ts as Markdown,
 * so the two representations of a page always carry the same content.
 */
import type { Metadata } from 'next'
import { PRODUCT_NAME } from '../contract/constants.ts'
import { fillTemplate, type ContentFile } from '../content/load.ts'
import type { Plan } from '../content/frontmatter.ts'
import { getSite, perSite, type Site } from '../site.ts'
import { renderMarkdown, splitSections } from './markdown.ts'
import { sitePage, type PageKey } from './site-pages.ts'

export interface RenderedBody {
  /** HTML of the Markdown before the first `## ` heading. */
  introHtml: string
  /** HTML of each `## ` section. */
  sectionsHtml: string[]
}

interface PageText {
  title: string
  description: string
  /** The day the page's text last changed: the newest `updated` of the content files it shows. */
  updated: string
  /** The `<title>` of the HTML page. */
  documentTitle: string
  /** The page's Markdown body with its placeholders filled in. */
  markdown: string
  body: RenderedBody
}

type PageFile = ContentFile<{ title: string; description: string; updated: string }>

/** `also`: the other content files the page shows (the plans on the homepage and the login page). */
function pageText(file: PageFile, site: Site, documentTitle: string, also: PageFile[] = []): PageText {
  const markdown = fillTemplate(file.body, site.templateValues)
  const { intro, sections } = splitSections(markdown)
  return {
    title: file.data.title,
    description: file.data.description,
    // YYYY-MM-DD strings sort as the dates they name.
    updated:
      [file, ...also]
        .map((source) => source.data.updated)
        .sort()
        .at(-1) ?? file.data.updated,
    documentTitle,
    markdown,
    body: {
      introHtml: intro ? renderMarkdown(intro, site.config.baseUrl) : '',
      sectionsHtml: sections.map((section) => renderMarkdown(section, site.config.baseUrl)),
    },
  }
}

export interface PlanView {
  id: string
  name: string
  /** The large price figure: `$0`, `$12`, or `Custom` when priced on request. */
  price: string
  priceNote: string
  summary: string
  features: string[]
  ctaLabel: string
  /** The app's sign-up with this plan chosen (absolute), or the contact page (root-relative). */
  ctaHref: string
}

export function formatPrice(priceMonthlyUsd: number | null): string {
  if (priceMonthlyUsd === null) return 'Custom'
  const amount = Number.isInteger(priceMonthlyUsd) ? String(priceMonthlyUsd) : priceMonthlyUsd.toFixed(2)
  return `$${amount}`
}

/** signup → the app's sign-up, the plan already chosen; contact → the contact page (root-relative). */
export function planCtaHref(plan: Plan, appUrl: string): string {
  return plan.cta === 'signup' ? `${appUrl}/signup?plan=${encodeURIComponent(plan.id)}` : sitePage('contact').path
}

/** An href as the Markdown twin writes it: absolute, root-relative ones under the base URL. */
export function absoluteHref(href: string, baseUrl: string): string {
  return href.startsWith('/') ? `${baseUrl}${href}` : href
}

export function toPlanView(plan: Plan, appUrl: string): PlanView {
  return {
    id: plan.id,
    name: plan.name,
    price: formatPrice(plan.priceMonthlyUsd),
    priceNote: plan.priceNote,
    summary: plan.summary,
    features: plan.features,
    ctaLabel: plan.ctaLabel,
    ctaHref: planCtaHref(plan, appUrl),
  }
}

export interface ContentPages {
  home: PageText & {
    tagline: string
    /** The steps of the execution loop the hero draws, in order. */
    loop: string[]
    startLabel: string
    startHref: string
    pricingLabel: string
    pricingHref: string
    /** The text of the body's `# ` heading (the hero's title). */
    heading: string
    /** HTML of the intro after its heading. */
    leadHtml: string
  }
  pricing: PageText & { plans: PlanView[] }
  /** content/developers.md, the developer index, as a page with the site's chrome. */
  developers: PageText
  contact: PageText & { email: string; mailto: string; responseTime: string }
  login: PageText & {
    loginLabel: string
    loginUrl: string
    signupLabel: string
    signupUrl: string
    /** Host name of the product app, shown so the visitor knows where the link goes. */
    appHost: string
    /** The free plan's name when one exists (the same data as capabilities.onboarding.freeTierAvailable). */
    freePlanName: string | null
  }
}

const HEADING = /^#\s+(.+?)\s*(?:\n|$)/

export function buildContentPages(site: Site): ContentPages {
  const { content, config } = site
  const plans = content.pricing.data.plans
  // The homepage's Start free and the login page name the free plan, so a change of plans changes them.
  const home = pageText(content.home, site, content.home.data.title, [content.pricing])
  const { intro } = splitSections(home.markdown)
  const heading = HEADING.exec(intro)
  const titled = (title: string) => `${title} · ${PRODUCT_NAME}`
  const freePlan = plans.find((plan) => plan.priceMonthlyUsd === 0 && plan.cta === 'signup')
  return {
    home: {
      ...home,
      tagline: content.home.data.tagline,
      loop: content.home.data.loop,
      startLabel: content.home.data.startLabel,
      // Start free: the free plan's sign-up when there is one, else the plans.
      startHref: freePlan ? planCtaHref(freePlan, config.appUrl) : sitePage('pricing').path,
      pricingLabel: content.home.data.pricingLabel,
      pricingHref: sitePage('pricing').path,
      heading: heading?.[1] ?? PRODUCT_NAME,
      leadHtml: renderMarkdown(heading ? intro.slice(heading[0].length) : intro, site.config.baseUrl),
    },
    pricing: {
      ...pageText(content.pricing, site, titled(content.pricing.data.title)),
      plans: plans.map((plan) => toPlanView(plan, config.appUrl)),
    },
    developers: pageText(content.developers, site, titled('Developers')),
    contact: {
      ...pageText(content.contact, site, titled(content.contact.data.title)),
      email: content.contact.data.email,
      mailto: `mailto:${content.contact.data.email}`,
      responseTime: content.contact.data.responseTime,
    },
    login: {
      ...pageText(content.login, site, titled(content.login.data.title), [content.pricing]),
      loginLabel: content.login.data.loginLabel,
      loginUrl: `${config.appUrl}/login`,
      signupLabel: content.login.data.signupLabel,
      signupUrl: `${config.appUrl}/signup`,
      appHost: new URL(config.appUrl).host,
      freePlanName: plans.find((plan) => plan.priceMonthlyUsd === 0)?.name ?? null,
    },
  }
}

export const getContentPages = perSite(buildContentPages)

/** The share image every page names: app/opengraph-image.tsx, generated at build time. */
const SHARE_IMAGE = { url: '/opengraph-image', width: 1200, height: 630, alt: `${PRODUCT_NAME} — goals that get done, with a mentor in the loop` }

/** The 404 page in both representations; its text is here, so `updated` changes with it. */
export const NOT_FOUND_PAGE = {
  title: 'Page not found',
  description: 'There is no page at this address. It may have moved, or the link may be mistyped.',
  updated: '2026-11-24',
} as const

/**
 * Title, description, canonical URL under the base URL, the Markdown twin as an alternate
 * representation, and noindex on preview deployments.
 */
export function pageMetadata(key: PageKey): Metadata {
  const site = getSite()
  const page = getContentPages()[key]
  const image = { ...SHARE_IMAGE, url: `${site.config.baseUrl}${SHARE_IMAGE.url}` }
  return {
    title: page.documentTitle,
    description: page.description,
    alternates: { canonical: site.urls.page(key), types: { 'text/markdown': site.urls.markdown(key) } },
    // A page's openGraph replaces its parent's, so the shared image (app/opengraph-image.tsx) is named here.
    openGraph: {
      type: 'website',
      siteName: PRODUCT_NAME,
      title: page.documentTitle,
      description: page.description,
      url: site.urls.page(key),
      locale: 'en',
      images: [image],
    },
    twitter: { card: 'summary_large_image', title: page.documentTitle, description: page.description, images: [image] },
    ...(site.config.noindex ? { robots: { index: false, follow: false } } : {}),
  }
}
