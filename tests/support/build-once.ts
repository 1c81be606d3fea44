/**
 * Vitest global setup: builds the site once (`npm run build`) unless `.next` is newer than every
 * source file, so integration tests always run against the current code.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { projectRoot } from './paths.ts'
import { isolatedEnv } from './site-server.ts'

const SOURCES = ['app', 'lib', 'content', 'public', 'next.config.ts', 'package.json', 'proxy.ts', 'scripts/prebuild.ts']

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0
  const stat = statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)))
  return newest
}

export function isBuildCurrent(): boolean {
  const buildId = path.join(projectRoot, '.next', 'BUILD_ID')
  if (!existsSync(buildId)) return false
  const built = statSync(buildId).mtimeMs
  return SOURCES.every((source) => newestMtime(path.join(projectRoot, source)) < built)
}

export default function setup(): void {
  if (isBuildCurrent()) return
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: projectRoot,
    stdio: 'inherit',
    // Built with the settings the tests start it with: none from the shell or a `.env` file.
    env: isolatedEnv(),
  })
  if (result.status !== 0) throw new Error('npm run build failed; see the output above')
}
