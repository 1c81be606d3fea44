/**
 * The builds the tests run against. Pages and documents are prerendered with the deployment's
 * settings, so each set of build settings is its own build: a copy of the project's sources under
 * tests/.artifacts/sites/<name> (node_modules hard-linked), built with `npm run build`, or with
 * `vercel build` as Vercel builds it, when its sources or settings changed. The developer's own
 * `.next` and `.vercel` are never touched.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { SETTING_VARIABLES } from '../lib/env.ts'
import { BUILD_SOURCES, buildCopy, copyForBuild } from './project-build.ts'
import { PAGE_SCRIPT_PATH } from '../lib/routes/page-script-hooks.ts'
import { projectRoot } from './paths.ts'

/** The site most tests run against: a custom domain, and a product app URL that differs from the default. */
const TEST_SETTINGS = { BASE_URL: 'https://agents.example.com', APP_URL: 'https://app.cadence.test' } as const

/** Settings each build is made with; a site started from it must be started with the same ones. */
export const SITE_BUILDS = {
  test: TEST_SETTINGS,
  /**
   * The test site with the visual editor in GitHub mode: its five GitHub settings, made up (no test
   * reaches github.com), so that the editor is built and its pages and sign-in can be checked on loopback.
   */
  editor: {
    ...TEST_SETTINGS,
    KEYSTATIC_GITHUB_CLIENT_ID: 'Iv23liCadenceTestApp',
    KEYSTATIC_GITHUB_CLIENT_SECRET: '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c',
    KEYSTATIC_SECRET: 'a-made-up-session-secret-for-tests-only-0123456789',
    NEXT_PUBLIC_KEYSTATIC_GITHUB_APP_SLUG: 'cadence-site-editor-test',
    KEYSTATIC_GITHUB_REPO: 'cadence-example/site',
  },
  /** A Vercel preview deployment: its branch URL, kept out of search indexes; a configured MCP server name. */
  preview: {
    VERCEL: '1',
    VERCEL_ENV: 'preview',
    VERCEL_URL: 'cadence-abc123.vercel.app',
    VERCEL_BRANCH_URL: 'cadence-git-feature.vercel.app',
    MCP_SERVER_NAME: 'io.github.cadence/agents',
  },
  /** Vercel production, built by the Vercel CLI into .vercel/output (Build Output API v3), offline. */
  vercel: { VERCEL: '1', VERCEL_ENV: 'production', VERCEL_URL: 'cadence-abc123.vercel.app', VERCEL_PROJECT_PRODUCTION_URL: 'cadence.example' },
} as const satisfies Record<string, Record<string, string>>

export type SiteBuildName = keyof typeof SITE_BUILDS

/** The site's settings (lib/env.ts) but the listen address: from the developer's shell or `.env` they would change the site under test. */
const ISOLATED_VARIABLES: readonly string[] = SETTING_VARIABLES.filter((name) => name !== 'HOST' && name !== 'PORT')

/**
 * Every isolated variable set to empty: an empty value counts as unset (lib/env.ts), and Next's `.env`
 * loader never overrides a variable the environment defines, so neither the shell nor a `.env` file
 * in the project can change the site under test.
 */
export function blankedSiteVariables(): Record<string, string> {
  return Object.fromEntries(ISOLATED_VARIABLES.map((name) => [name, '']))
}

/** The test runner's environment without the variables that would change the site (Vite sets BASE_URL=/). */
export function isolatedEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ...blankedSiteVariables() }
}

/** The test runner's environment with the site's variables removed, so `.env` files do apply. */
export function envWithoutSiteVariables(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of ISOLATED_VARIABLES) delete env[name]
  return env
}

function siteBuildDir(name: SiteBuildName): string {
  return path.join(projectRoot, 'tests', '.artifacts', 'sites', name)
}

/**
 * What a build writes into the project itself (the pages' script, bundled into public/ by the build's
 * first step, lib/pages/page-script.ts): not a source, and a test that runs that step in the project
 * (deployment-warnings) must not make every later test rebuild a site other tests are serving.
 */
const GENERATED_FILES = new Set([path.join(projectRoot, 'public', PAGE_SCRIPT_PATH)])

function fingerprintOf(target: string, hash: ReturnType<typeof createHash>): void {
  if (!existsSync(target) || GENERATED_FILES.has(target)) return
  const stat = statSync(target)
  if (stat.isDirectory()) {
    for (const entry of readdirSync(target).sort()) fingerprintOf(path.join(target, entry), hash)
  } else {
    hash.update(target).update(readFileSync(target))
  }
}

