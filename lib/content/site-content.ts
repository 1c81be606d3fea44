/**
 * The site's content as the pages, documents and API bodies use it: the checked files of `content/`
 * (their frontmatter and Markdown body), the placeholders a body may use, filled in per deployment by
 * `fillTemplate`, and the name of the build's snapshot. What reads and checks the files is
 * lib/content/parse.ts; what serves them, lib/content/load.ts.
 */
import type { PublicResourceId } from '../contract/constants.ts'
import { CONTRACT_TEMPLATE_VALUES, type ContractPlaceholder } from './contract-values.ts'
import type { z } from 'zod'
import type {
  ContactFrontmatterSchema,
  HomeFrontmatterSchema,
  LoginFrontmatterSchema,
  PageFrontmatterSchema,
  PricingFrontmatterSchema,
  ResourceFrontmatterSchema,
  SkillFrontmatterSchema,
} from './frontmatter.ts'

export interface ContentFile<T> {
  /** Path relative to the project root, e.g. `content/pages/pricing.md`. */
  file: string
  data: T
  /** Markdown body, placeholders not yet filled in. */
  body: string
}

export interface SiteContent {
  home: ContentFile<z.infer<typeof HomeFrontmatterSchema>>
  developers: ContentFile<z.infer<typeof PageFrontmatterSchema>>
  resources: Record<PublicResourceId, ContentFile<z.infer<typeof ResourceFrontmatterSchema>>>
  pricing: ContentFile<z.infer<typeof PricingFrontmatterSchema>>
  contact: ContentFile<z.infer<typeof ContactFrontmatterSchema>>
  login: ContentFile<z.infer<typeof LoginFrontmatterSchema>>
  /** The Agent Skill teaching agents this surface (served as SKILL.md, listed in the skills index). */
  skill: ContentFile<z.infer<typeof SkillFrontmatterSchema>>
}

/** Placeholders a body may use, written `{{name}}`: the deployment's URLs and names, then the contract's numbers. */
const DEPLOYMENT_VARIABLES = ['base_url', 'app_url', 'service'] as const
export type TemplateValues = Record<(typeof DEPLOYMENT_VARIABLES)[number], string> & typeof CONTRACT_TEMPLATE_VALUES
export const TEMPLATE_VARIABLES: ReadonlyArray<keyof TemplateValues> = [
  ...DEPLOYMENT_VARIABLES,
  ...(Object.keys(CONTRACT_TEMPLATE_VALUES) as ContractPlaceholder[]),
]

export const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g

export function fillTemplate(body: string, values: TemplateValues): string {
  return body.replace(PLACEHOLDER, (_, name: keyof TemplateValues) => values[name])
}

export class ContentError extends Error {
  override name = 'ContentError'
}

/**
 * The validated content as `npm run build` left it (scripts/prebuild.ts), relative to the project root:
 * every request of a deployment answers from the same content, so a new instance loads this JSON
 * rather than parsing and validating content/ again. next.config.ts traces it into the functions.
 */
export const CONTENT_SNAPSHOT_FILE = 'content-snapshot.json'
