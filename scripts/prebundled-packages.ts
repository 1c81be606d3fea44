/**
 * zod and the MCP SDK, each bundled into one ES module under `.prebundled/`, which the server build
 * uses in place of the packages (next.config.ts maps their names to these files).
 *
 * Why: a new function instance (Vercel starts one per cold request) loads what its first request
 * imports. Loaded from node_modules, zod is 96 ES modules (every locale among them) and the SDK 11
 * more: Node resolves, reads and links each, about 70 ms before the first MCP call can be answered.
 * One scope-hoisted file each loads in about 40 ms. The SDK's bundle imports zod by name, so the
 * server has one zod, shared by the SDK and the site's own schemas. Two cuts, each through a public
 * entry point, keep the files to what the server runs:
 * - zod's messages in English only: the module zod publishes as `zod/v4/locales` (its 40-odd
 *   languages, which `z.locales` and `z.core.locales` carry, 264 KB of the 458 KB) is bundled as
 *   `{ en }`. English is zod's default; the site never switches its language.
 * - of the SDK, the names the server's sources import from it (read from the sources themselves, so
 *   an import added there is bundled by the next build), and its default JSON Schema validator for
 *   browsers and workers rather than Node's: the SDK picks it by export condition (its `_shims`),
 *   Ajv for Node, @cfworker/json-schema otherwise, and the server never uses the default (it gives
 *   McpServer its own, lib/mcp/server.ts), while the other also runs on Node. 193 KB instead of
 *   375 KB (Ajv alone was 153 KB).
 * Together they bring a new instance's first MCP call 21–25 ms earlier (docs/performance.md#cold-start).
 *
 * The build does it before `next build` (scripts/prebuild.ts), `npm run dev` before `next dev`
 * (scripts/next.ts). Tests and scripts that run the TypeScript sources natively import the packages
 * from node_modules, as does `npm start` for the agent API and MCP (it runs lib/ natively too).
 * The output is a build product: .gitignore keeps it out of the repository.
 */
import { globSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'esbuild'
import type {
  CallExpression,
  Identifier,
  ImportNamespaceSpecifier,
  KeyValueProperty,
  MemberExpression,
  StringLiteral,
  TsQualifiedName,
  VariableDeclarator,
} from '@swc/core'

const OUTPUT_DIR = '.prebundled'
export const MCP_SDK = '@modelcontextprotocol/server'

/** Each package's entry point and the names it is imported by, → its bundle. */
const BUNDLES = [
  { entry: 'zod', names: ['zod', 'zod/v4'], file: 'zod.mjs' },
  { entry: MCP_SDK, names: [MCP_SDK], file: 'mcp-server.mjs' },
] as const

/** The server's own sources: what `next build` compiles into the functions. */
export const SERVER_SOURCES = ['app/**/*.{ts,tsx}', 'lib/**/*.{ts,tsx}', 'proxy.ts', 'instrumentation.ts']

/** Import specifiers the server build maps to a bundle (next.config.ts): zod by both names the SDK and the site use. */
export const PREBUNDLED_ALIASES: Record<string, string> = Object.fromEntries(
  BUNDLES.flatMap(({ names, file }) => names.map((name) => [name, `./${OUTPUT_DIR}/${file}`])),
)

/** The packages as installed beside this script; the output into the project being built (the working directory). */
const installedFrom = fileURLToPath(new URL('..', import.meta.url))

/** Calls `visit` on every node of an SWC syntax tree, each before the nodes inside it. */
function eachNode(node: unknown, visit: (node: { type: string } & Record<string, unknown>) => void): void {
  if (Array.isArray(node)) for (const item of node) eachNode(item, visit)
  else if (node && typeof node === 'object') {
    if ('type' in node && typeof node.type === 'string') visit(node as { type: string } & Record<string, unknown>)
    for (const value of Object.values(node)) if (value && typeof value === 'object') eachNode(value, visit)
  }
}

/**
 * Every value the given sources import from `pkg`: named imports and re-exports, and the members
 * read from a namespace import (`sdk.McpServer`, `const { X } = sdk`; `sdk.Type` in a type is no
 * value). Any other use of a namespace, `export *` or a dynamic import fails: its names cannot be read.
 * The sources are parsed with SWC, the parser dependency-cruiser already uses.
 */
export async function valuesImportedFrom(pkg: string, files: readonly string[]): Promise<Set<string>> {
  const { parseSync } = await import('@swc/core')
  const names = new Set<string>()
  for (const file of files) {
    const source = readFileSync(file, 'utf8')
    if (!source.includes(pkg)) continue
    const fail = (what: string): never => {
      throw new Error(`${file}: ${what} of ${pkg}: import its values by name, or read them as members of the namespace`)
    }
    const tree = parseSync(source, { syntax: 'typescript', tsx: file.endsWith('.tsx') })
    const namespaces = new Set<string>()
    for (const item of tree.body) {
      if ((item.type === 'ImportDeclaration' || item.type === 'ExportNamedDeclaration') && item.source?.value === pkg && !item.typeOnly)
        for (const specifier of item.specifiers) {
          if (specifier.type === 'ImportNamespaceSpecifier') namespaces.add(specifier.local.value)
          else if (specifier.type === 'ImportSpecifier') {
            if (!specifier.isTypeOnly) names.add((specifier.imported ?? specifier.local).value)
          } else if (specifier.type === 'ExportSpecifier') {
            if (!specifier.isTypeOnly) names.add(specifier.orig.value)
          } else fail(specifier.type === 'ImportDefaultSpecifier' ? 'a default import' : 'a re-export of all')
        }
      if (item.type === 'ExportAllDeclaration' && item.source.value === pkg) fail('a re-export of all')
    }
    // Each mention of a namespace must be one of these reads, which are visited before the mention.
    const read = new WeakSet<object>()
    const isNamespace = (node: unknown) => (node as Identifier | undefined)?.type === 'Identifier' && namespaces.has((node as Identifier).value)
    eachNode(tree, (node) => {
      if (node.type === 'CallExpression') {
        const { callee, arguments: args } = node as unknown as CallExpression
        if (callee.type === 'Import' && (args[0]?.expression as StringLiteral | undefined)?.value === pkg) fail('a dynamic import')
      } else if (node.type === 'MemberExpression') {
        const { object, property } = node as unknown as MemberExpression
        read.add(property)
        if (isNamespace(object) && property.type === 'Identifier') {
          names.add(property.value)
          read.add(object)
        }
      } else if (node.type === 'VariableDeclarator') {
        const { id, init } = node as unknown as VariableDeclarator
        if (!isNamespace(init) || id.type !== 'ObjectPattern') return
        for (const property of id.properties) {
          if (property.type === 'AssignmentPatternProperty') names.add(property.key.value)
          else if (property.type === 'KeyValuePatternProperty' && property.key.type === 'Identifier') names.add(property.key.value)
          else fail('a computed or rest read')
        }
        read.add(init as Identifier)
      } else if (node.type === 'TsQualifiedName') read.add((node as unknown as TsQualifiedName).left)
      else if (node.type === 'ImportNamespaceSpecifier') read.add((node as unknown as ImportNamespaceSpecifier).local)
      else if (node.type === 'KeyValueProperty') read.add((node as unknown as KeyValueProperty).key)
      else if (isNamespace(node) && !read.has(node)) fail(`a use of the namespace ${(node as unknown as Identifier).value}`)
    })
  }
  return names
}

/** Loads the module zod publishes as `zod/v4/locales` as its English messages only; `loaded` says it applied. */
function zodInEnglishOnly(): { plugin: Plugin; loaded: () => boolean } {
  const locales = fileURLToPath(import.meta.resolve('zod/v4/locales'))
  let loaded = false
  const plugin: Plugin = {
    name: 'zod-in-english-only',
    setup(build) {
      build.onLoad({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) => {
        if (args.path !== locales) return undefined
        loaded = true
        return { contents: `export { default as en } from './en.js'`, resolveDir: path.dirname(locales), loader: 'js' }
      })
    },
  }
  return { plugin, loaded: () => loaded }
}

/**
 * Writes the bundles of the project in the working directory (into `outputDir`); fails if one imports
 * a package by a name that no bundle answers to.
 */
export async function buildPrebundledPackages(outputDir = path.join(process.cwd(), OUTPUT_DIR)): Promise<void> {
  // Loaded here, not with this module: next.config.ts imports the aliases on every start.
  const esbuild = await import('esbuild')
  const sdkValues = [...(await valuesImportedFrom(MCP_SDK, globSync(SERVER_SOURCES)))].sort()
  const english = zodInEnglishOnly()
  const input = {
    zod: { entryPoints: ['zod'], plugins: [english.plugin] },
    [MCP_SDK]: {
      stdin: { contents: `export { ${sdkValues.join(', ')} } from '${MCP_SDK}'`, resolveDir: installedFrom },
      conditions: ['browser'],
    },
  }
  const builds = BUNDLES.map(({ entry, file }) =>
    esbuild.build({
      ...input[entry],
      absWorkingDir: installedFrom,
      outfile: path.join(outputDir, file),
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node24',
      minify: true,
      logLevel: 'warning',
      metafile: true,
      // Another bundle's package stays an import of it: one zod, for the SDK and the site alike.
      external: BUNDLES.filter((other) => other.entry !== entry).flatMap((other) => [other.entry, `${other.entry}/*`]),
    }),
  )
  for (const { metafile } of await Promise.all(builds)) {
    const imported = Object.values(metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path))
    const unanswered = imported.filter((name) => !name.startsWith('node:') && !(name in PREBUNDLED_ALIASES))
    if (unanswered.length > 0) throw new Error(`prebundled packages: no bundle answers to ${[...new Set(unanswered)].join(', ')}`)
  }
  // zod moved its languages elsewhere: every one of them would be bundled again, unnoticed.
  if (!english.loaded()) throw new Error("prebundled packages: zod's bundle no longer loads zod/v4/locales, where its languages were")
}
