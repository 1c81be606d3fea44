/**
 * Compiles the contact page's answer renderer (app/_components/contact-answer.tsx and the page
 * components it renders) into `.next/<CONTACT_ANSWER_MODULE>`, for `npm start`, which answers the
 * contact form itself (lib/lead-routes.ts) and, running the project's TypeScript natively, cannot load
 * JSX. The components are the ones Next renders the pages with; only their JSX is compiled here: the
 * site's modules (lib/) and React stay imports, so the server loads them as it loads everything else.
 * The build does it after `next build` (scripts/postbuild.ts), which empties `.next` first.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'
import { CONTACT_ANSWER_MODULE } from '../lib/lead-routes.ts'

const projectRoot = fileURLToPath(new URL('..', import.meta.url))

export async function buildContactAnswer(distDir: string): Promise<void> {
  const outfile = path.join(distDir, CONTACT_ANSWER_MODULE)
  await esbuild.build({
    entryPoints: [path.join(projectRoot, 'app/_components/contact-answer.tsx')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    jsx: 'automatic',
    logLevel: 'warning',
    // React from node_modules, the site's modules from lib/ as they are (the app's `@/` alias resolved
    // against the output's place): only the components are compiled into the output.
    packages: 'external',
    plugins: [
      {
        name: 'site-modules',
        setup(build) {
          build.onResolve({ filter: /^@\/lib\// }, (args) => ({
            path: path.relative(path.dirname(outfile), path.join(projectRoot, args.path.slice(2))),
            external: true,
          }))
        },
      },
    ],
  })
}
