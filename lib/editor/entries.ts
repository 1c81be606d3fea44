/**
 * The visual editor's entries (keystatic-config.ts): one per file the site reads (CONTENT_FILES), with
 * the schema the content check applies to it and the words the marketing team sees for each field.
 * The labels are typed by the schema: a field on one side only is a type error, and the editor's
 * fields are built from the schema itself.
 */
import type { z } from 'zod'
import { PUBLIC_RESOURCE_IDS, type PublicResourceId } from '../contract/constants.ts'
import type {
  ContactFrontmatterSchema,
  HomeFrontmatterSchema,
  LoginFrontmatterSchema,
  PageFrontmatterSchema,
  PricingFrontmatterSchema,
  ResourceFrontmatterSchema,
  SalesFormSchema,
  SkillFrontmatterSchema,
} from '../content/frontmatter.ts'
import { CONTENT_FILES, CONTENT_SCHEMAS } from '../content/content-files.ts'

/** What a field is called in the editor and what the team is told about it. */
export interface FieldWords {
  label: string
  description?: string
  /** For lists: the words of each entry's fields (a list of plans), or of the entry itself (a list of texts). */
  entry?: Record<string, FieldWords> | FieldWords
  /** For groups of fields (the sales form and its parts): the words of each field of the group. */
  fields?: Record<string, FieldWords>
}

type FieldLabels<S extends z.ZodObject> = { [K in keyof S['shape'] & string]: FieldWords }

export interface EditorSingleton {
  key: string
  label: string
  group: 'pages' | 'agents'
  file: string
  schema: z.ZodObject
  labels: Record<string, FieldWords>
  bodyLabel: string
}

const PAGE_WORDS = {
  title: { label: 'Page title', description: 'Shown in the browser tab, search results and link previews.' },
  description: { label: 'Short description', description: 'One or two sentences for search results and link previews.' },
  updated: { label: 'Text last changed on', description: 'Set this to today whenever you change the text of this page.' },
} satisfies FieldLabels<typeof PageFrontmatterSchema>

const home: FieldLabels<typeof HomeFrontmatterSchema> = {
  ...PAGE_WORDS,
  tagline: { label: 'Tagline', description: 'The big sentence at the top of the homepage.' },
  startLabel: { label: 'Sign-up button text', description: 'The main button of the homepage (it opens the free sign-up).' },
  pricingLabel: { label: 'Pricing button text', description: 'The second button of the homepage (it opens the pricing page).' },
  loop: { label: 'Loop steps', description: 'The steps of the loop drawn on the homepage, in order (3 to 6 short words).', entry: { label: 'Step' } },
}

const pricing: FieldLabels<typeof PricingFrontmatterSchema> = {
  ...PAGE_WORDS,
  plans: {
    label: 'Plans',
    description: 'The plans on the pricing page, in the order shown.',
    entry: {
      id: { label: 'Plan code', description: 'A short code in lower case (e.g. team). Agents and links use it: change it only with the developers.' },
      name: { label: 'Plan name' },
      priceMonthlyUsd: { label: 'Price per month in US dollars', description: 'A number (0 for free). Leave it empty for "price on request".' },
      priceNote: { label: 'Price note', description: 'Shown under the price, e.g. "per active member, per month".' },
      summary: { label: 'Summary', description: 'One sentence: who the plan is for.' },
      features: { label: 'Features', description: 'What the plan includes, one line each.', entry: { label: 'Feature' } },
      cta: { label: 'Button opens', description: 'signup: the free sign-up form; contact: the contact page.' },
      ctaLabel: { label: 'Button text' },
    },
  },
}

const contact: FieldLabels<typeof ContactFrontmatterSchema> = {
  ...PAGE_WORDS,
  email: { label: 'Contact email address' },
  responseTime: { label: 'How soon we answer', description: 'e.g. "We answer within one business day."' },
  salesForm: {
    label: 'Talk to sales form',
    description: 'The words of the form on the contact page. What each field accepts is fixed by the developers.',
    fields: salesFormWords(),
  },
}

/** The words of a form field: its label and the optional help under it. */
function formFieldWords(name: string): Record<string, FieldWords> {
  return {
    label: { label: `${name}: label` },
    help: { label: `${name}: help text`, description: 'Optional: a short hint shown under the field. Leave it empty for none.' },
  }
}

/** The words of a form field whose answer is picked from a list. */
function choiceFieldWords(name: string): Record<string, FieldWords> {
  return {
    ...formFieldWords(name),
    choices: {
      label: `${name}: choices`,
      description: 'The answers offered, in order (2 to 12).',
      entry: {
        value: {
          label: 'Value kept with the lead',
          description: 'Lower-case letters, digits, "-" and "+" (e.g. 11-50). Reports and the CRM use it: change it only with the developers.',
        },
        label: { label: 'Text visitors see' },
      },
    },
  }
}

