/** The benchmark cases: what each sends, and which quota store the site under test uses. */
import {
  DEFAULT_SERVICE_NAME,
  MCP_LEGACY_PROTOCOL_VERSIONS,
  MCP_PATH,
  MCP_PROTOCOL_VERSION,
  RESOURCE_ID_PARAMETER,
} from '../../lib/contract/constants.ts'
import { mcpToolName, operationPath } from '../../lib/contract/operations.ts'
import { LEAD_FORM_PATH } from '../../lib/leads/form-fields.ts'
import { FILL_TIME_FIELD } from '../../lib/routes/page-script-hooks.ts'

export interface BenchCase {
  name: string
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  /** `{{n}}` in it is replaced by a number of its own in each request (a new lead each time, not a duplicate). */
  body?: string
  store: 'memory' | 'upstash'
  /** The status a right answer has, when it is not a 2xx (the form's 303 to the thank-you page). */
  status?: number
  /**
   * Sent with a Web Bot Auth signature (harness/agent-signer.ts) of a key from a loopback key directory
   * the site trusts and holds before the runs. `reused`: one signature without a nonce for the whole
   * run, as an agent that signs once a minute sends it (verified once, then looked up). `per-request`:
   * a fresh signature with a nonce of its own for each request, made by the load generator, so that
   * each request is parsed and verified in full.
   */
  signed?: 'reused' | 'per-request'
}

/** A contact-form submission as the page's form posts it; each one a lead of its own (unique email). */
const LEAD_FORM_BODY = new URLSearchParams({
  name: 'Bench Visitor {{n}}',
  email: 'bench-{{n}}@example.com',
  company: 'Load Test Ltd',
  teamSize: '11-50',
  goal: 'Measuring how fast leads are stored: {{n}}',
  topic: 'programme',
  [FILL_TIME_FIELD]: '12000',
})
  .toString()
  .replaceAll('%7B%7Bn%7D%7D', '{{n}}')

/** The benchmarked site runs with the default SERVICE_NAME. */
export const READ_TOOL = mcpToolName(DEFAULT_SERVICE_NAME, 'getPublicResource')
const RESOURCE = operationPath('getPublicResource', { [RESOURCE_ID_PARAMETER]: 'product-overview' })
const readResource = (id: string | number, meta: object) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: READ_TOOL, arguments: { [RESOURCE_ID_PARAMETER]: 'product-overview' }, ...meta },
  })

export function benchCases(): BenchCase[] {
  const rest = (name: string, path: string, store: BenchCase['store'] = 'memory'): BenchCase => ({ name, method: 'GET', path, headers: {}, store })
  return [
    rest('rest-health', operationPath('getAgentHealth')),
    // The same request signed, beside rest-health: a reused signature (the speed goal's case), and a fresh one each time.
    { ...rest('rest-signed', operationPath('getAgentHealth')), signed: 'reused' },
    { ...rest('rest-signed-nonce', operationPath('getAgentHealth')), signed: 'per-request' },
    rest('rest-resource', RESOURCE),
    rest('rest-resource-upstash', RESOURCE, 'upstash'),
    {
      name: 'mcp-tools-call',
      method: 'POST',
      path: MCP_PATH,
      store: 'memory',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MCP_PROTOCOL_VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': READ_TOOL,
      },
      body: readResource('bench-1', {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MCP_PROTOCOL_VERSION,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      }),
    },
    {
      name: 'mcp-legacy-tools-call',
      method: 'POST',
      path: MCP_PATH,
      store: 'memory',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MCP_LEGACY_PROTOCOL_VERSIONS[0],
      },
      body: readResource(1, {}),
    },
    rest('openapi-json', '/openapi.json'),
    { name: 'home-markdown', method: 'GET', path: '/', headers: { accept: 'text/markdown' }, store: 'memory' },
    { name: 'page-html', method: 'GET', path: '/pricing', headers: { accept: 'text/html' }, store: 'memory' },
    rest('page-twin', '/pricing.md'),
    // The same twin through negotiation: under next start, proxy.ts runs for it (its cost against page-twin).
    { name: 'page-negotiated', method: 'GET', path: '/pricing', headers: { accept: 'text/markdown' }, store: 'memory' },
    // Each request stores a lead in the SQLite file (synchronous=FULL) before it is answered 303.
    {
      name: 'contact-form-post',
      method: 'POST',
      path: LEAD_FORM_PATH,
      store: 'memory',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: LEAD_FORM_BODY,
      status: 303,
    },
  ]
}
