/**
 * The public agent catalog: the bodies of the four REST operations, which the MCP tools return too.
 * Pure functions of the site (settings + content), built in the form of their contract schemas without
 * parsing them, so a new instance loads no schema library (lib/on-demand.ts); the build and the tests
 * check every body against its schema (contractViolations, lib/contract/operation-schemas.ts).
 */
import {
  API_BASE_PATH,
  API_MAJOR,
  CONTRACT_VERSION,
  FUTURE_SCOPES,
  MCP_PROTOCOL_VERSION,
  MCP_TRANSPORT,
  PRIVATE_STATE_BOUNDARIES,
  PRODUCT_NAME,
  PUBLIC_RESOURCE_IDS,
  QUOTA,
  RATE_LIMIT_HEADER_NAMES,
  RESOURCE_ID_PARAMETER,
  RESOURCE_MIME_TYPE,
  SERVICE_DISPLAY_NAME,
  VERSIONING_POLICY,
  type PublicResourceId,
} from '../contract/constants.ts'
import type { AgentOperationId } from '../contract/operations.ts'
import type { AgentCapabilities, AgentHealth, AgentResource, AgentResourceDescriptor, AgentResourceList } from '../contract/schemas.ts'
import { fillTemplate } from '../content/site-content.ts'
import { perSite, type Site } from '../site.ts'

export interface AgentCatalog {
  health: AgentHealth
  capabilities: AgentCapabilities
  resourceList: AgentResourceList
  resources: Record<PublicResourceId, AgentResource>
}

const PUBLIC_POSTURE = {
  version: CONTRACT_VERSION,
  access: 'public_read_only',
  authenticationRequired: false,
  privateUserDataExposed: false,
  writesSupported: false,
} as const

export function resourceUri(serviceName: string, id: PublicResourceId): string {
  return `${serviceName}://public/${id}`
}

export function buildAgentCatalog(site: Site): AgentCatalog {
  const { urls, content, config } = site
  const descriptors: AgentResourceDescriptor[] = PUBLIC_RESOURCE_IDS.map((id) => {
    const { data } = content.resources[id]
    return {
      id,
      uri: resourceUri(config.serviceName, id),
      name: data.name,
      description: data.description,
      mimeType: RESOURCE_MIME_TYPE,
      href: urls.resource(id),
    }
  })
  const resources = Object.fromEntries(
    descriptors.map((descriptor) => [
      descriptor.id,
      {
        ...descriptor,
        content: fillTemplate(content.resources[descriptor.id].body, site.templateValues),
      },
    ]),
  ) as Record<PublicResourceId, AgentResource>

  const health: AgentHealth = {
    service: SERVICE_DISPLAY_NAME,
    status: 'ok',
    ...PUBLIC_POSTURE,
    openapi: urls.openapi,
    mcp: { endpoint: urls.mcp, transport: MCP_TRANSPORT, protocolVersion: MCP_PROTOCOL_VERSION },
  }

  const plans = content.pricing.data.plans
  const capabilities: AgentCapabilities = {
    service: SERVICE_DISPLAY_NAME,
    product: PRODUCT_NAME,
    ...PUBLIC_POSTURE,
    endpoints: {
      health: urls.health,
      capabilities: urls.capabilities,
      resources: urls.resources,
      openapi: urls.openapi,
      mcp: urls.mcp,
      mcpServerCard: urls.mcpServerCard,
      mcpManifest: urls.mcpManifest,
      llmsTxt: urls.llms,
      developers: urls.developers,
      sitemap: urls.sitemap,
      protectedResourceMetadata: urls.protectedResourceMetadata,
    },
    resources: descriptors,
    boundaries: Object.fromEntries(PRIVATE_STATE_BOUNDARIES.map((name) => [name, 'not_exposed'])),
    versioning: {
      scheme: VERSIONING_POLICY.scheme,
      currentVersion: CONTRACT_VERSION,
      currentMajor: API_MAJOR,
      basePath: API_BASE_PATH,
      policyUrl: urls.docsSection('versioning'),
      minimumSunsetNoticeDays: VERSIONING_POLICY.minimumSunsetNoticeDays,
      breakingChangePolicy: VERSIONING_POLICY.breakingChangePolicy,
      deprecatedVersions: [],
    },
    authorization: {
      model: 'public_read_only',
      authenticationRequired: false,
      oauthAuthorizationServer: null,
      scopesRequired: [],
      documentation: urls.docsSection('authentication'),
      futureScopes: FUTURE_SCOPES.map((scope) => ({ ...scope })),
    },
    rateLimit: {
      requestsPerWindow: QUOTA.requestsPerWindow,
      windowSeconds: QUOTA.windowSeconds,
      burst: QUOTA.burst,
      scope: QUOTA.scope,
      headers: [...RATE_LIMIT_HEADER_NAMES],
      retryAfterOn429: true,
      documentation: urls.docsSection('rate-limits'),
    },
    onboarding: {
      zeroAuthAccess: true,
      apiKeyRequired: false,
      selfServeSignup: urls.signup,
      freeTierAvailable: plans.some((plan) => plan.priceMonthlyUsd === 0),
      pricing: urls.pricing,
      sandbox: {
        available: true,
        description:
          'The public surface is its own sandbox: every operation is read-only and unauthenticated, so there is no separate test host or test credential.',
        baseUrl: urls.apiBase,
      },
      contactSalesRequired: !plans.some((plan) => plan.cta === 'signup'),
    },
  }

  return {
    health,
    capabilities,
    resourceList: { resources: descriptors },
    resources,
  }
}

/** The catalog of this deployment, built on first use. */
export const getAgentCatalog = perSite(buildAgentCatalog)

/** One answer of an operation: the arguments (REST path parameters, MCP tool arguments) and the body. */
export interface OperationAnswer {
  args: Readonly<Record<string, string>>
  body: unknown
}

/**
 * Every answer of every operation of the contract: the one map the REST router and the MCP tools
 * serve from. Keyed by operationId, so an operation added to AGENT_OPERATIONS without its answers
 * here fails to compile.
 */
export function operationAnswers(catalog: AgentCatalog): Record<AgentOperationId, readonly OperationAnswer[]> {
  return {
    getAgentHealth: [{ args: {}, body: catalog.health }],
    getPublicCapabilities: [{ args: {}, body: catalog.capabilities }],
    listPublicResources: [{ args: {}, body: catalog.resourceList }],
    getPublicResource: PUBLIC_RESOURCE_IDS.map((id) => ({ args: { [RESOURCE_ID_PARAMETER]: id }, body: catalog.resources[id] })),
  }
}
