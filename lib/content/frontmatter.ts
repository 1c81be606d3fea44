/**
 * What the marketing team may write in the frontmatter of each file under `content/`.
 * A wrong field fails `npm run build` and the tests with the file, the field and what is expected.
 */
import { z } from 'zod'
import { PUBLIC_RESOURCE_IDS } from '../contract/constants.ts'

const text = z.string().trim().min(1)
const shortText = (max: number) => text.max(max, `at most ${max} characters`)

export const PageFrontmatterSchema = z.strictObject({
  title: shortText(80),
  description: shortText(200),
})

export const HomeFrontmatterSchema = PageFrontmatterSchema.extend({
  tagline: shortText(120),
})

export const ResourceFrontmatterSchema = z.strictObject({
  id: z.enum(PUBLIC_RESOURCE_IDS),
  name: shortText(80),
  description: shortText(300),
})

export const PlanSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a lower-case slug such as "team"'),
  name: shortText(40),
  priceMonthlyUsd: z
    .number()
    .nonnegative()
    .nullable()
    .describe('0 means free; null means priced on request (contact sales)'),
  priceNote: shortText(80),
  summary: shortText(200),
  features: z.array(shortText(120)).min(1),
  cta: z.enum(['signup', 'contact']),
  ctaLabel: shortText(40),
})
export type Plan = z.infer<typeof PlanSchema>

export const PricingFrontmatterSchema = PageFrontmatterSchema.extend({
  plans: z
    .array(PlanSchema)
    .min(1)
    .refine((plans) => new Set(plans.map((plan) => plan.id)).size === plans.length, 'plan ids must be unique'),
})

export const ContactFrontmatterSchema = PageFrontmatterSchema.extend({
  email: z.email(),
  responseTime: shortText(80),
})

export const LoginFrontmatterSchema = PageFrontmatterSchema.extend({
  loginLabel: shortText(40),
  signupLabel: shortText(40),
})
