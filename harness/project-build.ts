/**
 * Builds of the project outside its own directory, as the tests (harness/site-build.ts) and the
 * cold-start benchmark (scripts/bench/cold-start.ts) make them: a copy of the sources a build reads,
 * node_modules hard-linked, built with `npm run build` or offline with `vercel build` as Vercel builds.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** What a build reads: copied into each build directory. */
export const BUILD_SOURCES = [
  'app',
  'lib',
  'content',
  'public',
  'patches',
  'proxy.ts',
  'instrumentation.ts',
  'next.config.ts',
  'keystatic.config.ts',
  'vercel.json',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'scripts/start.ts',
  'scripts/prebuild.ts',
  'scripts/postbuild.ts',
  'scripts/next.ts',
  'scripts/page-script.ts',
  'scripts/prebundled-packages.ts',
  'scripts/contact-answer.ts',
]

/** `vercel build` without an account: the project settings it would otherwise fetch (Node 24, Next.js). */
const VERCEL_PROJECT = { projectId: 'prj_local', orgId: 'team_local', settings: { framework: 'nextjs', nodeVersion: '24.x' } }

/** A fresh `dir` with `sources` of `projectRoot` copied and its node_modules hard-linked. */
export function copyForBuild(projectRoot: string, dir: string, sources: readonly string[]): void {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(path.join(dir, 'scripts'), { recursive: true })
  for (const source of sources) {
    const from = path.join(projectRoot, source)
    if (existsSync(from)) cpSync(from, path.join(dir, source), { recursive: true })
  }
  // Hard links: a second install would take a minute; the build only reads node_modules.
  const linked = spawnSync('cp', ['-al', path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules')], { stdio: 'inherit' })
  if (linked.status !== 0) throw new Error(`could not link node_modules into ${dir}`)
  // `vercel build` runs `npm install`, which rewrites the hidden lockfile in place: through a hard link
  // that would write into the project's own node_modules. The copy gets a file of its own.
  const hiddenLockfile = path.join(dir, 'node_modules', '.package-lock.json')
  rmSync(hiddenLockfile)
  cpSync(path.join(projectRoot, 'node_modules', '.package-lock.json'), hiddenLockfile)
}

/** Builds `dir` with `npm run build`, or with `vercel build --prod` into dir/.vercel/output. */
export function buildCopy(dir: string, how: 'npm' | 'vercel', env: NodeJS.ProcessEnv): void {
  let command: [string, string[]] = ['npm', ['run', 'build']]
  if (how === 'vercel') {
    mkdirSync(path.join(dir, '.vercel'), { recursive: true })
    writeFileSync(path.join(dir, '.vercel', 'project.json'), JSON.stringify(VERCEL_PROJECT))
    command = [path.join(dir, 'node_modules', '.bin', 'vercel'), ['build', '--prod', '--yes']]
  }
  const result = spawnSync(command[0], command[1], { cwd: dir, stdio: 'inherit', env: { ...env, NEXT_TELEMETRY_DISABLED: '1' } })
  if (result.status !== 0) throw new Error(`${command.flat().join(' ')} failed in ${dir}; see the output above`)
}
