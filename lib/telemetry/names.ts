/**
 * Attribute and metric names, once. The standard ones are OpenTelemetry's semantic conventions (HTTP,
 * database, and the MCP conventions, in development status); `cadence.*` are this site's own.
 */
/** This site's name in telemetry: its service name (OTEL_SERVICE_NAME overrides it) and its instrumentation scope. */
export const TELEMETRY_SERVICE_NAME = 'cadence-site'

export const ATTR = {
  httpMethod: 'http.request.method',
  httpRoute: 'http.route',
  httpStatus: 'http.response.status_code',
  urlPath: 'url.path',
  errorType: 'error.type',
  mcpMethod: 'mcp.method.name',
  mcpProtocolVersion: 'mcp.protocol.version',
  toolName: 'gen_ai.tool.name',
  resourceUri: 'mcp.resource.uri',
  jsonrpcId: 'jsonrpc.request.id',
  rpcStatus: 'rpc.response.status_code',
  networkTransport: 'network.transport',
  networkProtocol: 'network.protocol.name',
  dbSystem: 'db.system.name',
  dbOperation: 'db.operation.name',
  serverAddress: 'server.address',
  agentClass: 'cadence.agent.class',
  agentSignature: 'cadence.agent.signature',
  agentSigner: 'cadence.agent.signer',
  admission: 'cadence.admission',
  quotaStore: 'cadence.quota.store',
  quotaRemaining: 'cadence.quota.remaining',
  leadFormOutcome: 'cadence.lead_form.outcome',
  leadDeliveryDestination: 'cadence.lead_delivery.destination',
  leadDeliveryOrigin: 'cadence.lead_delivery.origin',
  leadDeliveryOutcome: 'cadence.lead_delivery.outcome',
} as const

export const METRIC = {
  requestDuration: 'http.server.request.duration',
  mcpDuration: 'mcp.server.operation.duration',
  refusals: 'cadence.agent.refusals',
  signedRequests: 'cadence.agent.signed_requests',
  failovers: 'cadence.quota.failovers',
  leadForm: 'cadence.lead_form.submissions',
  leadDeliveries: 'cadence.lead_delivery.attempts',
} as const
