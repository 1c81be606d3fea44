/**
 * Configuration behaves the same everywhere: in a copy of the project, `.env` files configure `npm run
 * build` and `npm start` (agent API, MCP, pages), `npm run rollout`, bench and soak exactly as Next
 * reads them (order, the environment winning, `$VAR` expansion); an empty value is unset; a wrong value
 * stops the command with one line naming the variable and its file, no stack trace.
 */
import { spawn } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { modernRequest } from '../support/mcp-http.ts'
import { copyProject, type ProjectCopy } from '../support/project-copy.ts'
import { envWithoutSiteVariables, freePort, startSiteProcess, type RunningSite } from '../../harness/site-server.ts'

const ENV_FILES = ['.env', '.env.local', '.env.production', '.env.production.local', '.env.development', '.env.development.local']

/**
 * The settings pages are built with, layered over the four files: the build and npm start must both
 * resolve them in Next's order (`.env.development` is never read by either).
 */
const BUILD_ENV_FILES: Record<string, string[]> = {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${APP_DOMAIN}: the .env expansion Next applies is what is tested
  '.env': ['BASE_URL=https://dotenv.example', 'SERVICE_NAME=from-dotenv', 'APP_DOMAIN=cadence.test', 'APP_URL=https://app.${APP_DOMAIN}'],
  '.env.production': ['BASE_URL=https://production.example', 'SERVICE_NAME=from-production'],
  '.env.local': ['BASE_URL=https://local.example', 'SERVICE_NAME=from-local'],
  '.env.production.local': ['BASE_URL=https://production-local.example'],
  '.env.development': ['BASE_URL=https://development.example', 'PUBLIC_AGENT_ACCESS=false'],
}

let copy: ProjectCopy
let site: RunningSite | undefined
let build: { code: number; lines: string[]; output: string }

beforeAll(async () => {
  // Hard links: Turbopack builds only with a node_modules inside the project.
  copy = copyProject({ nodeModules: 'hardlink', build: false })
  writeEnvFiles({})
  build = await npmRun(['build'], {}, 230_000)
}, 240_000)

afterEach(async () => {
  await site?.stop()
  site = undefined
  writeEnvFiles({})
})

afterAll(() => copy?.dispose())

/** The build's `.env` files, each with `extra` lines appended (a later line wins in a file). */
function writeEnvFiles(extra: Record<string, string[]>): void {
  for (const file of ENV_FILES) {
    const lines = [...(BUILD_ENV_FILES[file] ?? []), ...(extra[file] ?? [])]
    if (lines.length) writeFileSync(path.join(copy.root, file), `${lines.join('\n')}\n`)
    else rmSync(path.join(copy.root, file), { force: true })
  }
}

/** The shell an operator types into: none of the site's variables, unless given. */
function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...envWithoutSiteVariables(), NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...extra }
}

async function npmStart(extra: Record<string, string>): Promise<RunningSite> {
  const port = await freePort()
  return await startSiteProcess('npm', ['start'], { cwd: copy.root, env: shellEnv({ HOST: '127.0.0.1', PORT: String(port), ...extra }), port })
}

/**
 * Runs an npm script in the copy to its end; `lines` is what the program printed (npm's own lines
 * removed). `killAfterMs` only stops a hang: a full build on a busy machine takes minutes.
 */
async function npmRun(
  args: string[],
  extra: Record<string, string> = {},
  killAfterMs = 50_000,
): Promise<{ code: number; lines: string[]; output: string }> {
  return await new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', ...args], { cwd: copy.root, env: shellEnv(extra), stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
    child.on('error', reject)
    child.on('exit', (code) => {
      clearTimeout(timer)
      const lines = output.split('\n').filter((line) => line.trim() && !/^(npm (warn|error|notice)|> )/.test(line))
      resolve({ code: code ?? -1, lines, output })
    })
  })
}

