/**
 * Every page's Markdown twin, rendered from the page's model (lib/pages/page-model.ts), the same
 * blocks the HTML page renders: YAML frontmatter with the title and description, a first-line
 * blockquote pointing agents at llms.txt, then the blocks. Served at `/<page>.md` and, by
 * negotiation, at the page's own URL.
 */
import { stringify as toYaml } from 'yaml'
import { PRODUCT_NAME } from '../contract/constants.ts'
import type { Site } from '../site.ts'
import { absoluteHref, getPageModels, type PageBlock, type PageLink, type PageModel, type PageModels } from './page-model.ts'
import { NOT_FOUND_TWIN, type TwinKey } from './site-pages.ts'

function link(target: PageLink, baseUrl: string): string {
  const text = `[${target.label}](${target.markdownHref ?? absoluteHref(target.href, baseUrl)})`
  return target.note ? `${text} — ${target.note}` : text
}

function blockMarkdown(block: PageBlock, baseUrl: string): string[] {
  switch (block.kind) {
    case 'header':
      return [`# ${block.title}`, block.lead]
    case 'hero':
      return [`# ${block.heading}`, block.lead, block.tagline, block.actions.map((action) => `- ${link(action, baseUrl)}`).join('\n')]
    case 'markdown':
      return [block.markdown]
    case 'plans':
      return [
        `## ${block.label}`,
        ...block.plans.flatMap((plan) => [
          `### ${plan.name}: ${plan.price}, ${plan.priceNote}`,
          plan.summary,
          plan.features.map((feature) => `- ${feature}`).join('\n'),
          link({ label: plan.ctaLabel, href: plan.ctaHref }, baseUrl),
        ]),
      ]
    case 'cards':
      return block.cards.flatMap((card) => [`## ${card.heading}`, card.text, link(card.link, baseUrl)])
    case 'links':
      return [block.links.map((target) => `- ${link(target, baseUrl)}`).join('\n')]
  }
}

/** The page's content as Markdown, without the frontmatter and the pointer to llms.txt. */
export function renderPageBody(site: Site, page: PageModel): string {
  return page.blocks
    .flatMap((block) => blockMarkdown(block, site.config.baseUrl))
    .map((part) => part.trim())
    .filter(Boolean)
    .join('\n\n')
    .replace(/\n{3,}/g, '\n\n')
    .concat('\n')
}

export function buildPageMarkdown(site: Site, key: TwinKey, pages: PageModels = getPageModels()): string {
  const page = pages[key]
  const pageUrl = key === NOT_FOUND_TWIN ? null : site.urls.page(key)
  const about = pageUrl ? `This is the Markdown version of ${pageUrl}.` : `This address has no page on the ${PRODUCT_NAME} site.`
  return [
    '---',
    toYaml({ title: page.title, description: page.description }, { lineWidth: 0 }).trimEnd(),
    '---',
    `> ${about} For the index of this site for AI agents, read ${site.urls.llms}.`,
    '',
    renderPageBody(site, page),
  ].join('\n')
}
