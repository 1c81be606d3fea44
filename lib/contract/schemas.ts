/**
 * The JSON shapes of the contract (section 2), defined once with zod. REST handlers, MCP tools,
 * the OpenAPI document and the tests all derive from these. Objects are strict unless the contract
 * says extra properties are allowed. `.describe()` text is published to agents in OpenAPI and MCP.
 */
import { z } from 'zod'
import {
  API_BASE_PATH,
  API_MAJOR,
  CONTRACT_VERSION,
  MCP_PROTOCOL_VERSION,
  PRODUCT_NAME,
  MCP_TRANSPORT,
  PUBLIC_RESOURCE_IDS,
  QUOTA,
  RESOURCE_ID_PARAMETER,
  RESOURCE_MIME_TYPE,
  VERSIONING_POLICY,
} from './constants.ts'

/** Registry of named schemas: each becomes `#/components/schemas/<id>` in OpenAPI. */
export const contractRegistry = z.registry<{ id: string; description?: string }>()

/**
 * How a contract schema becomes JSON Schema, for OpenAPI and the MCP tools alike: draft 2020-12, the
 * answer's shape, and `additionalProperties: true` where extra properties are allowed. zod writes `{}`
 * there, which means the same but which some validators and code generators read as "unspecified".
 */
export const JSON_SCHEMA_OPTIONS = {
  target: 'draft-2020-12',
  io: 'output',
  unrepresentable: 'throw',
  override: ({ jsonSchema }) => {
    const extra = jsonSchema.additionalProperties
    if (typeof extra === 'object' && extra !== null && Object.keys(extra).length === 0) jsonSchema.additionalProperties = true
  },
} as const satisfies z.core.ToJSONSchemaParams

const absoluteUrl = () => z.url({ protocol: /^https?$/ })
/** RFC 9110 IMF-fixdate, e.g. `Wed, 01 Sep 2027 00:00:00 GMT`. */
const imfFixdate = () =>
  z.string().regex(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/)

const PublicResourceIdSchema = z.enum(PUBLIC_RESOURCE_IDS).describe('Stable public resource id, as returned by the resource catalog.')
contractRegistry.add(PublicResourceIdSchema, { id: 'PublicResourceId' })

const descriptorShape = {
  id: PublicResourceIdSchema,
  uri: z
    .string()
    .regex(/^[a-z][a-z0-9+.-]*:\/\/public\/[a-z-]+$/)
    .describe('MCP resource URI, `<service>://public/<id>`.'),
  name: z.string().min(1).describe('Human-readable resource name.'),
  description: z.string().min(1).describe('What the resource covers.'),
  mimeType: z.literal(RESOURCE_MIME_TYPE).describe('Always `text/markdown`.'),
  href: absoluteUrl().optional().describe('Absolute REST URL of the resource.'),
}

const AgentResourceDescriptorSchema = z.looseObject(descriptorShape)
contractRegistry.add(AgentResourceDescriptorSchema, {
  id: 'AgentResourceDescriptor',
  description: 'A public resource in the catalog. Extra properties may appear.',
})

export const AgentResourceListSchema = z.strictObject({
  resources: z.array(AgentResourceDescriptorSchema).min(1),
})
contractRegistry.add(AgentResourceListSchema, { id: 'AgentResourceList', description: 'The public resource catalog.' })

export const AgentResourceSchema = z.strictObject({
  ...descriptorShape,
  content: z.string().min(1).describe('The resource as Markdown.'),
})
contractRegistry.add(AgentResourceSchema, {
  id: 'AgentResource',
  description: 'A public resource descriptor plus its Markdown content.',
})

const McpMetadataSchema = z.strictObject({
  endpoint: absoluteUrl().describe('Absolute URL of the MCP endpoint (POST only).'),
  transport: z.literal(MCP_TRANSPORT),
  protocolVersion: z.literal(MCP_PROTOCOL_VERSION).describe('Current MCP protocol version.'),
})
contractRegistry.add(McpMetadataSchema, { id: 'McpMetadata' })

const publicPosture = {
  version: z.literal(CONTRACT_VERSION).describe('Date-based contract version.'),
  access: z.literal('public_read_only'),
  authenticationRequired: z.literal(false),
  privateUserDataExposed: z.literal(false),
  writesSupported: z.literal(false),
}

export const AgentHealthSchema = z.strictObject({
  service: z.string().min(1).describe('Display name of the public agent API.'),
  status: z.literal('ok'),
  ...publicPosture,
  openapi: absoluteUrl().describe('Location of the OpenAPI description.'),
  mcp: McpMetadataSchema,
})
contractRegistry.add(AgentHealthSchema, { id: 'AgentHealth', description: 'Liveness and posture of the public surface.' })

const DeprecatedVersionSchema = z.strictObject({
  major: z.string(),
  deprecationDate: imfFixdate(),
  sunsetDate: imfFixdate(),
  successor: z.string(),
})
contractRegistry.add(DeprecatedVersionSchema, { id: 'DeprecatedVersion' })

