/**
 * What the pricing, contact and login pages render, derived once per process from content/ and the
 * settings: rendered Markdown, plan prices and calls to action, the app's login and signup URLs, and
 * each page's metadata (with noindex on preview deployments).
 */
import type { Metadata } from 'next'
import { PRODUCT_NAME } from '../contract/constants.ts'
import { fillTemplate, type ContentFile } from '../content/load.ts'
import type { Plan } from '../content/frontmatter.ts'
import { getSite, perSite, type Site } from '../site.ts'
import type { SiteUrls } from '../site-urls.ts'
import { renderMarkdown, splitSections } from './markdown.ts'

export interface RenderedBody {
  /** HTML of the Markdown before the first `## ` heading. */
  introHtml: string
  /** HTML of the `## ` sections. */
  sectionsHtml: string
}

export function renderBody(file: ContentFile<unknown>, site: Site): RenderedBody {
  const { intro, sections } = splitSections(fillTemplate(file.body, site.templateValues))
  return { introHtml: intro ? renderMarkdown(intro) : '', sectionsHtml: renderMarkdown(sections.join('\n\n')) }
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
  ctaHref: string
}

export function formatPrice(priceMonthlyUsd: number | null): string {
  if (priceMonthlyUsd === null) return 'Custom'
  const amount = Number.isInteger(priceMonthlyUsd) ? String(priceMonthlyUsd) : priceMonthlyUsd.toFixed(2)
  return `$${amount}`
}

/** signup → the login page's create-account section; contact → the contact page. */
export function planCtaHref(plan: Plan, urls: SiteUrls): string {
  return plan.cta === 'signup' ? urls.signup : urls.contact
}

export function toPlanView(plan: Plan, urls: SiteUrls): PlanView {
  return {
    id: plan.id,
    name: plan.name,
    price: formatPrice(plan.priceMonthlyUsd),
    priceNote: plan.priceNote,
    summary: plan.summary,
    features: plan.features,
    ctaLabel: plan.ctaLabel,
    ctaHref: planCtaHref(plan, urls),
  }
}

export interface ContentPages {
  pricing: { title: string; description: string; plans: PlanView[]; body: RenderedBody }
  contact: { title: string; description: string; email: string; mailto: string; responseTime: string; body: RenderedBody }
  login: {
    title: string
    description: string
    loginLabel: string
    loginUrl: string
    signupLabel: string
    signupUrl: string
    /** Host name of the product app, shown so the visitor knows where the link goes. */
    appHost: string
    /** The free plan's name when one exists (the same data as capabilities.onboarding.freeTierAvailable). */
    freePlanName: string | null
    developersUrl: string
    body: RenderedBody
  }
}

export function buildContentPages(site: Site): ContentPages {
  const { content, urls, config } = site
  const plans = content.pricing.data.plans
  return {
    pricing: {
      title: content.pricing.data.title,
      description: content.pricing.data.description,
      plans: plans.map((plan) => toPlanView(plan, urls)),
      body: renderBody(content.pricing, site),
    },
    contact: {
      title: content.contact.data.title,
      description: content.contact.data.description,
      email: content.contact.data.email,
      mailto: `mailto:${content.contact.data.email}`,
      responseTime: content.contact.data.responseTime,
      body: renderBody(content.contact, site),
    },
    login: {
      title: content.login.data.title,
      description: content.login.data.description,
      loginLabel: content.login.data.loginLabel,
      loginUrl: `${config.appUrl}/login`,
      signupLabel: content.login.data.signupLabel,
      signupUrl: `${config.appUrl}/signup`,
      appHost: new URL(config.appUrl).host,
      freePlanName: plans.find((plan) => plan.priceMonthlyUsd === 0)?.name ?? null,
      developersUrl: urls.developers,
      body: renderBody(content.login, site),
    },
  }
}

export const getContentPages = perSite(buildContentPages)

export type PageKey = keyof ContentPages

const PAGE_URL: Record<PageKey, (urls: SiteUrls) => string> = {
  pricing: (urls) => urls.pricing,
  contact: (urls) => urls.contact,
  login: (urls) => urls.login,
}

/** Title and description from the page's frontmatter, canonical URL under the base URL, noindex on previews. */
export function pageMetadata(key: PageKey): Metadata {
  const site = getSite()
  const page = getContentPages()[key]
  return buildMetadata(site, `${page.title} · ${PRODUCT_NAME}`, page.description, PAGE_URL[key](site.urls))
}

export function buildMetadata(site: Site, title: string, description: string, canonical: string | null): Metadata {
  return {
    title,
    description,
    ...(canonical ? { alternates: { canonical } } : {}),
    ...(site.config.noindex ? { robots: { index: false, follow: false } } : {}),
  }
}
