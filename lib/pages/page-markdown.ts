/**
 * Every page's Markdown twin, rendered from the page's model (lib/pages/page-model.ts), the same
 * blocks the HTML page renders: YAML frontmatter with the title, description, canonical URL and the
 * day the text last changed (what agents need to cite a page and judge its age), a first-line
 * blockquote pointing agents at llms.txt and the Markdown sitemap, then the blocks. Served at
 * `/<page>.md` and, by negotiation, at the page's own URL.
 */
import { stringify as toYaml } from 'yaml'
import { PRODUCT_NAME } from '../contract/constants.ts'
import type { Site } from '../site.ts'
import { buildWebMcpPageTools, webMcpToolNames } from './page-tools.ts'
import { LEAD_FORM_TOOL_NAME } from './page-script-hooks.ts'
import { absoluteHref, getPageModels, type PageBlock, type PageLink, type PageModel, type PageModels } from './page-model.ts'
import { NOT_FOUND_TWIN, type TwinKey } from '../routes/site-pages.ts'

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
    case 'signupForm':
      // Every plan's sign-up link is in the plans; the form itself is named among the page's WebMCP tools.
      return []
    case 'leadForm': {
      const cards = block.cards.flatMap((card) => [`## ${card.heading}`, card.text, link(card.link, baseUrl)])
      if (!block.form.available) return cards
      const { form } = block
      const fields = form.fields.map((field) => {
        const choices = field.options.filter((option) => option.value !== '').map((option) => option.label)
        return `- ${field.label}${field.constraints.required ? '' : ' (optional)'}${choices.length > 0 ? `: ${choices.join('; ')}` : ''}`
      })
      return [
        `## ${form.heading}`,
        `${form.intro} The page has a form for people in a browser, with these fields:`,
        fields.join('\n'),
        form.privacy,
        `Only the visitor sends it: an agent in their browser may fill it in for them to confirm; any other agent, write to [${form.email}](mailto:${form.email}) instead.`,
        ...cards,
      ]
    }
    case 'mcpInstall':
      return ['## Install in an editor', `- [Add to Cursor](${block.links.cursor})\n- [Add to VS Code](${block.links.vscode})`]
  }
}

/** The WebMCP tools the page registers (lib/pages/page-tools.ts), named for agents that read the twin instead. */
function webMcpSection(site: Site, page: PageModel, pages: PageModels): string[] {
  const names = webMcpToolNames(buildWebMcpPageTools(site, pages))
  const code = (name: string) => `\`${name}\``
  const scripted = names.scripted.map(code)
  const signup = page.blocks.some((block) => block.kind === 'signupForm') ? ` Its sign-up form is the tool ${code(names.form)}.` : ''
  const sales = page.blocks.some((block) => block.kind === 'leadForm' && block.form.available)
    ? ` Its "Talk to sales" form is the tool ${code(LEAD_FORM_TOOL_NAME)}, which an agent may fill and the visitor sends.`
    : ''
  const form = signup + sales
  return [
    '## WebMCP tools on this page',
    `In a browser with WebMCP, this page registers tools for an agent acting for the visitor: ${scripted.slice(0, -1).join(', ')} and ${scripted.at(-1)}.${form}\n` +
      `The reads are the same as the agent API's (${site.urls.apiBase}) and the MCP server's (${site.urls.mcp}).`,
  ]
}

/** The page's content as Markdown, without the frontmatter and the pointer to llms.txt. */
export function renderPageBody(site: Site, page: PageModel, pages: PageModels = getPageModels()): string {
  const tools = page.key === NOT_FOUND_TWIN ? [] : webMcpSection(site, page, pages)
  return [...page.blocks.flatMap((block) => blockMarkdown(block, site.config.baseUrl)), ...tools]
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
  // A missing address has no URL of its own to cite: the 404 names the site's homepage.
  const frontmatter = { title: page.title, description: page.description, canonical_url: pageUrl ?? site.urls.home, last_updated: page.updated }
  return [
    '---',
    toYaml(frontmatter, { lineWidth: 0 }).trimEnd(),
    '---',
    `> ${about} For the index of this site for AI agents, read ${site.urls.llms}; every page and document: ${site.urls.sitemapMarkdown}.`,
    '',
    renderPageBody(site, page, pages),
  ].join('\n')
}
