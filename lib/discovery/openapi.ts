/**
 * The OpenAPI 3.1.1 description of the REST surface, derived from the operation table and the zod
 * schemas of lib/contract: no JSON shape is written here by hand. Built once per deployment, with
 * the deployment's base URL as its server.
 */
import { z } from 'zod'
import { API_BASE_PATH, CONTRACT_VERSION, PRODUCT_NAME, QUOTA, SERVICE_DISPLAY_NAME } from '../contract/constants.ts'
import { AGENT_OPERATION, AGENT_OPERATIONS, operationPath, pathParameterNames, type AgentOperation } from '../contract/operations.ts'
import { OPERATION_SCHEMAS } from '../contract/operation-schemas.ts'
import { contractRegistry, JSON_SCHEMA_OPTIONS } from '../contract/schemas.ts'
import { PROBLEMS } from '../contract/problems.ts'
import type { Site } from '../site.ts'

const TAG = 'Agent Discovery'
const SCHEMA_REF = (id: string) => `#/components/schemas/${id}`

type JsonObject = Record<string, unknown>

/** JSON Schemas of every named contract schema, keyed by id, with `$ref`s into components. */
export function buildComponentSchemas(): Record<string, JsonObject> {
  const { schemas } = z.toJSONSchema(contractRegistry, { ...JSON_SCHEMA_OPTIONS, uri: SCHEMA_REF }) as { schemas: Record<string, JsonObject> }
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema
      return [id, rest]
    }),
  )
}

function schemaIdOf(schema: z.ZodType): string {
  const id = contractRegistry.get(schema)?.id
  if (!id) throw new Error('every operation response and path parameter schema must be registered in contractRegistry')
  return id
}

const header = (description: string, schema: JsonObject, example?: string | number) => ({
  description,
  required: true,
  schema,
  ...(example === undefined ? {} : { example }),
})

const ref = (kind: 'headers' | 'responses' | 'schemas', name: string) => ({ $ref: `#/components/${kind}/${name}` })

const RATE_LIMIT_RESPONSE_HEADERS = {
  'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
  'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
  'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
  'RateLimit-Policy': ref('headers', 'RateLimit-Policy'),
  RateLimit: ref('headers', 'RateLimit'),
  'API-Version': ref('headers', 'API-Version'),
}

const policyValue = `"${QUOTA.policyName}";q=${QUOTA.requestsPerWindow};w=${QUOTA.windowSeconds};burst=${QUOTA.burst}`

/** The path parameters of an operation, named by its path and typed by its input schema. */
function pathParameters(operation: AgentOperation) {
  return pathParameterNames(operation.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    description: `A stable id returned by the resource catalog (${AGENT_OPERATION.listPublicResources.operationId}).`,
    schema: ref('schemas', schemaIdOf(OPERATION_SCHEMAS[operation.operationId].input.shape[name] as z.ZodType)),
  }))
}

