/**
 * The discovery documents agents look for beyond the contract's own: the AI Catalog (ARD, also read
 * by Lighthouse's Agentic Browsing audits), the RFC 9727 API catalog, the Agent Skills index with its
 * one SKILL.md, and llms-full.txt. Each entry points at a document this site serves itself.
 */
import { createHash } from 'node:crypto'
import { stringify } from 'yaml'
import { CONTRACT_VERSION, PRODUCT_NAME, PUBLIC_RESOURCE_IDS, SERVICE_DISPLAY_NAME } from '../contract/constants.ts'
import { AGENT_OPERATIONS, mcpToolNames } from '../contract/operations.ts'
import { fillTemplate } from '../content/site-content.ts'
import { CONTENT_TYPES } from '../http/headers.ts'
import { renderPageBody } from '../pages/page-markdown.ts'
import { buildPageModels } from '../pages/page-model.ts'
import { SITE_PAGES, type PageKey } from '../routes/site-pages.ts'
import type { Site } from '../site.ts'
import { MCP_SERVER_DESCRIPTION } from './mcp-documents.ts'

/** ARD's media type for a SKILL.md (ard-spec, discovery types). */
const SKILL_ENTRY_TYPE = 'text/markdown; profile="urn:air:agent-skills"'
const AGENT_SKILLS_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json'
const SERVICE_KEY = PRODUCT_NAME.toLowerCase()

/**
 * `urn:air:<publisher>:cadence:<name>`: the publisher is the MCP server's reverse-DNS namespace, so a
 * deployment's identifiers stay the same across builds and name the same owner as its MCP server.
 */
function airIdentifier(site: Site, name: string): string {
  const [publisher] = site.mcpServer.name.split('/')
  return `urn:air:${publisher}:${SERVICE_KEY}:${name}`
}

/** The served SKILL.md: the skill's frontmatter (agentskills.io) and its body with placeholders filled. */
export function buildAgentSkill(site: Site): string {
  const { data, body } = site.content.skill
  return `---\n${stringify({ name: data.name, description: data.description }, { lineWidth: 0 })}---\n${fillTemplate(body, site.templateValues)}`
}

/** The REST operations by their OpenAPI operationId. */
const REST_OPERATIONS = AGENT_OPERATIONS.map((operation) => operation.operationId)

export function buildAiCatalog(site: Site) {
  const { urls, config } = site
  return {
    specVersion: '1.0',
    host: { displayName: PRODUCT_NAME, documentationUrl: urls.developers },
    entries: [
      {
        identifier: airIdentifier(site, 'mcp-server'),
        displayName: `${PRODUCT_NAME} MCP server`,
        type: CONTENT_TYPES.serverCard,
        url: urls.mcpServerCardAtEndpoint,
        description: MCP_SERVER_DESCRIPTION,
        version: CONTRACT_VERSION,
        tags: ['mcp', 'read-only', 'no-auth', 'goal-execution', 'mentoring'],
        capabilities: mcpToolNames(config.serviceName),
        representativeQueries: [
          `What is ${PRODUCT_NAME} and what does it cost?`,
          `How do I integrate with ${PRODUCT_NAME}'s public API?`,
          `What may an AI agent do with ${PRODUCT_NAME}?`,
        ],
      },
      // ARD's discovery types are agent artifacts (server and agent cards, skills, catalogs, registries);
      // any other artifact sits in a nested catalog, as ARD's own example nests a dataset, so the
      // OpenAPI description is listed inside the REST API's catalog entry with its own media type.
      {
        identifier: airIdentifier(site, 'rest-api'),
        displayName: SERVICE_DISPLAY_NAME,
        type: CONTENT_TYPES.aiCatalog,
        description: `Read-only REST API with ${PRODUCT_NAME}'s capability catalog and public resources, described by OpenAPI 3.1.1.`,
        version: CONTRACT_VERSION,
        tags: ['rest', 'openapi', 'read-only', 'no-auth'],
        capabilities: REST_OPERATIONS,
        representativeQueries: [`${PRODUCT_NAME} OpenAPI description`, `${PRODUCT_NAME} public resources and capabilities over REST`],
        data: {
          specVersion: '1.0',
          entries: [
            {
              identifier: airIdentifier(site, 'rest-api:openapi'),
              displayName: `${SERVICE_DISPLAY_NAME}: OpenAPI 3.1.1 description`,
              type: CONTENT_TYPES.openapi,
              url: urls.openapi,
              description: 'REST operations, schemas and errors.',
              version: CONTRACT_VERSION,
              capabilities: REST_OPERATIONS,
            },
          ],
        },
      },
      {
        identifier: airIdentifier(site, site.content.skill.data.name),
        displayName: `Using ${PRODUCT_NAME}'s public agent API`,
        type: SKILL_ENTRY_TYPE,
        url: urls.agentSkill,
        description: site.content.skill.data.description,
        tags: ['agent-skill', 'rest', 'mcp'],
        representativeQueries: [`How should an agent call ${PRODUCT_NAME}'s API?`, `${PRODUCT_NAME} API quota and errors`],
      },
    ],
  }
}

/** RFC 9727: one linkset context per API, the REST API and the MCP server. */
export function buildApiCatalog(site: Site) {
  const { urls } = site
  return {
    linkset: [
      {
        anchor: urls.apiBase,
        'service-desc': [{ href: urls.openapi, type: CONTENT_TYPES.openapi }],
        'service-doc': [
          { href: urls.page('developers'), type: 'text/html' },
          { href: urls.developers, type: 'text/markdown' },
        ],
        status: [{ href: urls.health, type: 'application/json' }],
      },
      {
        anchor: urls.mcp,
        'service-desc': [{ href: urls.mcpServerCardAtEndpoint, type: CONTENT_TYPES.serverCard }],
        'service-doc': [{ href: urls.developers, type: 'text/markdown' }],
      },
    ],
  }
}

const sha256Digest = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`

/** Agent Skills discovery v0.2.0: each skill with the digest of the exact bytes served at its URL. */
export function buildAgentSkillsIndex(site: Site) {
  const { data } = site.content.skill
  return {
    $schema: AGENT_SKILLS_SCHEMA,
    skills: [
      { name: data.name, type: 'skill-md', description: data.description, url: site.urls.agentSkill, digest: sha256Digest(buildAgentSkill(site)) },
    ],
  }
}

/**
 * The whole public corpus in one Markdown file (the llms-full.txt convention): every page's Markdown
 * twin, the developer index and the three resources, each under a rule with its URL.
 */
export function buildLlmsFullTxt(site: Site): string {
  const { urls, content } = site
  const part = (url: string, markdown: string) => `---\n\nSource: ${url}\n\n${markdown.trim()}\n`
  const pages = buildPageModels(site)
  // A twin without its frontmatter and its pointer to llms.txt: this file is what that pointer leads to.
  const pageBody = (key: PageKey) => renderPageBody(site, pages[key], pages)
  return [
    `# ${PRODUCT_NAME}: the public corpus\n`,
    `> Every page of ${urls.home} as Markdown, the developer index and the public resources, in one file. Index: ${urls.llms}\n`,
    ...SITE_PAGES.map((page) => part(urls.page(page.key), pageBody(page.key))),
    ...PUBLIC_RESOURCE_IDS.map((id) => part(urls.resource(id), fillTemplate(content.resources[id].body, site.templateValues))),
  ].join('\n')
}
