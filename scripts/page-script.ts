/**
 * Bundles the pages' one script (lib/pages/page-script.ts and the modules it imports) into
 * public/<PAGE_SCRIPT_PATH>, where Next, Vercel and npm start serve public files. The build does it
 * before `next build` (scripts/prebuild.ts); `npm run dev` rebuilds it on every change (scripts/next.ts).
 * The output is a build product, not a source: .gitignore keeps it out of the repository.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'
import { PAGE_SCRIPT_PATH } from '../lib/routes/page-script-hooks.ts'

const options: esbuild.BuildOptions = {
  // The sources beside this script, as its imports are; the output into the project being built (the
  // working directory, whose content/ the build reads too).
  entryPoints: [fileURLToPath(new URL('../lib/pages/page-script.ts', import.meta.url))],
  outfile: path.join(process.cwd(), 'public', PAGE_SCRIPT_PATH),
  bundle: true,
  format: 'esm',
  // Browsers that run module scripts; the page works without it anyway.
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
}

export async function buildPageScript(): Promise<void> {
  await esbuild.build(options)
}

/** Rebuilds the script whenever one of its sources changes, until the process ends. */
export async function watchPageScript(): Promise<void> {
  const context = await esbuild.context(options)
  await context.watch()
}