const AgentVersioningSchema = z.looseObject({
  scheme: z.literal(VERSIONING_POLICY.scheme),
  currentVersion: z.literal(CONTRACT_VERSION),
  currentMajor: z.literal(API_MAJOR),
  basePath: z.literal(API_BASE_PATH),
  policyUrl: absoluteUrl(),
  minimumSunsetNoticeDays: z.literal(VERSIONING_POLICY.minimumSunsetNoticeDays),
  breakingChangePolicy: z.literal(VERSIONING_POLICY.breakingChangePolicy),
  deprecatedVersions: z.array(DeprecatedVersionSchema),
})
contractRegistry.add(AgentVersioningSchema, { id: 'AgentVersioning' })

const FutureScopeSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  grantable: z.literal(false),
})
contractRegistry.add(FutureScopeSchema, { id: 'FutureScope' })

const AgentAuthorizationSchema = z.looseObject({
  model: z.literal('public_read_only'),
  authenticationRequired: z.literal(false),
  oauthAuthorizationServer: absoluteUrl().nullable().describe('Authorization server metadata URL; null while none is published.'),
  scopesRequired: z.array(z.string()).max(0),
  documentation: absoluteUrl(),
  futureScopes: z.array(FutureScopeSchema),
})
contractRegistry.add(AgentAuthorizationSchema, { id: 'AgentAuthorization' })

const AgentRateLimitSchema = z.looseObject({
  requestsPerWindow: z.literal(QUOTA.requestsPerWindow),
  windowSeconds: z.literal(QUOTA.windowSeconds),
  burst: z.literal(QUOTA.burst),
  scope: z.literal(QUOTA.scope),
  headers: z.array(z.string()),
  retryAfterOn429: z.boolean(),
  documentation: absoluteUrl(),
})
contractRegistry.add(AgentRateLimitSchema, { id: 'AgentRateLimit' })

const AgentSandboxSchema = z.strictObject({
  available: z.boolean(),
  description: z.string(),
  baseUrl: absoluteUrl(),
})
contractRegistry.add(AgentSandboxSchema, { id: 'AgentSandbox' })

const AgentOnboardingSchema = z.looseObject({
  zeroAuthAccess: z.boolean(),
  apiKeyRequired: z.boolean(),
  selfServeSignup: absoluteUrl(),
  freeTierAvailable: z.boolean(),
  pricing: absoluteUrl(),
  sandbox: AgentSandboxSchema,
  contactSalesRequired: z.boolean(),
})
contractRegistry.add(AgentOnboardingSchema, { id: 'AgentOnboarding' })

export const AgentCapabilitiesSchema = z.strictObject({
  service: z.string().min(1),
  product: z.literal(PRODUCT_NAME),
  ...publicPosture,
  endpoints: z.record(z.string(), absoluteUrl()).describe('Canonical discovery endpoints by name.'),
  resources: z.array(AgentResourceDescriptorSchema).min(1),
  boundaries: z.record(z.string(), z.string()).describe('Private product state and its exposure: `not_exposed`.'),
  versioning: AgentVersioningSchema,
  authorization: AgentAuthorizationSchema,
  rateLimit: AgentRateLimitSchema,
  onboarding: AgentOnboardingSchema,
})
contractRegistry.add(AgentCapabilitiesSchema, {
  id: 'AgentCapabilities',
  description: 'The public capability catalog: endpoints, resources, boundaries, versioning, authorization, limits, onboarding.',
})

export const ProblemDetailsSchema = z.strictObject({
  type: z.string().min(1).meta({ format: 'uri-reference' }).describe('Absolute URI identifying the problem type.'),
  title: z.string(),
  status: z.int().min(400).max(599),
  code: z.string().describe('Stable machine code.'),
  detail: z.string().describe('What happened, for a human.'),
  resolution: z.string().describe('What the client should do next.'),
  instance: z.string().meta({ format: 'uri-reference' }).optional(),
})
contractRegistry.add(ProblemDetailsSchema, {
  id: 'ProblemDetails',
  description: 'RFC 9457 problem details (`application/problem+json`).',
})

/** Arguments of the tool that reads one resource, and the REST path parameter of the same operation. */
export const ReadPublicResourceInputSchema = z.strictObject({ [RESOURCE_ID_PARAMETER]: PublicResourceIdSchema })
/** Arguments of the tools that take none. */
export const NoArgumentsSchema = z.strictObject({})

export type AgentResourceDescriptor = z.infer<typeof AgentResourceDescriptorSchema>
export type AgentResourceList = z.infer<typeof AgentResourceListSchema>
export type AgentResource = z.infer<typeof AgentResourceSchema>
export type AgentHealth = z.infer<typeof AgentHealthSchema>
export type AgentCapabilities = z.infer<typeof AgentCapabilitiesSchema>
export type ProblemDetails = z.infer<typeof ProblemDetailsSchema>
