/** Where each content file lives: the site reads these (load.ts) and the visual editor edits them (editor-entries.ts). */
import { PUBLIC_RESOURCE_IDS, type PublicResourceId } from '../contract/constants.ts'

/** Every file the site reads, relative to the project root. */
export const CONTENT_FILES = {
  home: 'content/home.md',
  developers: 'content/developers.md',
  resource: (id: PublicResourceId) => `content/resources/${id}.md`,
  pricing: 'content/pages/pricing.md',
  contact: 'content/pages/contact.md',
  login: 'content/pages/login.md',
  skill: 'content/agent-skills/cadence-public-api.md',
} as const

export function contentFilePaths(): string[] {
  const { home, developers, resource, pricing, contact, login, skill } = CONTENT_FILES
  return [home, developers, ...PUBLIC_RESOURCE_IDS.map(resource), pricing, contact, login, skill]
}
