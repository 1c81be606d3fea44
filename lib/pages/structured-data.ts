/**
 * JSON-LD (schema.org) for search engines and agents that read it: the organisation and the
 * application on the homepage, one Offer per plan on pricing, from the same plans the page shows.
 */
import { PRODUCT_NAME } from '../contract/constants.ts'
import type { Site } from '../site.ts'
import { absoluteHref, pagePlans, type PageModels, type PlanView } from './page-model.ts'

type JsonLd = Record<string, unknown>

function offer(plan: PlanView, site: Site, priceMonthlyUsd: number | null): JsonLd {
  return {
    '@type': 'Offer',
    name: plan.name,
    description: plan.summary,
    url: absoluteHref(plan.ctaHref, site.config.baseUrl),
    ...(priceMonthlyUsd === null
      ? {}
      : {
          price: priceMonthlyUsd.toFixed(2),
          priceCurrency: 'USD',
          priceSpecification: { '@type': 'UnitPriceSpecification', price: priceMonthlyUsd.toFixed(2), priceCurrency: 'USD', unitText: 'MONTH' },
        }),
  }
}

function application(site: Site, pages: PageModels): JsonLd {
  const prices = new Map(site.content.pricing.data.plans.map((plan) => [plan.id, plan.priceMonthlyUsd]))
  return {
    '@type': 'SoftwareApplication',
    name: PRODUCT_NAME,
    description: pages.home.description,
    applicationCategory: 'BusinessApplication',
    operatingSystem: 'Web',
    url: site.urls.home,
    offers: pagePlans(pages).map((plan) => offer(plan, site, prices.get(plan.id) ?? null)),
  }
}

export function homeStructuredData(site: Site, pages: PageModels): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'Organization',
        name: PRODUCT_NAME,
        url: site.urls.home,
        logo: `${site.config.baseUrl}/icon.svg`,
        email: site.content.contact.data.email,
      },
      { '@type': 'WebSite', name: PRODUCT_NAME, url: site.urls.home },
      application(site, pages),
    ],
  }
}

export function pricingStructuredData(site: Site, pages: PageModels): JsonLd {
  return { '@context': 'https://schema.org', ...application(site, pages) }
}

/** JSON as it goes into a `<script type="application/ld+json">` or `"application/json"`: `<` escaped so no text can close the element. */
export function jsonScriptText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c')
}
