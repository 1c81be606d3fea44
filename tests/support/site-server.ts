/**
 * Starts the built site (`node scripts/start.ts`, what `npm start` runs) on a free loopback port with
 * the given environment, and stops it. Tests drive it over real HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { SETTING_VARIABLES } from '../../lib/env.ts'
import { projectRoot } from './paths.ts'

export interface RunningSite {
  /** Origin the server listens on, e.g. `http://127.0.0.1:41234`. */
  origin: string
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

/** The Node flags `npm start` runs the server with (package.json), so tests and benchmarks run it alike. */
export function startScriptNodeFlags(): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
  const match = /^node((?: --[\w=.-]+)*) scripts\/start\.ts$/.exec(scripts.start ?? '')
  if (!match) throw new Error(`package.json "start" must be "node [--flags] scripts/start.ts", got ${JSON.stringify(scripts.start)}`)
  return (match[1] ?? '').split(' ').filter(Boolean)
}

/** The site's settings (lib/env.ts) but the listen address: from the developer's shell or `.env` they would change the site under test. */
export const ISOLATED_VARIABLES: readonly string[] = SETTING_VARIABLES.filter((name) => name !== 'HOST' && name !== 'PORT')

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

/**
 * `server: 'npm-start'` (default) runs scripts/start.ts; `'next-start'` runs plain `next start`, the
 * way Next serves the app's route files (as on Vercel), to compare the two.
 */
export async function startSite(
  env: Record<string, string> = {},
  options: { port?: number; server?: 'npm-start' | 'next-start' } = {},
): Promise<RunningSite> {
  const port = options.port ?? (await freePort())
  const baseEnv = isolatedEnv()
  const args =
    options.server === 'next-start'
      ? [path.join(projectRoot, 'node_modules/next/dist/bin/next'), 'start', '-H', '127.0.0.1', '-p', String(port)]
      : [...startScriptNodeFlags(), 'scripts/start.ts']
  return await startSiteProcess(process.execPath, args, {
    cwd: projectRoot,
    env: { ...baseEnv, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), ...env },
    port,
  })
}

/** Runs a command that serves the site on 127.0.0.1:`port` (e.g. `npm start` in a copy) until it says it is ready. */
export async function startSiteProcess(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; port: number }): Promise<RunningSite> {
  // Its own process group, so stopping it also stops what it started (`npm start` runs the server under sh).
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  // A failed spawn (e.g. EAGAIN) emits 'error' and never exits: report it instead of waiting 30 s.
  child.once('error', (error) => (output += `\n[spawn failed: ${error.message}]`))
  const origin = `http://127.0.0.1:${options.port}`
  const site: RunningSite = {
    origin,
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
