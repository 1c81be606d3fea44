/**
 * zod and the MCP SDK, each bundled into one ES module under `.prebundled/`, which the server build
 * uses in place of the packages (next.config.ts maps their names to these files).
 *
 * Why: a new function instance (Vercel starts one per cold request) loads what its first request
 * imports. Loaded from node_modules, zod is 96 ES modules (every locale among them) and the SDK 11
 * more: Node resolves, reads and links each, about 70 ms before the first MCP call can be answered.
 * One scope-hoisted file each loads in about 40 ms. The packages are used through their public
 * entry points, bundled whole; the SDK's bundle imports zod by name, so the server has one zod,
 * shared by the SDK and the site's own schemas.
 *
 * The build does it before `next build` (scripts/prebuild.ts), `npm run dev` before `next dev`
 * (scripts/next.ts). Tests and scripts that run the TypeScript sources natively import the packages
 * from node_modules, as does `npm start` for the agent API and MCP (it runs lib/ natively too).
 * The output is a build product: .gitignore keeps it out of the repository.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const OUTPUT_DIR = '.prebundled'

/** Each package's entry point and the names it is imported by, → its bundle. */
const BUNDLES = [
  { entry: 'zod', names: ['zod', 'zod/v4'], file: 'zod.mjs' },
  { entry: '@modelcontextprotocol/server', names: ['@modelcontextprotocol/server'], file: 'mcp-server.mjs' },
] as const

/** Import specifiers the server build maps to a bundle (next.config.ts): zod by both names the SDK and the site use. */
export const PREBUNDLED_ALIASES: Record<string, string> = Object.fromEntries(
  BUNDLES.flatMap(({ names, file }) => names.map((name) => [name, `./${OUTPUT_DIR}/${file}`])),
)

/** The packages as installed beside this script; the output into the project being built (the working directory). */
const installedFrom = fileURLToPath(new URL('..', import.meta.url))

/** Writes the bundles; fails if one imports a package by a name that no bundle answers to. */
export async function buildPrebundledPackages(): Promise<void> {
  // Loaded here, not with this module: next.config.ts imports the aliases on every start.
  const esbuild = await import('esbuild')
  const builds = BUNDLES.map(({ entry, file }) =>
    esbuild.build({
      entryPoints: [entry],
      absWorkingDir: installedFrom,
      outfile: path.join(process.cwd(), OUTPUT_DIR, file),
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
}
