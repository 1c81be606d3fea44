/**
 * The REST surface under /api/agent/v1 as one web-standard handler: its routes come from the
 * operations table (lib/contract/operations.ts) and each operation's answers (lib/agent/catalog.ts);
 * answer CORS preflights, admit the request (rollout state, quota), then serve a precomputed body.
 * Every other path under the prefix is 404 `agent_endpoint_not_found`; other methods are 405.
 * It never throws for request input: any answer is one of the contract's.
 */
import type { AgentRequest } from '../http/agent-request.ts'
import { admitAgentRequest, type Admission } from '../admission.ts'
import { API_BASE_PATH } from '../contract/constants.ts'
import { AGENT_OPERATIONS, operationPath, pathParameterNames, type AgentOperationId } from '../contract/operations.ts'
import type { ProblemCode } from '../contract/problems.ts'
import { isCorsPreflight, PREFLIGHT_HEADERS } from '../http/cors.ts'
import { API_HEADERS, CONTENT_TYPES, READ_METHODS } from '../http/headers.ts'
import type { HeaderList } from '../http/header-list.ts'
import type { HttpAnswer } from '../http/http-answer.ts'
import { buildProblem, prepareJson, respond, respondProblem, type PreparedBody } from '../http/respond.ts'
import { perSite } from '../site.ts'
import { getAgentCatalog, operationAnswers } from './catalog.ts'

const ALLOW_HEADERS: HeaderList = [['Allow', READ_METHODS]]

type Route = { kind: 'body'; body: PreparedBody; route: string } | { kind: 'unknown-resource' } | { kind: 'unknown-endpoint' }

/** An operation with path parameters, and its path as a pattern: one segment per parameter. */
interface PathTemplate {
  operationId: AgentOperationId
  pattern: RegExp
  parameters: string[]
}

interface RestRoutes {
  /** Every answer by its exact path (parameters filled in), with its operation's path template (`http.route`). */
  byPath: Map<string, { body: PreparedBody; route: string }>
  /** A path of a template's shape whose parameters name nothing is 404 agent_resource_not_found. */
  templates: PathTemplate[]
  problemTypeUrl: (code: string) => string
  baseUrl: string
}

/** Built from the operations table and the answers of each operation (lib/agent/catalog.ts). */
const getRestRoutes = perSite((site): RestRoutes => {
  const answers = operationAnswers(getAgentCatalog())
  const byPath = new Map<string, { body: PreparedBody; route: string }>()
  const templates: PathTemplate[] = []
  for (const { operationId, path } of AGENT_OPERATIONS) {
    const route = operationPath(operationId)
    for (const { args, body } of answers[operationId]) byPath.set(operationPath(operationId, args), { body: prepareJson(body), route })
    const parameters = pathParameterNames(path)
    if (parameters.length === 0) continue
    // The template's text escaped, each `{name}` one segment (their names, in order, are `parameters`).
    const source = route
      .split(/\{\w+\}/)
      .map((text) => RegExp.escape(text))
      .join('([^/]+)')
    templates.push({ operationId, pattern: new RegExp(`^${source}$`), parameters })
  }
  return { byPath, templates, problemTypeUrl: site.urls.problemType, baseUrl: site.config.baseUrl }
})

function matchRoute(pathname: string, routes: RestRoutes): Route {
  const answer = routes.byPath.get(pathname)
  if (answer) return { kind: 'body', ...answer }
  for (const template of routes.templates) {
    const match = template.pattern.exec(pathname)
    if (!match) continue
    // A percent-encoded id (`product%2Doverview`) names the same resource.
    const values = match.slice(1).map(safeDecode)
    const args = Object.fromEntries(template.parameters.map((name, index) => [name, values[index] ?? '']))
    const known = values.every((value) => value !== null) ? routes.byPath.get(operationPath(template.operationId, args)) : undefined
    return known ? { kind: 'body', ...known } : { kind: 'unknown-resource' }
  }
  return { kind: 'unknown-endpoint' }
}

function safeDecode(segment: string | undefined): string | null {
  try {
    return decodeURIComponent(segment ?? '')
  } catch {
    return null
  }
}

/** Any path under the prefix that names no operation, as `http.route`. */
export const UNMATCHED_REST_ROUTE = `${API_BASE_PATH}/*`

/**
 * Answers any request whose path is under /api/agent/v1, with what was decided on the way: the
 * operation's path template (null for a path that names none) and the admission.
 */
export async function answerAgentRestRequest(
  request: AgentRequest,
): Promise<{ answer: HttpAnswer; route: string | null; admission: Admission | null; mcp: null }> {
  const routes = getRestRoutes()
  const pathname = new URL(request.url).pathname
  const route = matchRoute(pathname, routes)
  const outcome = { route: route.kind === 'body' ? route.route : null, admission: null, mcp: null }
  if (isCorsPreflight(request.method, request.headers)) {
    return { ...outcome, answer: respond(request, 204, null, null, API_HEADERS, PREFLIGHT_HEADERS) }
  }
  const admission = await admitAgentRequest(request)
  return { ...outcome, admission, answer: answerAdmitted(request, routes, route, pathname, admission) }
}

function answerAdmitted(request: AgentRequest, routes: RestRoutes, route: Route, pathname: string, admission: Admission): HttpAnswer {
  if (!admission.admitted) return problem(request, routes, admission.reason, pathname, admission.headers)
  if (route.kind === 'unknown-endpoint') return problem(request, routes, 'agent_endpoint_not_found', pathname, admission.headers)
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return problem(request, routes, 'method_not_allowed', pathname, admission.headers, ALLOW_HEADERS)
  }
  if (route.kind === 'unknown-resource') return problem(request, routes, 'agent_resource_not_found', pathname, admission.headers)
  return respond(request, 200, route.body, CONTENT_TYPES.json, API_HEADERS, admission.headers)
}

function problem(request: AgentRequest, routes: RestRoutes, code: ProblemCode, pathname: string, ...headers: HeaderList[]): HttpAnswer {
  return respondProblem(request, buildProblem(code, routes.problemTypeUrl, { instance: routes.baseUrl + pathname }), ...headers)
}
