import type { Metadata } from 'next'
import { JsonLd } from '@/app/_components/json-ld.tsx'
import { MarkdownHtml } from '@/app/_components/markdown-html.tsx'
import { PageHeader } from '@/app/_components/page-header.tsx'
import { PageShell } from '@/app/_components/page-shell.tsx'
import { SignupForm } from '@/app/_components/signup-form.tsx'
import { getContentPages, pageMetadata } from '@/lib/pages/content-pages.ts'
import { pricingStructuredData } from '@/lib/pages/structured-data.ts'
import { getSite } from '@/lib/site.ts'
import { getWebMcpPageTools } from '@/lib/webmcp/page-tools.ts'

export function generateMetadata(): Metadata {
  return pageMetadata('pricing')
}

export default function PricingPage() {
  const page = getContentPages().pricing
  return (
    <PageShell path="/pricing">
      <JsonLd data={pricingStructuredData(getSite(), getContentPages())} />
      <div className="container page">
        <PageHeader title={page.title} lead={page.description} />
        <ul className="plans" aria-label="Plans">
          {page.plans.map((plan) => (
            <li className="plan" key={plan.id} id={`plan-${plan.id}`}>
              <h2 className="plan-name">{plan.name}</h2>
              <p className="plan-price">
                <span className="price">{plan.price}</span> <span className="price-note">{plan.priceNote}</span>
              </p>
              <p className="plan-summary">{plan.summary}</p>
              <ul className="plan-features">
                {plan.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
              <a className="button" href={plan.ctaHref}>
                {plan.ctaLabel}
              </a>
            </li>
          ))}
        </ul>
        <MarkdownHtml html={page.body.introHtml} className="prose plans-note" />
        <SignupForm form={getWebMcpPageTools().signupForm} />
        <MarkdownHtml html={page.body.sectionsHtml.join('\n')} />
      </div>
    </PageShell>
  )
}