/**
 * Sources, settings and installed dependencies of a build: it is rebuilt when any of them changes.
 * The installed tree is npm's hidden lockfile by content: npm rewrites it, unchanged, on every install
 * (its modification time says nothing), and a rebuild costs a full `next build`.
 */
function buildFingerprint(name: SiteBuildName): string {
  const hash = createHash('sha256').update(JSON.stringify(SITE_BUILDS[name]))
  for (const source of BUILD_SOURCES) fingerprintOf(path.join(projectRoot, source), hash)
  hash.update(readFileSync(path.join(projectRoot, 'node_modules', '.package-lock.json')))
  return hash.digest('hex')
}

/** Builds this process has checked or made: sources do not change under a test run. */
const checked = new Set<SiteBuildName>()

/** Blocks this thread (builds run synchronously, so waiting does too). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Its process is gone, or it has had no pid file for 10 s (its process died between the two steps). */
function lockIsAbandoned(lock: string, owner: string): boolean {
  try {
    if (!existsSync(owner)) return Date.now() - statSync(lock).mtimeMs > 10_000
    const pid = Number(readFileSync(owner, 'utf8'))
    // An empty pid file is being written this very moment.
    return Number.isInteger(pid) && pid > 0 && !processIsAlive(pid)
  } catch {
    // Released meanwhile: try again.
    return false
  }
}

/**
 * Runs `work` while holding the build's lock, a directory next to it: test files run in parallel
 * worker processes, and two of them making the same build would delete each other's output. A lock
 * whose process has died (a worker killed mid-build) is taken over.
 */
function withBuildLock<T>(name: SiteBuildName, work: () => T): T {
  const lock = `${siteBuildDir(name)}.lock`
  const owner = path.join(lock, 'pid')
  mkdirSync(path.dirname(lock), { recursive: true })
  for (;;) {
    try {
      mkdirSync(lock)
      writeFileSync(owner, String(process.pid))
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      if (lockIsAbandoned(lock, owner)) rmSync(lock, { recursive: true, force: true })
      else sleepSync(500)
    }
  }
  try {
    return work()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

function isUpToDate(name: SiteBuildName, fingerprint: string): boolean {
  const stampFile = path.join(siteBuildDir(name), '.build-fingerprint')
  return existsSync(stampFile) && readFileSync(stampFile, 'utf8') === fingerprint
}

/** The directory of an up-to-date build made with SITE_BUILDS[name], building it first if needed. */
export function ensureSiteBuild(name: SiteBuildName): string {
  const dir = siteBuildDir(name)
  if (checked.has(name)) return dir
  const fingerprint = buildFingerprint(name)
  // Another worker may have made it while this one waited for the lock.
  if (!isUpToDate(name, fingerprint)) withBuildLock(name, () => isUpToDate(name, fingerprint) || build(name, fingerprint))
  checked.add(name)
  return dir
}

/**
 * Makes the named builds up to date, the stale ones at the same time, each in a process of its own:
 * much of a build runs on one core (the type check, collecting pages, `vercel build`'s install), so
 * two builds overlap on two cores.
 */
export async function ensureSiteBuilds(names: readonly SiteBuildName[]): Promise<void> {
  const stale = names.filter((name) => !isUpToDate(name, buildFingerprint(name)))
  const thisModule = JSON.stringify(import.meta.url)
  await Promise.all(
    stale.map(
      (name) =>
        new Promise<void>((resolve, reject) => {
          const code = `import { ensureSiteBuild } from ${thisModule}; ensureSiteBuild(${JSON.stringify(name)})`
          const child = spawn(process.execPath, ['--input-type=module', '--eval', code], { stdio: 'inherit' })
          child.once('error', reject)
          child.once('exit', (status) => (status === 0 ? resolve() : reject(new Error(`the "${name}" test build failed; see the output above`))))
        }),
    ),
  )
}

function build(name: SiteBuildName, fingerprint: string): void {
  const dir = siteBuildDir(name)
  copyForBuild(projectRoot, dir, BUILD_SOURCES)
  buildCopy(dir, name === 'vercel' ? 'vercel' : 'npm', { ...isolatedEnv(), ...SITE_BUILDS[name] })
  writeFileSync(path.join(dir, '.build-fingerprint'), fingerprint)
}
