/**
 * Starts the built site (`node scripts/start.ts`, what `npm start` runs) on a free loopback port with
 * the given environment, and stops it. Tests drive it over real HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
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

/** Environment variables of the developer's shell that would change the site under test. */
export const ISOLATED_VARIABLES = [
  'BASE_URL', 'VERCEL', 'VERCEL_ENV', 'VERCEL_URL', 'VERCEL_BRANCH_URL', 'VERCEL_PROJECT_PRODUCTION_URL',
  'PUBLIC_AGENT_ACCESS', 'UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN', 'KV_REST_API_URL',
  'KV_REST_API_TOKEN', 'TRUST_PROXY', 'MCP_ALLOWED_ORIGINS', 'MCP_SERVER_NAME', 'FLAGS_SECRET', 'APP_URL', 'SERVICE_NAME',
  'DISABLED_RETRY_AFTER_SECONDS', 'REDIS_KEY_PREFIX', 'REDIS_TIMEOUT_MS',
]

/** The test runner's environment without the variables that would change the site (Vite sets BASE_URL=/). */
export function isolatedEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env }
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
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: { ...baseEnv, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const origin = `http://127.0.0.1:${port}`
  const site: RunningSite = {
    origin,
    port,
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
    if (/ready (on|in)/i.test(site.output())) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  await site.stop()
  throw new Error(`site did not start within 30 s:\n${site.output()}`)
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}
