/**
 * What the build bundles of zod and the MCP SDK for the server (scripts/prebundled-packages.ts): the
 * SDK's values the sources import, read from the sources, and zod with its English messages only.
 */
import { globSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildPrebundledPackages, MCP_SDK as SDK, SERVER_SOURCES, valuesImportedFrom } from '../../scripts/prebundled-packages.ts'

// Inside the project, so the SDK's bundle finds zod by name as the server build's does.
mkdirSync('tests/.artifacts', { recursive: true })
const dir = mkdtempSync(path.resolve('tests/.artifacts/prebundled-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The values `valuesImportedFrom` reads from one source file with this text. */
function valuesIn(source: string, name = `source-${Math.random().toString(36).slice(2)}.ts`) {
  const file = path.join(dir, name)
  writeFileSync(file, source)
  return valuesImportedFrom(SDK, [file]).then((names) => [...names].sort())
}

describe('the SDK values a source imports', () => {
  it('are its named imports and re-exports, not its type imports', async () => {
    const source = [
      `import { McpServer, type Tool, isJsonContentType as isJson } from '${SDK}'`,
      `import type { CallToolResult } from '${SDK}'`,
      `export { specTypeSchemas } from '${SDK}'`,
      `export type { JSONRPCMessage } from '${SDK}'`,
      `import { z } from 'zod'`,
    ].join('\n')
    expect(await valuesIn(source)).toEqual(['McpServer', 'isJsonContentType', 'specTypeSchemas'])
  })

  it("are the members read from a namespace import, by name or by destructuring, not a type's qualified name", async () => {
    const source = [
      `import * as sdk from '${SDK}'`,
      'const { PROTOCOL_VERSION_META_KEY: key, isJSONRPCRequest } = sdk',
      'export const server = (): sdk.McpServer => new sdk.McpServer({ name: "x", version: "1" })',
      'export const schemas = sdk.specTypeSchemas.CallToolRequest',
      'export type Request = sdk.JSONRPCRequest',
      'export const named = { sdk: 1 }.sdk',
    ].join('\n')
    expect(await valuesIn(source)).toEqual(['McpServer', 'PROTOCOL_VERSION_META_KEY', 'isJSONRPCRequest', 'specTypeSchemas'])
  })

  it('cannot be read from a namespace passed on, read by a computed name or a rest pattern, `export *` or a dynamic import: each fails naming the file', async () => {
    const cases = [
      `import * as sdk from '${SDK}'\nexport const all = sdk`,
      `import * as sdk from '${SDK}'\nexport const one = (name: string) => sdk[name as 'McpServer']`,
      `import * as sdk from '${SDK}'\nexport const { McpServer, ...rest } = sdk`,
      `export * from '${SDK}'`,
      `export * as everything from '${SDK}'`,
      `export const load = () => import('${SDK}')`,
    ]
    for (const [index, source] of cases.entries()) await expect(valuesIn(source, `refused-${index}.ts`)).rejects.toThrow(`refused-${index}.ts: `)
  })
})

describe('the bundles', () => {
  beforeAll(() => buildPrebundledPackages(path.join(dir, '.prebundled')), 60_000)

  it('carry zod with its English messages only, which its errors still use', async () => {
    const { z } = (await import(path.join(dir, '.prebundled/zod.mjs'))) as typeof import('zod')
    expect(Object.keys(z.locales)).toEqual(['en'])
    expect(z.object({ name: z.string() }).safeParse({}).error?.issues[0]?.message).toBe('Invalid input: expected string, received undefined')
  })

  it('carry of the SDK exactly the values the server’s sources import from it, McpServer among them', async () => {
    const bundle = await import(path.join(dir, '.prebundled/mcp-server.mjs'))
    const imported = [...(await valuesImportedFrom(SDK, globSync(SERVER_SOURCES)))].sort()
    expect(imported).toContain('McpServer')
    expect(Object.keys(bundle).sort()).toEqual(imported)
  })

  it('carry the SDK without Ajv, its default JSON Schema validator on Node, which the server replaces with its own', () => {
    expect(readFileSync(path.join(dir, '.prebundled/mcp-server.mjs'), 'utf8')).not.toMatch(/ajv/i)
  })
})