describe('.env files', () => {
  it('configure npm run build and npm start — agent API, MCP and pages — in Next order, the environment winning, with expansion', async () => {
    expect(build.code, build.output).toBe(0)
    writeEnvFiles({ '.env': ['PUBLIC_AGENT_ACCESS=false'] })
    site = await npmStart({ PUBLIC_AGENT_ACCESS: 'true' })

    const health = await site.fetch('/api/agent/v1/health')
    expect(health.status).toBe(200)
    expect(((await health.json()) as { openapi: string }).openapi).toBe('https://production-local.example/openapi.json')

    const resources = (await (await site.fetch('/api/agent/v1/resources')).json()) as { resources: Array<{ uri: string }> }
    expect(resources.resources[0]?.uri).toBe('from-local://public/product-overview')

    const list = modernRequest('resources/list')
    const mcp = await site.fetch('/mcp', { method: 'POST', headers: list.headers, body: JSON.stringify(list.body) })
    expect(mcp.status).toBe(200)
    expect(JSON.stringify(await mcp.json())).toContain('"uri":"from-local://public/product-overview"')

    const login = await (await site.fetch('/login')).text()
    expect(login).toContain('href="https://app.cadence.test/login"')
    expect(login).toContain('https://production-local.example/login')
  })

  it('make npm start refuse a build made with other settings, in one line', async () => {
    writeEnvFiles({ '.env.production.local': ['BASE_URL=https://elsewhere.example'] })
    const result = await npmRun(['start'])
    expect(result.code).toBe(1)
    expect(result.lines).toEqual([
      'npm start: This build was made for other settings: base URL (BASE_URL, or PORT and the Vercel variables) is "https://production-local.example" in the build but "https://elsewhere.example" here. Start with the build\'s settings, or run npm run build again with these.',
    ])
  })

  it('switch the agent API off with PUBLIC_AGENT_ACCESS=false, and an empty value counts as unset', async () => {
    writeEnvFiles({ '.env.local': ['PUBLIC_AGENT_ACCESS=false', 'DISABLED_RETRY_AFTER_SECONDS='], '.env.production.local': ['TRUST_PROXY='] })
    site = await npmStart({})
    const health = await site.fetch('/api/agent/v1/health')
    expect(health.status).toBe(503)
    expect(health.headers.get('retry-after')).toBe('300')
    expect(((await health.json()) as { instance: string }).instance).toBe('https://production-local.example/api/agent/v1/health')
    const tools = modernRequest('tools/list')
    const mcp = await site.fetch('/mcp', { method: 'POST', headers: tools.headers, body: JSON.stringify(tools.body) })
    expect(mcp.status).toBe(503)
  })

  it('stop npm start on a wrong value with one line naming the variable and its file, no stack trace', async () => {
    writeEnvFiles({ '.env': ['PORT=abc'] })
    const result = await npmRun(['start'])
    expect(result.code).toBe(1)
    expect(result.lines).toEqual(['Invalid setting PORT (from .env): expected a port number from 1 to 65535, got "abc"'])
    expect(result.output).not.toMatch(/^\s+at /m)
  })

  it('configure npm run rollout the same way', async () => {
    writeEnvFiles({ '.env.local': ['PUBLIC_AGENT_ACCESS=false'] })
    const status = await npmRun(['rollout', '--', 'status'])
    expect(status.code).toBe(0)
    expect(status.lines).toEqual(['public_agent_access: disabled (PUBLIC_AGENT_ACCESS; no shared rollout setting: Upstash Redis is not configured)'])

    writeEnvFiles({ '.env.local': ['UPSTASH_REDIS_REST_URL=https://redis.example'] })
    const broken = await npmRun(['rollout', '--', 'disable'])
    expect(broken.code).toBe(1)
    expect(broken.lines).toEqual([
      'Invalid setting UPSTASH_REDIS_REST_TOKEN: set both UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN, or neither',
    ])
  })

  it('configure bench and soak, whose wrong values stop them in one line too', async () => {
    writeEnvFiles({ '.env.local': ['BENCH_RUNS=many', 'SOAK_SECONDS=soon'] })
    const bench = await npmRun(['bench'])
    expect(bench.code).toBe(1)
    expect(bench.lines).toEqual(['Invalid setting BENCH_RUNS (from .env.local): expected a positive whole number, got "many"'])
    writeEnvFiles({ '.env.local': ['BENCH_BASELINE=no-such-commit'] })
    const baseline = await npmRun(['bench'])
    expect(baseline.code).toBe(1)
    expect(baseline.lines).toEqual(['Invalid setting BENCH_BASELINE (from .env.local): expected a commit of this repository, got "no-such-commit"'])
    writeEnvFiles({ '.env.local': ['SOAK_SECONDS=soon'] })
    const soak = await npmRun(['soak'])
    expect(soak.code).toBe(1)
    expect(soak.lines).toEqual(['Invalid setting SOAK_SECONDS (from .env.local): expected a positive number, got "soon"'])
  })

  it('stop npm run build before Next starts, and npm run dev, on a wrong value, in one line', async () => {
    writeEnvFiles({ '.env.production.local': ['BASE_URL=agents.example.com'], '.env.development.local': ['SERVICE_NAME=Cadence Site'] })
    const broken = await npmRun(['build'])
    expect(broken.code).toBe(1)
    expect(broken.lines).toEqual([
      'Invalid setting BASE_URL (from .env.production.local): expected an absolute http(s) URL such as https://agents.example.com, got "agents.example.com"',
    ])

    const port = await freePort()
    const dev = await npmRun(['dev', '--', '-H', '127.0.0.1', '-p', String(port)], { NODE_ENV: '' })
    expect(dev.code).toBe(1)
    expect(dev.output).toContain(
      'Invalid setting SERVICE_NAME (from .env.development.local): expected lower-case letters, digits and hyphens, starting with a letter, got "Cadence Site"',
    )
    expect(dev.output).not.toMatch(/^\s+at /m)
  })
})
