/**
 * The REST surface under /api/agent/v1 as one web-standard handler: route by exact path, answer
 * CORS preflights, admit the request (rollout state, quota), then serve a precomputed body.
 * Every other path under the prefix is 404 `agent_endpoint_not_found`; other methods are 405.
 * It never throws for request input: any answer is one of the contract's.
 */
import { admitAgentRequest } from '../admission.ts'
import { API_BASE_PATH } from '../contract/constants.ts'
import type { ProblemCode } from '../contract/problems.ts'
import { isCorsPreflight, PREFLIGHT_HEADERS } from '../http/cors.ts'
import { API_HEADERS, CONTENT_TYPES, READ_METHODS, type HeaderList } from '../http/headers.ts'
import { buildProblem, prepareJson, respond, respondProblem, type PreparedBody } from '../http/respond.ts'
import { perSite } from '../site.ts'
import { getAgentCatalog, isPublicResourceId } from './catalog.ts'

const ALLOW_HEADERS: HeaderList = [['Allow', READ_METHODS]]

type Route = { kind: 'body'; body: PreparedBody } | { kind: 'unknown-resource' } | { kind: 'unknown-endpoint' }

interface RestBodies {
  byPath: Map<string, PreparedBody>
  problemTypeUrl: (code: string) => string
  baseUrl: string
}

const getRestBodies = perSite((site): RestBodies => {
  const catalog = getAgentCatalog()
  const byPath = new Map<string, PreparedBody>([
    [`${API_BASE_PATH}/health`, prepareJson(catalog.health)],
    [`${API_BASE_PATH}/capabilities`, prepareJson(catalog.capabilities)],
    [`${API_BASE_PATH}/resources`, prepareJson(catalog.resourceList)],
  ])
  for (const [id, resource] of Object.entries(catalog.resources)) {
    byPath.set(`${API_BASE_PATH}/resources/${id}`, prepareJson(resource))
  }
  return { byPath, problemTypeUrl: site.urls.problemType, baseUrl: site.config.baseUrl }
})

const RESOURCE_PREFIX = `${API_BASE_PATH}/resources/`

function matchRoute(pathname: string, bodies: RestBodies): Route {
  const body = bodies.byPath.get(pathname)
  if (body) return { kind: 'body', body }
  if (pathname.startsWith(RESOURCE_PREFIX)) {
    const segment = pathname.slice(RESOURCE_PREFIX.length)
    if (segment && !segment.includes('/')) {
      const id = safeDecode(segment)
      const decodedBody = id !== null && isPublicResourceId(id) ? bodies.byPath.get(RESOURCE_PREFIX + id) : undefined
      return decodedBody ? { kind: 'body', body: decodedBody } : { kind: 'unknown-resource' }
    }
  }
  return { kind: 'unknown-endpoint' }
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}


/** Handles any request whose path is under /api/agent/v1. */
export async function handleAgentRestRequest(request: Request): Promise<Response> {
  const bodies = getRestBodies()
  const pathname = new URL(request.url).pathname
  if (isCorsPreflight(request.method, request.headers)) return respond(request, 204, null, null, API_HEADERS, PREFLIGHT_HEADERS)

  const admission = await admitAgentRequest(request)
  if (!admission.admitted) {
    return problem(request, bodies, admission.reason, pathname, admission.headers)
  }
  const route = matchRoute(pathname, bodies)
  if (route.kind === 'unknown-endpoint') return problem(request, bodies, 'agent_endpoint_not_found', pathname, admission.headers)
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return problem(request, bodies, 'method_not_allowed', pathname, admission.headers, ALLOW_HEADERS)
  }
  if (route.kind === 'unknown-resource') return problem(request, bodies, 'agent_resource_not_found', pathname, admission.headers)
  return respond(request, 200, route.body, CONTENT_TYPES.json, API_HEADERS, admission.headers)
}

function problem(request: Request, bodies: RestBodies, code: ProblemCode, pathname: string, ...headers: HeaderList[]): Response {
  return respondProblem(request, buildProblem(code, bodies.problemTypeUrl, { instance: bodies.baseUrl + pathname }), ...headers)
}

