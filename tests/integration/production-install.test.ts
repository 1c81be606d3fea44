/**
 * A production install: a copy of the built project, `npm ci --omit=dev` (no dev dependencies; the
 * npm cache makes it quick, the registry fills any gap), then `npm start` from a shell whose own `node`
 * comes first on PATH — Node 24 comes from the `node` dependency, whatever the machine has.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyProject, type ProjectCopy } from '../support/project-copy.ts'
import { SITE_BUILDS } from '../../harness/site-build.ts'
import { blankedSiteVariables, freePort, startSiteProcess, type RunningSite } from '../../harness/site-server.ts'

let copy: ProjectCopy
let site: RunningSite | undefined
let install: { code: number | null; output: string }

/**
 * An operator's shell: the settings the build was made with, PATH without any node_modules/.bin (so
 * the machine's own node comes first), no npm_* leftovers.
 */
function operatorEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...blankedSiteVariables(), ...SITE_BUILDS.test, NODE_ENV: 'production' }
  for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name]
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((entry) => entry && !entry.split(path.sep).includes('node_modules'))
    .join(path.delimiter)
  return env
}

function machineNodeVersion(): string {
  return spawnSync('node', ['--version'], { env: operatorEnv(), encoding: 'utf8' }).stdout.trim()
}

/** The processes started, directly or not, by `pid` (Linux /proc). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // exited meanwhile
    }
  }
  const found: number[] = []
  const queue = [pid]
  while (queue.length > 0) {
    const parent = queue.shift()
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child)
        queue.push(child)
      }
    }
  }
  return found
}

beforeAll(async () => {
  copy = copyProject({ nodeModules: 'none', build: true })
  install = await new Promise((resolve, reject) => {
    const child = spawn('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: copy.root,
      env: operatorEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), 170_000)
    child.on('error', reject)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}, 180_000)

afterAll(async () => {
  await site?.stop()
  copy?.dispose()
})

describe(`npm ci --omit=dev && npm start (the machine's node: ${machineNodeVersion()})`, () => {
  it('installs the production dependencies only, Node 24 among them', () => {
    expect(install.code, install.output).toBe(0)
    expect(existsSync(path.join(copy.root, 'node_modules/next/package.json'))).toBe(true)
    expect(existsSync(path.join(copy.root, 'node_modules/vitest'))).toBe(false)
    expect(existsSync(path.join(copy.root, 'node_modules/typescript'))).toBe(false)
    expect(existsSync(path.join(copy.root, 'node_modules/autocannon'))).toBe(false)
    const node = spawnSync(path.join(copy.root, 'node_modules/.bin/node'), ['--version'], { encoding: 'utf8' })
    expect(node.stdout.trim()).toMatch(/^v24\./)
  })

  it('serves the agent API, answered by the Node 24 of the install', async () => {
    const port = await freePort()
    site = await startSiteProcess('npm', ['start'], { cwd: copy.root, env: { ...operatorEnv(), HOST: '127.0.0.1', PORT: String(port) }, port })
    const health = await site.fetch('/api/agent/v1/health')
    expect(health.status).toBe(200)
    expect(((await health.json()) as { status: string }).status).toBe('ok')

    const server = descendants(site.process.pid ?? 0).find((pid) => {
      try {
        // The server itself, not the `sh -c` npm runs it under: an argument of its own is the script.
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('scripts/start.ts')
      } catch {
        return false
      }
    })
    expect(server, site.output()).toBeDefined()
    const executable = readlinkSync(`/proc/${server}/exe`)
    expect(executable).toBe(path.join(copy.root, 'node_modules/node/bin/node'))
  })
})
