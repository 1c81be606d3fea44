/**
 * Every page's Markdown twin, from the same views the HTML pages render (lib/pages/content-pages.ts):
 * YAML frontmatter with the title, description, canonical URL and the day the text last changed (what
 * agents need to cite a page and judge its age), a first-line blockquote pointing agents at llms.txt
 * and the Markdown sitemap, then the page's content. Served at `/<page>.md` and, by negotiation, at
 * the page's own URL.
 */
import { stringify as toYaml } from 'yaml'
import { PRODUCT_NAME } from '../contract/constants.ts'
import type { Site } from '../site.ts'
import { absoluteHref, getContentPages, NOT_FOUND_PAGE, type ContentPages, type PlanView } from './content-pages.ts'
import type { TwinKey } from './site-pages.ts'

interface TwinText {
  title: string
  description: string
  updated: string
}

/** `pageUrl`: the page this twin represents; null for the Markdown 404, which answers for no page. */
function document(site: Site, text: TwinText, pageUrl: string | null, body: string[]): string {
  const about = pageUrl ? `This is the Markdown version of ${pageUrl}.` : `This address has no page on the ${PRODUCT_NAME} site.`
  // A missing address has no URL of its own to cite: the 404 names the site's homepage.
  const frontmatter = { title: text.title, description: text.description, canonical_url: pageUrl ?? site.urls.home, last_updated: text.updated }
  return [
    '---',
    toYaml(frontmatter, { lineWidth: 0 }).trimEnd(),
    '---',
    `> ${about} For the index of this site for AI agents, read ${site.urls.llms}; every page and document: ${site.urls.sitemapMarkdown}.`,
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
      return document(site, page, urls.page('home'), [page.markdown])
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
      ])
    }
    case 'developers': {
      const page = pages.developers
      return document(site, page, urls.page('developers'), [page.markdown])
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
        `- [llms.txt](${urls.llms}): the index of this site for agents`,
        `- [Sitemap](${urls.sitemapMarkdown}): every page and document`,
      ])
  }
}
