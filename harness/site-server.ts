/**
 * Starts a test build of the site (harness/site-build.ts) as `npm start` runs it (`node
 * scripts/start.ts`) or as `next start` does, on a free loopback port with the build's settings plus
 * the given run-time environment, and stops it. Tests drive it over real HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer } from 'node:net'
import path from 'node:path'
import { parseConfig } from '../lib/env.ts'
import { projectRoot } from './paths.ts'
import { blankedSiteVariables, ensureSiteBuild, envWithoutSiteVariables, isolatedEnv, SITE_BUILDS, type SiteBuildName } from './site-build.ts'

export interface RunningSite {
  /** Origin the server listens on, e.g. `http://127.0.0.1:41234`. */
  origin: string
  /** The base URL the site publishes (every absolute URL in pages, documents and answers). */
  baseUrl: string
  port: number
  /** The output the server printed so far. */
  output: () => string
  /** `fetch` relative to the origin. */
  fetch: (path: string, init?: RequestInit) => Promise<Response>
  stop: () => Promise<void>
  process: ChildProcess
}

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** The Node flags `npm start` runs the server with (`root`'s package.json), so tests and benchmarks run it alike. */
function startScriptNodeFlags(root = projectRoot): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
  const match = /^node((?: --[\w=.-]+)*) scripts\/start\.ts$/.exec(scripts.start ?? '')
  if (!match) throw new Error(`package.json "start" must be "node [--flags] scripts/start.ts", got ${JSON.stringify(scripts.start)}`)
  return (match[1] ?? '').split(' ').filter(Boolean)
}

export { blankedSiteVariables, envWithoutSiteVariables, isolatedEnv }

/**
 * `build`: which test build to serve (default `test`); its settings are part of the environment.
 * `server: 'npm-start'` (default) runs scripts/start.ts; `'next-start'` runs plain `next start`, the
 * way Next serves the app's route files (as on Vercel), to compare the two. `dir`: a checkout built
 * elsewhere with the settings of `build` (the bench's baseline), served with its own start script.
 */
export async function startSite(
  env: Record<string, string> = {},
  options: { port?: number; server?: 'npm-start' | 'next-start'; build?: SiteBuildName; dir?: string } = {},
): Promise<RunningSite> {
  const build = options.build ?? 'test'
  const cwd = options.dir ?? ensureSiteBuild(build)
  const port = options.port ?? (await freePort())
  // A lead store of its own unless the test names one: leads a run leaves in the build's default
  // store would be duplicates of the next run's (the same email and message within ten minutes).
  const leadsDir = env.LEADS_DATABASE_PATH ? null : mkdtempSync(path.join(tmpdir(), 'site-leads-'))
  const args =
    options.server === 'next-start'
      ? [path.join(cwd, 'node_modules/next/dist/bin/next'), 'start', '-H', '127.0.0.1', '-p', String(port)]
      : [...startScriptNodeFlags(cwd), 'scripts/start.ts']
  const site = await startSiteProcess(process.execPath, args, {
    cwd,
    env: {
      ...isolatedEnv(),
      NEXT_TELEMETRY_DISABLED: '1',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...SITE_BUILDS[build],
      ...(leadsDir ? { LEADS_DATABASE_PATH: path.join(leadsDir, 'leads.sqlite') } : {}),
      ...env,
    },
    port,
  })
  if (!leadsDir) return site
  return {
    ...site,
    stop: async () => {
      await site.stop()
      rmSync(leadsDir, { recursive: true, force: true })
    },
  }
}

/** The most of a site's output `output()` keeps (characters). */
const KEPT_OUTPUT_CHARACTERS = 128 * 1024 * 1024

/** Runs a command that serves the site on 127.0.0.1:`port` (e.g. `npm start` in a copy) until it says it is ready. */
export async function startSiteProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; port: number },
): Promise<RunningSite> {
  // Its own process group, so stopping it also stops what it started (`npm start` runs the server under sh).
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let output = ''
  const keep = (chunk: Buffer) => {
    output += chunk
    // A load run's access log outgrows any string (V8's limit is about 2^29 characters): past the bound
    // the oldest half goes, from a line's start. Tests print far less; the last lines are what a failure needs.
    if (output.length > KEPT_OUTPUT_CHARACTERS) output = output.slice(output.indexOf('\n', output.length - KEPT_OUTPUT_CHARACTERS / 2) + 1)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  // A failed spawn (e.g. EAGAIN) emits 'error' and never exits: report it instead of waiting 30 s.
  child.once('error', (error) => (output += `\n[spawn failed: ${error.message}]`))
  const origin = `http://127.0.0.1:${options.port}`
  const site: RunningSite = {
    origin,
    baseUrl: publishedBaseUrl(options.env, options.port),
    port: options.port,
    output: () => output,
    fetch: (path, init) => fetch(`${origin}${path}`, { redirect: 'manual', ...init }),
    stop: () => stopProcess(child),
    process: child,
  }
  await waitUntilReady(site, child)
  return site
}

async function waitUntilReady(site: RunningSite, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`site exited with ${child.exitCode}:\n${site.output()}`)
    if (child.signalCode !== null) throw new Error(`site was killed by ${child.signalCode} before it was ready:\n${site.output()}`)
    if (site.output().includes('[spawn failed:')) throw new Error(`site could not be started:${site.output()}`)
    if (/ready (on|in)/i.test(site.output())) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  await site.stop()
  throw new Error(`site did not start within 30 s:\n${site.output()}`)
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid ?? 0), signal)
    } catch {
      child.kill(signal)
    }
  }
  signalGroup('SIGTERM')
  const timer = setTimeout(() => signalGroup('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}

/** The base URL a site started with `env` publishes, or its own origin when the settings are wrong. */
function publishedBaseUrl(env: NodeJS.ProcessEnv, port: number): string {
  try {
    return parseConfig(env).baseUrl
  } catch {
    return `http://127.0.0.1:${port}`
  }
}
