/**
 * `.example` domains (RFC 2606) are placeholders: fine while developing, wrong on a production site,
 * where a sign-up link or a contact address would lead nowhere. `npm run build` warns when a
 * production build (Vercel production, or a self-hosted https base URL) still names one.
 */
import type { SiteConfig } from '../env.ts'
import type { SiteContent } from './site-content.ts'

const PLACEHOLDER_DOMAIN = /\b(?:[a-z0-9-]+\.)+example\b/gi
const LOOPBACK_HOST = /^(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])$/

function isProductionBuild(config: Pick<SiteConfig, 'deployment' | 'baseUrl'>): boolean {
  if (config.deployment !== 'local') return config.deployment === 'production'
  const url = new URL(config.baseUrl)
  return url.protocol === 'https:' && !LOOPBACK_HOST.test(url.hostname)
}

/** Where each placeholder domain appears: a setting's name or a content file. */
function placeholderDomains(config: Pick<SiteConfig, 'baseUrl' | 'appUrl'>, content: SiteContent): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  const scan = (text: string, where: string) => {
    for (const [domain] of text.matchAll(PLACEHOLDER_DOMAIN)) {
      const places = found.get(domain.toLowerCase()) ?? new Set<string>()
      places.add(where)
      found.set(domain.toLowerCase(), places)
    }
  }
  scan(config.baseUrl, 'BASE_URL')
  scan(config.appUrl, 'APP_URL')
  const files = [
    content.home,
    content.developers,
    ...Object.values(content.resources),
    content.pricing,
    content.contact,
    content.login,
    content.skill,
  ]
  for (const file of files) scan(`${JSON.stringify(file.data)}\n${file.body}`, file.file)
  return found
}

export function placeholderDomainWarning(config: Pick<SiteConfig, 'deployment' | 'baseUrl' | 'appUrl'>, content: SiteContent): string | undefined {
  if (!isProductionBuild(config)) return undefined
  const found = placeholderDomains(config, content)
  if (found.size === 0) return undefined
  const lines = [...found].map(([domain, places]) => `  ${domain}: ${[...places].join(', ')}`)
  return ['[content] Warning: this production build names placeholder domains (.example), which lead nowhere; set the real ones:', ...lines].join(
    '\n',
  )
}
