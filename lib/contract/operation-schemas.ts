/**
 * Each operation's zod schemas: the answer (`response`) and the arguments (`input`: the path
 * parameter for REST, the tool input for MCP). They sit beside the operation table rather than in
 * it so that the REST router, which needs only the table, loads no schema library on a new instance
 * (lib/on-demand.ts); OpenAPI, the MCP tools and the contract checks read both.
 */
import type { z } from 'zod'
import type { AgentOperationId } from './operations.ts'
import {
  AgentCapabilitiesSchema,
  AgentHealthSchema,
  AgentResourceListSchema,
  AgentResourceSchema,
  NoArgumentsSchema,
  ReadPublicResourceInputSchema,
} from './schemas.ts'

export interface OperationSchemas {
  response: z.ZodType
  input: z.ZodObject
}

/** Keyed by operationId: an operation of AGENT_OPERATIONS without its schemas here fails to compile. */
export const OPERATION_SCHEMAS: Readonly<Record<AgentOperationId, OperationSchemas>> = {
  getAgentHealth: { response: AgentHealthSchema, input: NoArgumentsSchema },
  getPublicCapabilities: { response: AgentCapabilitiesSchema, input: NoArgumentsSchema },
  listPublicResources: { response: AgentResourceListSchema, input: NoArgumentsSchema },
  getPublicResource: { response: AgentResourceSchema, input: ReadPublicResourceInputSchema },
}

/**
 * What is wrong with the answers of the operations, by their schemas: each body must parse and come
 * out unchanged (the same keys in the same order). The REST router and the MCP tools serve the bodies
 * as built, without parsing them on a new instance, so the build (scripts/prebuild.ts) and the tests
 * check them here.
 */
export function contractViolations(answers: Readonly<Record<AgentOperationId, ReadonlyArray<{ args: object; body: unknown }>>>): string[] {
  return Object.entries(OPERATION_SCHEMAS).flatMap(([operationId, { response }]) =>
    answers[operationId as AgentOperationId].flatMap(({ args, body }) => {
      const parsed = response.safeParse(body)
      const which = `${operationId}(${JSON.stringify(args)})`
      if (!parsed.success) return [`${which}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`]
      return JSON.stringify(parsed.data) === JSON.stringify(body)
        ? []
        : [`${which}: the body is not in its schema's form (keys or their order differ)`]
    }),
  )
}
