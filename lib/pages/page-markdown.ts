/**
 * Every page's Markdown twin, from the same views the HTML pages render (lib/pages/content-pages.ts):
 * YAML frontmatter with the title and description, a first-line blockquote pointing agents at
 * llms.txt, then the page's content. Served at `/<page>.md` and, by negotiation, at the page's own URL.
 */
import { stringify as toYaml } from 'yaml'
import { PRODUCT_NAME } from '../contract/constants.ts'
import { buildMcpInstallLinks } from '../discovery/mcp-documents.ts'
import type { Site } from '../site.ts'
import { buildWebMcpPageTools, SIGNUP_FORM_PAGES, webMcpToolNames } from '../webmcp/page-tools.ts'
import { absoluteHref, getContentPages, NOT_FOUND_PAGE, type ContentPages, type PlanView } from './content-pages.ts'
import type { PageKey, TwinKey } from './site-pages.ts'

function document(site: Site, frontmatter: { title: string; description: string }, pageUrl: string | null, body: string[]): string {
  const about = pageUrl ? `This is the Markdown version of ${pageUrl}.` : `This address has no page on the ${PRODUCT_NAME} site.`
  return [
    '---',
    toYaml({ title: frontmatter.title, description: frontmatter.description }, { lineWidth: 0 }).trimEnd(),
    '---',
    `> ${about} For the index of this site for AI agents, read ${site.urls.llms}.`,
    '',
    ...body,
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()
    .concat('\n')
}

function planMarkdown(plan: PlanView, baseUrl: string): string[] {
  return [
    `### ${plan.name}: ${plan.price}, ${plan.priceNote}`,
    '',
    plan.summary,
    '',
    ...plan.features.map((feature) => `- ${feature}`),
    '',
    `[${plan.ctaLabel}](${absoluteHref(plan.ctaHref, baseUrl)})`,
    '',
  ]
}

/** The WebMCP tools the page registers (lib/webmcp/page-tools.ts), named for agents that read the twin instead. */
function webMcpSection(site: Site, key: PageKey, pages: ContentPages): string[] {
  const names = webMcpToolNames(buildWebMcpPageTools(site, pages))
  const code = (name: string) => `\`${name}\``
  const scripted = names.scripted.map(code)
  const form = SIGNUP_FORM_PAGES.includes(key) ? ` Its sign-up form is the tool ${code(names.form)}.` : ''
  return [
    '',
    '## WebMCP tools on this page',
    '',
    `In a browser with WebMCP, this page registers tools for an agent acting for the visitor: ${scripted.slice(0, -1).join(', ')} and ${scripted.at(-1)}.${form}`,
    `The reads are the same as the agent API's (${site.urls.apiBase}) and the MCP server's (${site.urls.mcp}).`,
  ]
}

/** The intro (before the first `## `) and the sections of a filled page body. */
function introAndSections(markdown: string): { intro: string; sections: string } {
  const at = markdown.search(/^## /m)
  return at < 0 ? { intro: markdown.trim(), sections: '' } : { intro: markdown.slice(0, at).trim(), sections: markdown.slice(at).trim() }
}

export function buildPageMarkdown(site: Site, key: TwinKey, pages: ContentPages = getContentPages()): string {
  const { urls } = site
  switch (key) {
    case 'home': {
      const page = pages.home
      return document(site, page, urls.page('home'), [page.markdown, ...webMcpSection(site, key, pages)])
    }
    case 'pricing': {
      const page = pages.pricing
      const { intro, sections } = introAndSections(page.markdown)
      return document(site, page, urls.page('pricing'), [
        `# ${page.title}`,
        '',
        page.description,
        '',
        '## Plans',
        '',
        ...page.plans.flatMap((plan) => planMarkdown(plan, site.config.baseUrl)),
        intro,
        '',
        sections,
        ...webMcpSection(site, key, pages),
      ])
    }
    case 'contact': {
      const page = pages.contact
      return document(site, page, urls.page('contact'), [
        `# ${page.title}`,
        '',
        page.description,
        '',
        `- Email: [${page.email}](${page.mailto})`,
        `- ${page.responseTime}`,
        '',
        page.markdown,
        ...webMcpSection(site, key, pages),
      ])
    }
    case 'login': {
      const page = pages.login
      const { intro, sections } = introAndSections(page.markdown)
      const free = page.freePlanName ? ` The ${page.freePlanName} plan is free.` : ''
      return document(site, page, urls.page('login'), [
        `# ${page.title}`,
        '',
        page.description,
        '',
        intro,
        '',
        `- Already have an account? [${page.loginLabel}](${page.loginUrl}) on ${page.appHost}.`,
        `- New to ${PRODUCT_NAME}? [${page.signupLabel}](${page.signupUrl}).${free}`,
        '',
        sections,
        ...webMcpSection(site, key, pages),
      ])
    }
    case 'developers': {
      const page = pages.developers
      const install = buildMcpInstallLinks(site)
      return document(site, page, urls.page('developers'), [
        page.markdown,
        '',
        '## Install in an editor',
        '',
        `- [Add to Cursor](${install.cursor})`,
        `- [Add to VS Code](${install.vscode})`,
        ...webMcpSection(site, key, pages),
      ])
    }
    case 'not-found':
      return document(site, NOT_FOUND_PAGE, null, [
        `# ${NOT_FOUND_PAGE.title}`,
        '',
        NOT_FOUND_PAGE.description,
        '',
        `- [${PRODUCT_NAME} homepage](${urls.markdown('home')})`,
        `- [Pricing](${urls.markdown('pricing')})`,
        `- [Developer index](${urls.developers}) for the public agent API`,
        `- [llms.txt](${urls.llms}): every page and document for agents`,
      ])
  }
}
