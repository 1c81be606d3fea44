/**
 * A throwaway copy of the project (sources, content, and with `build: true` the `test` build of
 * harness/site-build.ts, made with SITE_BUILDS.test), for tests that must change files the site
 * reads — `.env` files, content/ — or install it afresh, without touching the checkout.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { projectRoot } from '../../harness/paths.ts'
import { ensureSiteBuild } from '../../harness/site-build.ts'

export interface ProjectCopy {
  root: string
  dispose: () => void
}

/** What never belongs in a copy: installs, Next's caches and dev output, VCS data, test artefacts. */
const SKIPPED = new Set([
  'node_modules',
  '.git',
  '.next/cache',
  '.next/dev',
  '.vercel',
  'tests/.artifacts',
  'test-results',
  'playwright-report',
  '.scratch',
  'cache',
  // The lead store of a developer's npm start: personal data, and no part of the project.
  '.data',
])

/**
 * `nodeModules`: `'symlink'` (fast; enough for `npm start`), `'hardlink'` (a real directory of hard
 * links: `next dev`'s Turbopack refuses a node_modules outside the project), `'none'` (install it yourself).
 * `build`: copy `.next` too (without its cache).
 */
export function copyProject(options: { nodeModules: 'symlink' | 'hardlink' | 'none'; build: boolean }): ProjectCopy {
  const root = mkdtempSync(path.join(tmpdir(), 'cadence-copy-'))
  cpSync(projectRoot, root, {
    recursive: true,
    filter: (source) => {
      const relative = path.relative(projectRoot, source).split(path.sep).join('/')
      // A developer's own settings and build stay out of the copy; `.env.example` is documentation.
      if (SKIPPED.has(relative) || (/^\.env/.test(relative) && relative !== '.env.example')) return false
      return relative !== '.next' && !relative.startsWith('.next/')
    },
  })
  if (options.build) {
    const build = path.join(ensureSiteBuild('test'), '.next')
    cpSync(build, path.join(root, '.next'), { recursive: true, filter: (source) => path.relative(build, source) !== 'cache' })
  }
  const modules = path.join(projectRoot, 'node_modules')
  if (options.nodeModules === 'symlink') symlinkSync(modules, path.join(root, 'node_modules'), 'dir')
  if (options.nodeModules === 'hardlink') {
    const target = path.join(root, 'node_modules')
    let result = spawnSync('cp', ['-al', modules, target], { encoding: 'utf8' })
    // Hard links need one file system; elsewhere a real copy (slower) does the same job.
    if (result.status !== 0) {
      rmSync(target, { recursive: true, force: true })
      result = spawnSync('cp', ['-a', modules, target], { encoding: 'utf8' })
    }
    if (result.status !== 0) throw new Error(`copying node_modules failed: ${result.stderr}`)
  }
  return { root, dispose: () => rmSync(root, { recursive: true, force: true }) }
}
