/**
 * Where each content file lives and the schema the content check applies to it: the site reads these
 * (parse.ts) and the visual editor edits them (lib/editor/entries.ts), both with these schemas, so that the
 * editor refuses what the build would.
 */
import { PUBLIC_RESOURCE_IDS, type PublicResourceId } from '../contract/constants.ts'
import { SKILL_NAME } from '../routes/document-paths.ts'
import {
  ContactFrontmatterSchema,
  HomeFrontmatterSchema,
  LoginFrontmatterSchema,
  PageFrontmatterSchema,
  PricingFrontmatterSchema,
  ResourceFrontmatterSchema,
  SkillFrontmatterSchema,
} from './frontmatter.ts'

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

/**
 * Each file's frontmatter schema, with what the file's place fixes: a resource's `id` is its file name,
 * and the skill is served under its `name` (lib/routes/document-paths.ts). Another value is an error at
 * that field's line, in the editor as in the content check.
 */
export const CONTENT_SCHEMAS = {
  home: HomeFrontmatterSchema,
  developers: PageFrontmatterSchema,
  resource: (id: PublicResourceId) =>
    ResourceFrontmatterSchema.extend({
      id: ResourceFrontmatterSchema.shape.id.refine((given) => given === id, {
        error: (issue) => `expected "${id}" (the file name), got "${String(issue.input)}"`,
      }),
    }),
  pricing: PricingFrontmatterSchema,
  contact: ContactFrontmatterSchema,
  login: LoginFrontmatterSchema,
  skill: SkillFrontmatterSchema.extend({
    name: SkillFrontmatterSchema.shape.name.refine((given) => given === SKILL_NAME, {
      error: (issue) => `expected "${SKILL_NAME}" (the skill's published path), got "${String(issue.input)}"`,
    }),
  }),
} as const
