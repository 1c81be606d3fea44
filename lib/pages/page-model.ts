/**
 * Each page's content, stated once: its title, description and a list of blocks (a hero, a header,
 * the team's Markdown, plans, cards, links), derived once per deployment from content/ and the
 * settings. The React pages (app/_components/page-view.tsx) render the blocks as HTML and
 * lib/pages/page-markdown.ts renders the same blocks as the Markdown twin, so the two representations
 * of a page carry the same words and links.
 */
import type { Metadata } from 'next'
import { PRODUCT_NAME } from '../contract/constants.ts'
import type { Plan } from '../content/frontmatter.ts'
import { fillTemplate } from '../content/site-content.ts'
import { getSite, perSite, type Site } from '../site.ts'
import { buildMcpInstallLinks } from './mcp-clients.ts'
import { splitSections } from './markdown.ts'
import { NOT_FOUND_TWIN, sitePage, type PageKey, type TwinKey } from '../routes/site-pages.ts'
import { buildLeadForm } from '../leads/form.ts'
import { LEAD_FORM_ID, PLAN_PARAMETER } from '../routes/page-script-hooks.ts'
import type { LeadFormView } from '../leads/form-view.ts'

/** A link on a page: root-relative within the site, or absolute (the app, `mailto:`). */
export interface PageLink {
  label: string
  href: string
  /** Where the Markdown twin points instead, when the target has a Markdown representation of its own. */
  markdownHref?: string
  /** A link of lesser weight, drawn as a secondary button. */
  secondary?: boolean
  /** Words after the link, in both representations. */
  note?: string
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

/** A boxed call to action: a heading, a sentence (inline Markdown) and one link. */
export interface PageCard {
  id: string
  heading: string
  text: string
  link: PageLink
}

export type PageBlock =
  /** The page's `<h1>` and lead paragraph. */
  | { kind: 'header'; title: string; lead: string }
  /** The homepage's opening: heading, tagline, lead (Markdown), calls to action and the execution loop. */
  | { kind: 'hero'; heading: string; tagline: string; lead: string; actions: PageLink[]; loop: string[] }
  /** The team's Markdown from content/; `band` gives each `## ` section a band of its own on the HTML page. */
  | { kind: 'markdown'; markdown: string; style?: 'band' | 'note' | 'index' }
  | { kind: 'plans'; label: string; plans: PlanView[] }
  | { kind: 'cards'; cards: PageCard[] }
  | { kind: 'links'; links: PageLink[] }
  /** The sign-up form with a plan, which browsers with WebMCP offer as a tool (its fields: lib/pages/page-tools.ts). */
  | { kind: 'signupForm'; style?: 'band' }
  /**
   * The "Talk to sales" form (rendered by app/_components/lead-form.tsx, for the page and the form's route
   * alike) beside the email card; without a durable store for leads, the email card alone.
   */
  | { kind: 'leadForm'; form: LeadFormView; cards: PageCard[] }
  /** One-click installs of the MCP server in an editor, and copy buttons for its URL and the page's Markdown. */
  | { kind: 'mcpInstall'; mcpUrl: string; markdownPath: string; links: { cursor: string; vscode: string } }

export interface PageModel {
  key: TwinKey
  title: string
  description: string
  /** The `<title>` of the HTML page. */
  documentTitle: string
  /** The day the page's text last changed: the newest `updated` of the content files it shows. */
  updated: string
  blocks: PageBlock[]
}

export function formatPrice(priceMonthlyUsd: number | null): string {
  if (priceMonthlyUsd === null) return 'Custom'
  const amount = Number.isInteger(priceMonthlyUsd) ? String(priceMonthlyUsd) : priceMonthlyUsd.toFixed(2)
  return `$${amount}`
}

/**
 * signup → the app's sign-up, the plan already chosen; contact → the contact page's sales form with the
 * plan named (root-relative), or the contact page where the deployment offers no form.
 */
function planCtaHref(plan: Plan, appUrl: string, salesForm = true): string {
  if (plan.cta === 'signup') return `${appUrl}/signup?plan=${encodeURIComponent(plan.id)}`
  const contact = sitePage('contact').path
  return salesForm ? `${contact}?${PLAN_PARAMETER}=${encodeURIComponent(plan.id)}#${LEAD_FORM_ID}` : contact
}

/** An href as the Markdown twin writes it: absolute, root-relative ones under the base URL. */
export function absoluteHref(href: string, baseUrl: string): string {
  return href.startsWith('/') ? `${baseUrl}${href}` : href
}

export function toPlanView(plan: Plan, appUrl: string, salesForm = true): PlanView {
  return {
    id: plan.id,
    name: plan.name,
    price: formatPrice(plan.priceMonthlyUsd),
    priceNote: plan.priceNote,
    summary: plan.summary,
    features: plan.features,
    ctaLabel: plan.ctaLabel,
    ctaHref: planCtaHref(plan, appUrl, salesForm),
  }
}

/** The product app's pages this site hands visitors to, and its host name, shown so visitors know where a link goes. */
export function appLinks(appUrl: string): { host: string; login: string; signup: string } {
  return { host: new URL(appUrl).host, login: `${appUrl}/login`, signup: `${appUrl}/signup` }
}

/** The 404 page in both representations; its text is here, so `updated` changes with it. */
const NOT_FOUND_PAGE = {
  title: 'Page not found',
  description: 'There is no page at this address. It may have moved, or the link may be mistyped.',
  updated: '2026-11-24',
} as const

/** The newest of some `updated` days: YYYY-MM-DD strings sort as the dates they name. */
const newest = (...days: string[]) => days.sort().at(-1) as string

const HEADING = /^#\s+(.+?)\s*(?:\n|$)/

export type PageModels = Record<TwinKey, PageModel>

export function buildPageModels(site: Site): PageModels {
  const { content, config, urls } = site
  const plans = content.pricing.data.plans
  const filled = (body: string) => fillTemplate(body, site.templateValues)
  const titled = (title: string) => `${title} · ${PRODUCT_NAME}`
  const salesForm = buildLeadForm(site).view
  const freePlan = plans.find((plan) => plan.priceMonthlyUsd === 0 && plan.cta === 'signup')
  const freePlanName = plans.find((plan) => plan.priceMonthlyUsd === 0)?.name

  const home = (): PageModel => {
    const { data } = content.home
    const { intro, sections } = splitSections(filled(content.home.body))
    const heading = HEADING.exec(intro)
    const pricing = sitePage('pricing')
    return {
      key: 'home',
      title: data.title,
      description: data.description,
      documentTitle: data.title,
      // Start free names the free plan, so a change of plans changes the homepage.
      updated: newest(data.updated, content.pricing.data.updated),
      blocks: [
        {
          kind: 'hero',
          heading: heading?.[1] ?? PRODUCT_NAME,
          tagline: data.tagline,
          lead: (heading ? intro.slice(heading[0].length) : intro).trim(),
          // Start free: the free plan's sign-up when there is one, else the plans.
          actions: [
            { label: data.startLabel, href: freePlan ? planCtaHref(freePlan, config.appUrl, salesForm.available) : pricing.path },
            { label: data.pricingLabel, href: pricing.path, secondary: true },
          ],
          loop: data.loop,
        },
        ...sections.map((markdown): PageBlock => ({ kind: 'markdown', markdown, style: 'band' })),
        { kind: 'signupForm', style: 'band' },
      ],
    }
  }

  /** A page of content/pages/: its frontmatter's title and description as the header. */
  const page = (
    key: PageKey,
    data: { title: string; description: string; updated: string },
    blocks: PageBlock[],
    updated = data.updated,
  ): PageModel => ({
    key,
    title: data.title,
    description: data.description,
    documentTitle: titled(data.title),
    updated,
    blocks: [{ kind: 'header', title: data.title, lead: data.description }, ...blocks],
  })
  const prose = (markdown: string): PageBlock[] => (markdown ? [{ kind: 'markdown', markdown }] : [])

  const pricing = (): PageModel => {
    const { intro, sections } = splitSections(filled(content.pricing.body))
    return page('pricing', content.pricing.data, [
      { kind: 'plans', label: 'Plans', plans: plans.map((plan) => toPlanView(plan, config.appUrl, salesForm.available)) },
      ...(intro ? [{ kind: 'markdown', markdown: intro, style: 'note' } as const] : []),
      { kind: 'signupForm' },
      ...prose(sections.join('\n\n')),
    ])
  }

  const contact = (): PageModel => {
    const { data } = content.contact
    const { intro, sections } = splitSections(filled(content.contact.body))
    return page('contact', data, [
      ...prose(intro),
      {
        kind: 'leadForm',
        form: salesForm,
        cards: [{ id: 'contact-email', heading: 'Email us', text: data.responseTime, link: { label: data.email, href: `mailto:${data.email}` } }],
      },
      ...prose(sections.join('\n\n')),
    ])
  }

  const login = (): PageModel => {
    const { data } = content.login
    const { intro, sections } = splitSections(filled(content.login.body))
    const app = appLinks(config.appUrl)
    return page(
      'login',
      data,
      [
        ...prose(intro),
        {
          kind: 'cards',
          cards: [
            {
              id: 'log-in',
              heading: 'Already have an account?',
              text: `You will continue on the ${PRODUCT_NAME} app at **${app.host}**.`,
              link: { label: data.loginLabel, href: app.login },
            },
            {
              // The anchor every plan's sign-up without the app (SIGNUP_PATH) lands on.
              id: 'create-account',
              heading: `New to ${PRODUCT_NAME}?`,
              text: `Create your account in the ${PRODUCT_NAME} app.${freePlanName ? ` The ${freePlanName} plan is free.` : ''}`,
              link: { label: data.signupLabel, href: app.signup, secondary: true },
            },
          ],
        },
        ...prose(sections.join('\n\n')),
      ],
      // The login page names the free plan, so a change of plans changes it.
      newest(data.updated, content.pricing.data.updated),
    )
  }

  const developers = (): PageModel => {
    const { intro, sections } = splitSections(filled(content.developers.body))
    return {
      key: 'developers',
      title: content.developers.data.title,
      description: content.developers.data.description,
      documentTitle: titled('Developers'),
      updated: content.developers.data.updated,
      blocks: [
        { kind: 'markdown', markdown: intro, style: 'index' },
        { kind: 'mcpInstall', mcpUrl: urls.mcp, markdownPath: sitePage('developers').markdownPath, links: buildMcpInstallLinks(site) },
        { kind: 'markdown', markdown: sections.join('\n\n'), style: 'index' },
      ],
    }
  }

  const notFound = (): PageModel => ({
    key: NOT_FOUND_TWIN,
    ...NOT_FOUND_PAGE,
    documentTitle: titled(NOT_FOUND_PAGE.title),
    blocks: [
      { kind: 'header', title: NOT_FOUND_PAGE.title, lead: NOT_FOUND_PAGE.description },
      {
        kind: 'links',
        links: [
          { label: `${PRODUCT_NAME} homepage`, href: sitePage('home').path, markdownHref: urls.markdown('home') },
          { label: 'Pricing', href: sitePage('pricing').path, markdownHref: urls.markdown('pricing') },
          { label: 'Developer index', href: sitePage('developers').path, markdownHref: urls.developers, note: 'for the public agent API' },
          { label: 'llms.txt', href: urls.llms, note: 'the index of this site for agents' },
          { label: 'Sitemap', href: urls.sitemapMarkdown, note: 'every page and document' },
        ],
      },
    ],
  })

  return { home: home(), pricing: pricing(), contact: contact(), login: login(), developers: developers(), [NOT_FOUND_TWIN]: notFound() }
}

export const getPageModels = perSite(buildPageModels)

export function getPageModel(key: TwinKey): PageModel {
  return getPageModels()[key]
}

/** Every plan as the pricing page shows it. */
export function pagePlans(models: PageModels): PlanView[] {
  return models.pricing.blocks.flatMap((block) => (block.kind === 'plans' ? block.plans : []))
}

/** The share image every page names: app/opengraph-image.tsx (and app/twitter-image.tsx), generated at build time. */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 }
const SHARE_IMAGE = { url: '/opengraph-image', ...SHARE_IMAGE_SIZE }

/** What the share image shows, in words: the name and the tagline it draws (lib/pages/brand-image.tsx). */
export function shareImageAlt(site: Site): string {
  return `${PRODUCT_NAME}: ${site.content.home.data.tagline}`
}

/**
 * Title, description, canonical URL under the base URL, the Markdown twin as an alternate
 * representation, and noindex on preview deployments.
 */
/**
 * The origins other than the site's own that a page's forms post to, for its `form-action`: the
 * sign-up form goes to the app; the sales form posts to the site.
 */
export function formActionOrigins(page: PageModel | null, appUrl: string): string[] {
  return page?.blocks.some((block) => block.kind === 'signupForm') ? [new URL(appUrl).origin] : []
}

export function pageMetadata(key: PageKey): Metadata {
  const site = getSite()
  const page = getPageModel(key)
  const image = { ...SHARE_IMAGE, url: `${site.config.baseUrl}${SHARE_IMAGE.url}`, alt: shareImageAlt(site) }
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
