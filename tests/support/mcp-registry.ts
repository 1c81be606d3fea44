/**
 * The MCP Registry's rules for a server.json that declares a remote server, as its published schema
 * states them (https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json, from
 * modelcontextprotocol/registry `docs/reference/server-json/`): written here with zod because the
 * machine that runs the tests cannot fetch the schema, and limited to the fields this site publishes.
 */
import { z } from 'zod'

const VERSION_RANGE = /^[\^~<>=]|\.(x|\*)(\.|$)/

const RemoteTransportSchema = z.object({
  type: z.enum(['streamable-http', 'sse']),
  url: z.url(),
  headers: z.array(z.object({ name: z.string() })).optional(),
})

export const McpRegistryServerSchema = z.object({
  $schema: z.url().optional(),
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
  title: z.string().min(1).max(100).optional(),
  description: z.string().min(1).max(100),
  version: z
    .string()
    .max(255)
    .refine((version) => version !== 'latest' && !VERSION_RANGE.test(version), 'a specific version, not a range'),
  websiteUrl: z.url().optional(),
  remotes: z.array(RemoteTransportSchema).min(1),
})
