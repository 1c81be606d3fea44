/**
 * Reading the Build Output API v3 tree that `vercel build` writes (.vercel/output), and running one of
 * its functions the way Vercel does: the function's files (its `filePathMap`) are copied into a
 * directory of their own, so a file the build forgot to trace fails here as it would on Vercel, and
 * the function's own `___next_launcher.cjs` answers requests on a loopback port. Used by the tests of
 * the Vercel build and by the cold-start benchmark (scripts/bench/cold-start.ts).
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { processCpuMs } from './proc-stats.ts'

export interface VercelRoute {
  src?: string
  dest?: string
  headers?: Record<string, string>
  has?: Array<{ type: string; key: string; value?: string }>
  missing?: Array<{ type: string; key: string; value?: string }>
  middlewarePath?: string
  handle?: string
  status?: number
  continue?: boolean
}

export interface PrerenderConfig {
  expiration: number | false
  fallback: { fsPath: string; contentType?: string }
  initialHeaders?: Record<string, string>
  initialStatus?: number
}

export class VercelOutput {
  readonly dir: string
  readonly routes: VercelRoute[]

  constructor(projectDir: string) {
    this.dir = path.join(projectDir, '.vercel', 'output')
    this.routes = (JSON.parse(readFileSync(path.join(this.dir, 'config.json'), 'utf8')) as { routes: VercelRoute[] }).routes
  }

  private functionPath(route: string): string {
    return path.join(this.dir, 'functions', route === '/' ? 'index' : route.slice(1))
  }

  /** The prerendered answer Vercel serves for a route without running any function, or null. */
  prerender(route: string): { config: PrerenderConfig; body: Buffer } | null {
    const file = `${this.functionPath(route)}.prerender-config.json`
    if (!existsSync(file)) return null
    const config = JSON.parse(readFileSync(file, 'utf8')) as PrerenderConfig
    return { config, body: readFileSync(path.join(path.dirname(file), config.fallback.fsPath)) }
  }

  /** Every route with a function, by path (`/api/agent/v1/[[...path]]`), with the function directory it runs. */
  functions(): Map<string, string> {
    const found = new Map<string, string>()
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry)
        if (entry.endsWith('.func')) {
          const route = `/${path.relative(path.join(this.dir, 'functions'), full).slice(0, -'.func'.length)}`
          found.set(route, realpathSync(full))
        } else if (lstatSync(full).isDirectory()) {
          walk(full)
        }
      }
    }
    walk(path.join(this.dir, 'functions'))
    return found
  }

  /**
   * Bytes of a function as deployed (its own files plus every project file its filePathMap names),
   * and the server chunks it carries more than once under different names (the same code bundled
   * into several routes' chunks).
   */
  functionSize(functionDir: string, projectDir: string): { bytes: number; files: number; duplicateChunks: string[] } {
    const config = JSON.parse(readFileSync(path.join(functionDir, '.vc-config.json'), 'utf8')) as { filePathMap?: Record<string, string> }
    let bytes = 0
    let files = 0
    for (const entry of readdirSync(functionDir)) {
      bytes += statSync(path.join(functionDir, entry)).size
      files++
    }
    const chunks = new Map<string, string>()
    const duplicateChunks: string[] = []
    for (const [target, source] of Object.entries(config.filePathMap ?? {})) {
      bytes += statSync(path.join(projectDir, source)).size
      files++
      if (!/\.next\/server\/chunks\/.*\.js$/.test(target)) continue
      const digest = createHash('sha256')
        .update(readFileSync(path.join(projectDir, source)))
        .digest('hex')
      const first = chunks.get(digest)
      if (first) duplicateChunks.push(`${target} = ${first}`)
      else chunks.set(digest, target)
    }
    return { bytes, files, duplicateChunks }
  }
}

export interface RunningFunction {
  origin: string
  /** Milliseconds from spawning the process to its first answer (to `readyPath`, sent as `ready` says). */
  startMs: number
  /** The status of that first answer. */
  firstStatus: number
  /** CPU time (user + system) the process had used when it answered: what the machine's other load does not stretch. */
  startCpuMs: number
  output: () => string
  stop: () => Promise<void>
}

/**
 * Copies a function's files into a fresh directory and serves its launcher on a loopback port with
 * the deployment's environment; resolves once `readyPath` answers (a GET, or the request `ready`
 * describes: the first MCP call of a cold instance is a POST).
 */
export async function runVercelFunction(
  functionDir: string,
  projectDir: string,
  env: Record<string, string>,
  readyPath: string,
  ready: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RunningFunction> {
  const root = mkdtempSync(path.join(tmpdir(), 'vercel-func-'))
  const config = JSON.parse(readFileSync(path.join(functionDir, '.vc-config.json'), 'utf8')) as {
    handler: string
    filePathMap?: Record<string, string>
  }
  cpSync(functionDir, root, { recursive: true })
  for (const [target, source] of Object.entries(config.filePathMap ?? {})) {
    mkdirSync(path.dirname(path.join(root, target)), { recursive: true })
    cpSync(path.join(projectDir, source), path.join(root, target), { recursive: true, verbatimSymlinks: true })
  }
  const server = path.join(root, '___serve.cjs')
  // The system picks the port; the wrapper's first line names it.
  writeFileSync(
    server,
    `const handler = require(${JSON.stringify(path.join(root, config.handler))})\n` +
      `const server = require('node:http').createServer((req, res) => handler(req, res))\n` +
      `server.listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port))\n`,
  )
  const started = performance.now()
  const child = spawn(process.execPath, [server], {
    cwd: root,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  let origin = ''
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      await exited
    }
    rmSync(root, { recursive: true, force: true })
  }
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the function exited with ${child.exitCode}:\n${output}`)
    const port = /listening on (\d+)/.exec(output)?.[1]
    if (!port) {
      await new Promise((resolve) => setTimeout(resolve, 1))
      continue
    }
    origin = `http://127.0.0.1:${port}`
    const answered = await fetch(`${origin}${readyPath}`, {
      ...ready,
      headers: { 'x-real-ip': '203.0.113.9', ...ready.headers },
      signal: AbortSignal.timeout(5_000),
    }).then(
      (response) => response.status,
      () => 0,
    )
    if (answered) {
      const startMs = performance.now() - started
      return { origin, startMs, firstStatus: answered, startCpuMs: processCpuMs(child.pid ?? 0), output: () => output, stop }
    }
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  await stop()
  throw new Error(`the function did not answer within 30 s:\n${output}`)
}