function salesFormWords(): FieldLabels<typeof SalesFormSchema> {
  return {
    heading: { label: 'Form heading' },
    intro: { label: 'Introduction', description: 'A sentence or two above the form.' },
    submitLabel: { label: 'Send button text' },
    privacy: {
      label: 'Privacy note',
      description: 'Shown under the form. {{retention_days}} is replaced by the number of days we keep what people send.',
    },
    unavailable: {
      label: 'Text when the form is off',
      description: 'Shown instead of the form where this site cannot keep messages (it then points to the email address).',
    },
    fields: {
      label: 'Form fields',
      fields: {
        name: { label: 'Name field', fields: formFieldWords('Name') },
        email: { label: 'Email field', fields: formFieldWords('Email') },
        company: { label: 'Company field', fields: formFieldWords('Company') },
        teamSize: { label: 'Team size field', fields: choiceFieldWords('Team size') },
        goal: { label: 'Goal field', fields: formFieldWords('Goal') },
        topic: { label: 'Topic field', fields: choiceFieldWords('Topic') },
        plan: {
          label: 'Plan field',
          description: "The plans listed are the pricing page's plans.",
          fields: { ...formFieldWords('Plan'), none: { label: 'Plan: "no particular plan" text' } },
        },
      },
    },
    thanks: {
      label: 'Thank-you page',
      description: 'The page people see after sending the form.',
      fields: {
        title: { label: 'Thank-you page title' },
        text: { label: 'Thank-you text' },
        backLabel: { label: 'Link back to the contact page' },
      },
    },
  }
}

const login: FieldLabels<typeof LoginFrontmatterSchema> = {
  ...PAGE_WORDS,
  loginLabel: { label: 'Log-in button text' },
  signupLabel: { label: 'Sign-up button text' },
}

const resource: FieldLabels<typeof ResourceFrontmatterSchema> = {
  id: { label: 'Resource code', description: 'Fixed: agents ask for the resource by this code. It must match the file.' },
  name: { label: 'Resource name' },
  description: { label: 'Short description', description: 'What an agent finds in this resource, in a sentence.' },
}

const skill: FieldLabels<typeof SkillFrontmatterSchema> = {
  name: { label: 'Skill name', description: 'Fixed: the skill is published under this name.' },
  description: { label: 'When to use the skill', description: 'Agents read this to decide whether to load the skill.' },
}

const RESOURCE_NAMES: Record<PublicResourceId, string> = {
  'product-overview': 'Resource: product overview',
  'developer-resources': 'Resource: developer resources',
  'agent-boundaries': 'Resource: agent boundaries',
}

export const EDITOR_SINGLETONS: readonly EditorSingleton[] = [
  {
    key: 'home',
    label: 'Homepage',
    group: 'pages',
    file: CONTENT_FILES.home,
    schema: CONTENT_SCHEMAS.home,
    labels: home,
    bodyLabel: 'Homepage text',
  },
  {
    key: 'pricing',
    label: 'Pricing',
    group: 'pages',
    file: CONTENT_FILES.pricing,
    schema: CONTENT_SCHEMAS.pricing,
    labels: pricing,
    bodyLabel: 'Text under the plans',
  },
  {
    key: 'contact',
    label: 'Contact',
    group: 'pages',
    file: CONTENT_FILES.contact,
    schema: CONTENT_SCHEMAS.contact,
    labels: contact,
    bodyLabel: 'Page text',
  },
  { key: 'login', label: 'Log in', group: 'pages', file: CONTENT_FILES.login, schema: CONTENT_SCHEMAS.login, labels: login, bodyLabel: 'Page text' },
  {
    key: 'developers',
    label: 'Developer index',
    group: 'agents',
    file: CONTENT_FILES.developers,
    schema: CONTENT_SCHEMAS.developers,
    labels: PAGE_WORDS,
    bodyLabel: 'Page text',
  },
  ...PUBLIC_RESOURCE_IDS.map((id) => ({
    key: `resource-${id}`,
    label: RESOURCE_NAMES[id],
    group: 'agents' as const,
    file: CONTENT_FILES.resource(id),
    schema: CONTENT_SCHEMAS.resource(id),
    labels: resource,
    bodyLabel: 'Resource text',
  })),
  {
    key: 'skill',
    label: 'Agent Skill',
    group: 'agents',
    file: CONTENT_FILES.skill,
    schema: CONTENT_SCHEMAS.skill,
    labels: skill,
    bodyLabel: 'Skill instructions',
  },
]