export function buildOpenApiDocument(site: Site): JsonObject {
  const { urls } = site
  const paths: JsonObject = {}
  for (const operation of AGENT_OPERATIONS) {
    const parameters = pathParameters(operation)
    paths[operationPath(operation.operationId)] = {
      get: {
        operationId: operation.operationId,
        summary: operation.summary,
        description: `${operation.description} HEAD is accepted too and returns the same headers.`,
        tags: [TAG],
        security: [],
        ...(parameters.length > 0 ? { parameters } : {}),
        responses: {
          '200': {
            description: operation.responseDescription,
            headers: RATE_LIMIT_RESPONSE_HEADERS,
            content: { 'application/json': { schema: ref('schemas', schemaIdOf(OPERATION_SCHEMAS[operation.operationId].response)) } },
          },
          ...(parameters.length > 0 ? { '404': ref('responses', 'ResourceNotFound') } : {}),
          '429': ref('responses', 'TooManyRequests'),
          '503': ref('responses', 'ServiceUnavailable'),
        },
      },
    }
  }

  const problemContent = (code: keyof typeof PROBLEMS) => ({
    'application/problem+json': {
      schema: ref('schemas', 'ProblemDetails'),
      example: {
        type: urls.problemType(code),
        title: PROBLEMS[code].title,
        status: PROBLEMS[code].status,
        code,
        detail: PROBLEMS[code].detail,
        resolution: PROBLEMS[code].resolution,
      },
    },
  })

  return {
    openapi: '3.1.1',
    info: {
      title: SERVICE_DISPLAY_NAME,
      version: CONTRACT_VERSION,
      summary: `Public, read-only, unauthenticated discovery API of ${PRODUCT_NAME}.`,
      description: [
        `Public agent interface of ${PRODUCT_NAME}, a goal-execution and mentoring product. It publishes product, developer and agent-integration metadata only: no private data and no writes. No API key, token or OAuth scope is needed.`,
        `Every response carries \`API-Version: ${CONTRACT_VERSION}\`. Any other path under \`${API_BASE_PATH}\`, including the base path itself, answers 404 \`agent_endpoint_not_found\`; methods other than GET and HEAD answer 405 \`method_not_allowed\`. Errors are \`application/problem+json\`.`,
        `Quota: one token bucket per client IP, shared with the MCP endpoint (${urls.mcp}): ${QUOTA.capacity} requests at once (${QUOTA.requestsPerWindow} plus a burst of ${QUOTA.burst}), refilled at ${QUOTA.requestsPerWindow} per ${QUOTA.windowSeconds} seconds.`,
        `An authenticated agent API for private data does not exist; see \`x-agent-api-authenticated\`.`,
      ].join('\n\n'),
      contact: { name: `${PRODUCT_NAME} developer relations`, url: urls.contact },
    },
    servers: [{ url: site.config.baseUrl, description: 'This deployment; the public surface is its own sandbox.' }],
    security: [],
    tags: [{ name: TAG, description: 'Public, read-only discovery operations.' }],
    externalDocs: { description: 'Developer index (Markdown)', url: urls.developers },
    paths,
    components: {
      schemas: buildComponentSchemas(),
      headers: {
        'RateLimit-Limit': header(
          `Burst capacity of the client bucket: ${QUOTA.capacity} requests at once.`,
          { type: 'integer', minimum: 0 },
          QUOTA.capacity,
        ),
        'RateLimit-Remaining': header('Requests left in the bucket now.', { type: 'integer', minimum: 0 }, QUOTA.capacity - 1),
        'RateLimit-Reset': header(
          'Delta-seconds: on a 2xx, until the bucket is full again; on a 429, until the next request is allowed (equal to Retry-After).',
          { type: 'integer', minimum: 0 },
          1,
        ),
        'RateLimit-Policy': header('Sustained policy as a structured field.', { type: 'string' }, policyValue),
        RateLimit: header(
          'Remaining quota and reset as one structured field.',
          { type: 'string' },
          `"${QUOTA.policyName}";r=${QUOTA.capacity - 1};t=1`,
        ),
        'API-Version': header('Date-based contract version.', { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, CONTRACT_VERSION),
        'Retry-After': header('Seconds to wait before retrying.', { type: 'integer', minimum: 1 }, 1),
      },
      responses: {
        ResourceNotFound: {
          description: `No public resource has this id (\`agent_resource_not_found\`): list ${operationPath('listPublicResources')} and retry with a returned id.`,
          content: problemContent('agent_resource_not_found'),
        },
        TooManyRequests: {
          description: 'The client address used its quota (`rate_limit_exceeded`).',
          headers: { 'Retry-After': ref('headers', 'Retry-After'), ...RATE_LIMIT_RESPONSE_HEADERS },
          content: problemContent('rate_limit_exceeded'),
        },
        ServiceUnavailable: {
          description:
            'The platform capability `public_agent_access` is disabled (`public_agent_access_disabled`); discovery documents stay readable.',
          headers: {
            'Retry-After': {
              ...header(
                'Suggested minimum delay, in seconds, before checking the rollout state again.',
                { type: 'integer', minimum: 1 },
                site.config.disabledRetryAfterSeconds,
              ),
            },
          },
          content: problemContent('public_agent_access_disabled'),
        },
      },
    },
    'x-agent-api-authenticated': {
      status: 'not_public',
      oauthAdvertised: false,
      description: 'An authenticated agent API for private data does not exist and is not offered; no OAuth scheme is advertised.',
    },
  }
}
