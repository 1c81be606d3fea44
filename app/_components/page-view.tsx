import { EMPTY_FORM, type LeadFormState } from '@/lib/leads/form-view.ts'
import { renderMarkdown } from '@/lib/pages/markdown.ts'
import type { PageBlock, PageCard, PageLink, PageModel, PlanView } from '@/lib/pages/page-model.ts'
import { getSite } from '@/lib/site.ts'
import { getWebMcpPageTools } from '@/lib/pages/page-tools.ts'
import { ExecutionLoop } from './execution-loop.tsx'
import { LeadFormBlock } from './lead-form.tsx'
import { MarkdownHtml } from './markdown-html.tsx'
import { McpInstall } from './mcp-install.tsx'
import { PageHeader } from './page-header.tsx'
import { SignupForm } from './signup-form.tsx'

/**
 * A page's blocks (lib/pages/page-model.ts) as HTML; lib/pages/page-markdown.ts renders the same blocks
 * as Markdown. `leadForm`: what the sales form shows (empty on the prerendered page; the form route's
 * answers show it filled in, or a notice).
 */
export function PageView({ page, leadForm = EMPTY_FORM }: { page: PageModel; leadForm?: LeadFormState }) {
  const [first, ...rest] = page.blocks
  // The hero and the bands span the page's width; every other page sits in one column.
  if (first?.kind === 'hero') {
    return (
      <>
        <Block block={first} leadForm={leadForm} />
        {rest.map((block) => (
          <Block block={block} key={blockKey(block)} leadForm={leadForm} />
        ))}
      </>
    )
  }
  return (
    <div className="container page">
      {page.blocks.map((block) => (
        <Block block={block} key={blockKey(block)} leadForm={leadForm} />
      ))}
    </div>
  )
}

/** A block's React key: its kind and the content that tells it from the page's other blocks of that kind. */
function blockKey(block: PageBlock): string {
  switch (block.kind) {
    case 'header':
      return `header:${block.title}`
    case 'hero':
      return `hero:${block.heading}`
    case 'markdown':
      return `markdown:${block.markdown}`
    case 'plans':
      return 'plans'
    case 'cards':
      return `cards:${block.cards.map((card) => card.id).join()}`
    case 'links':
      return 'links'
    case 'signupForm':
      return 'signupForm'
    case 'leadForm':
      return 'leadForm'
    case 'mcpInstall':
      return 'mcpInstall'
  }
}

function Block({ block, leadForm }: { block: PageBlock; leadForm: LeadFormState }) {
  switch (block.kind) {
    case 'header':
      return <PageHeader title={block.title} lead={block.lead} />
    case 'hero':
      return (
        <div className="hero">
          <div className="container hero-grid">
            <div className="prose">
              <h1>{block.heading}</h1>
              <p className="hero-tagline">{block.tagline}</p>
              <Prose markdown={block.lead} className="hero-lead" />
              <p className="hero-actions">
                {block.actions.map((action) => (
                  <ButtonLink link={action} key={action.href} />
                ))}
              </p>
            </div>
            <ExecutionLoop steps={block.loop} />
          </div>
        </div>
      )
    case 'markdown':
      if (block.style === 'band') {
        return (
          <section className="band">
            <Prose markdown={block.markdown} className="container prose" />
          </section>
        )
      }
      return (
        <Prose
          markdown={block.markdown}
          className={block.style === 'note' ? 'prose plans-note' : block.style === 'index' ? 'prose developer-index' : 'prose'}
        />
      )
    case 'plans':
      return (
        <ul className="plans" aria-label={block.label}>
          {block.plans.map((plan) => (
            <Plan plan={plan} key={plan.id} />
          ))}
        </ul>
      )
    case 'cards':
      return (
        <div className="handoff">
          {block.cards.map((card) => (
            <Card card={card} key={card.id} />
          ))}
        </div>
      )
    case 'signupForm':
      return block.style === 'band' ? (
        <section className="band" aria-label="Sign up">
          <div className="container">
            <SignupForm form={getWebMcpPageTools().signupForm} />
          </div>
        </section>
      ) : (
        <SignupForm form={getWebMcpPageTools().signupForm} />
      )
    case 'leadForm':
      return (
        <div className={block.form.available ? 'contact-grid' : 'handoff'}>
          <LeadFormBlock form={block.form} state={leadForm} />
          {block.cards.map((card) => (
            <Card card={card} key={card.id} />
          ))}
        </div>
      )
    case 'mcpInstall':
      return <McpInstall mcpUrl={block.mcpUrl} markdownPath={block.markdownPath} links={block.links} />
    case 'links':
      return (
        <ul className="link-list">
          {block.links.map((link) => (
            <li key={link.href}>
              <a href={link.href}>{link.label}</a>
              {link.note ? ` — ${link.note}` : null}
            </li>
          ))}
        </ul>
      )
  }
}

/** The team's Markdown, rendered at build time with links to the site made root-relative. */
function Prose({ markdown, className }: { markdown: string; className: string }) {
  return <MarkdownHtml html={renderMarkdown(markdown, getSite().config.baseUrl)} className={className} />
}

function ButtonLink({ link }: { link: PageLink }) {
  return (
    <a className={link.secondary ? 'button button-secondary' : 'button'} href={link.href}>
      {link.label}
    </a>
  )
}

function Plan({ plan }: { plan: PlanView }) {
  return (
    <li className="plan" id={`plan-${plan.id}`}>
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
      <ButtonLink link={{ label: plan.ctaLabel, href: plan.ctaHref }} />
    </li>
  )
}

function Card({ card }: { card: PageCard }) {
  const headingId = `${card.id}-heading`
  return (
    <section className="card" id={card.id} aria-labelledby={headingId}>
      <h2 id={headingId}>{card.heading}</h2>
      <Prose markdown={card.text} className="card-text" />
      <ButtonLink link={card.link} />
    </section>
  )
}
