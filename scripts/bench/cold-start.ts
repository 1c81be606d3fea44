/**
 * The cold-start case of `npm run bench`: how long a new instance takes from process start to its
 * first answer, against two anchors built from the same Next version with the same `vercel build` and
 * run by the same launcher (Vercel's `___next_launcher.cjs`, harness/vercel-output.ts): a bare Next app
 * (one route handler answering `Response.json({status:'ok'})` at the health path), and the MCP SDK's
 * own minimal Next route (`createMcpHandler` serving one tool at /mcp), a tools/call served the SDK's
 * own way. All are built offline under tests/.artifacts/cold-start: the site from a copy
 * of its sources, the anchors generated there, each with node_modules hard-linked from the project's
 * own install. The runs alternate bare, the SDK's route (first tools/call), agent API (GET health),
 * MCP (first tools/call), `npm start` (GET health), each a fresh process, and the medians are
 * compared as ratios (absolute times drift with the machine's load).
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { SETTING_VARIABLES } from '../../lib/env.ts'
import { MCP_PATH } from '../../lib/contract/constants.ts'
import { operationPath } from '../../lib/contract/operations.ts'
import { processCpuMs } from '../../harness/proc-stats.ts'
import { freePort } from '../../harness/site-server.ts'
import { benchCases, READ_TOOL } from './cases.ts'
import { BUILD_SOURCES, buildCopy, copyForBuild } from '../../harness/project-build.ts'
import { runVercelFunction, VercelOutput } from '../../harness/vercel-output.ts'
import { median } from './median.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const workDir = path.join(projectRoot, 'tests', '.artifacts', 'cold-start')

/** The goals: the agent API's first answer as a multiple of the bare app's, the first MCP tools/call of the SDK's minimal route's. */
const COLD_START_GOALS = { rest: 1.3, mcp: 1.1 } as const

/** A Vercel production deployment with made-up hosts, as the tests' `vercel` build. */
const DEPLOYMENT = {
  VERCEL: '1',
  VERCEL_ENV: 'production',
  VERCEL_URL: 'cadence-abc123.vercel.app',
  VERCEL_PROJECT_PRODUCTION_URL: 'cadence.example',
}
const HEALTH = operationPath('getAgentHealth')
const AGENT_FUNCTION = '/api/agent/v1/[[...path]]'

/** The builds' environment: the deployment's settings and none of the developer's. */
function buildEnv(): NodeJS.ProcessEnv {
  const blanked = Object.fromEntries(SETTING_VARIABLES.filter((name) => name !== 'HOST' && name !== 'PORT').map((name) => [name, '']))
  return { ...process.env, ...blanked, ...DEPLOYMENT }
}

/** The anchors' package.json: the project's dependencies, so `vercel build`'s install finds all in place, offline. */
function anchorManifest(name: string): string {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as Record<string, unknown>
  return JSON.stringify({ ...manifest, name, scripts: { build: 'next build' } }, null, 2)
}
const NEXT_CONFIG = 'export default { turbopack: { root: process.cwd() }, outputFileTracingRoot: process.cwd(), poweredByHeader: false }\n'

/** The bare app: one route handler. */
const bareAppFiles = (): Record<string, string> => ({
  'package.json': anchorManifest('bare-next'),
  'next.config.mjs': NEXT_CONFIG,
  [`app${HEALTH}/route.js`]: "export const dynamic = 'force-dynamic'\nexport const GET = () => Response.json({ status: 'ok' })\n",
})

/**
 * The MCP SDK's minimal Next route, as its documentation composes one: `createMcpHandler` with a
 * factory registering one tool (a zod input schema, a text result), answering the same tools/call
 * the MCP case sends (same tool name and argument).
 */
function sdkMcpAppFiles(tool: string): Record<string, string> {
  const route = [
    "import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'",
    "import { z } from 'zod'",
    "export const dynamic = 'force-dynamic'",
    'const handler = createMcpHandler(() => {',
    "  const server = new McpServer({ name: 'sdk-minimal', version: '1.0.0' })",
    `  server.registerTool(${JSON.stringify(tool)}, { description: 'Reads a resource by id.', inputSchema: z.object({ resourceId: z.string() }) }, ({ resourceId }) => ({`,
    "    content: [{ type: 'text', text: 'resource ' + resourceId }],",
    '  }))',
    '  return server',
    '})',
    'export const POST = (request) => handler.fetch(request)',
  ]
  return { 'package.json': anchorManifest('sdk-mcp-next'), 'next.config.mjs': NEXT_CONFIG, [`app${MCP_PATH}/route.js`]: `${route.join('\n')}\n` }
}

/** An anchor app is built again only when its files or the installed packages changed. */
function buildAnchor(dir: string, files: Record<string, string>): void {
  const stamp = createHash('sha256')
    .update(JSON.stringify(files))
    .update(readFileSync(path.join(projectRoot, 'node_modules', '.package-lock.json')))
    .digest('hex')
  const stampFile = path.join(dir, '.build-stamp')
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return
  process.stderr.write(`cold start: building ${path.basename(dir)} with vercel build (offline)…\n`)
  copyForBuild(projectRoot, dir, ['package-lock.json'])
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), text)
  }
  buildCopy(dir, 'vercel', buildEnv())
  writeFileSync(stampFile, stamp)
}

function buildAll(): { site: string; bare: string; sdkMcp: string } {
  const [site, bare, sdkMcp] = ['site', 'bare', 'sdk-mcp'].map((name) => path.join(workDir, name)) as [string, string, string]
  process.stderr.write('cold start: building the site with vercel build (offline)…\n')
  copyForBuild(projectRoot, site, BUILD_SOURCES)
  buildCopy(site, 'vercel', buildEnv())
  buildAnchor(bare, bareAppFiles())
  buildAnchor(sdkMcp, sdkMcpAppFiles(READ_TOOL))
  return { site, bare, sdkMcp }
}

/** `npm start` (its Node flags from package.json) in `dir`, from process start to the first answer to the health path. */
async function timeNpmStart(dir: string): Promise<{ ms: number; cpuMs: number }> {
  const start = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  const args = start.split(' ').slice(1)
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, args, {
    cwd: dir,
    env: { ...buildEnv(), HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  try {
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`)
      const status = await fetch(`http://127.0.0.1:${port}${HEALTH}`).then(
        (response) => response.status,
        () => 0,
      )
      if (status === 200) return { ms: performance.now() - started, cpuMs: processCpuMs(child.pid ?? 0) }
      if (status) throw new Error(`npm start answered ${status} first:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    throw new Error(`npm start did not answer within 60 s:\n${output}`)
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    if (child.exitCode === null) child.kill('SIGKILL')
    if (child.exitCode === null) await exited
  }
}

export async function benchColdStart(runs: number): Promise<void> {
  const { site, bare, sdkMcp } = buildAll()
  const siteOutput = new VercelOutput(site)
  const bareOutput = new VercelOutput(bare)
  const sdkMcpOutput = new VercelOutput(sdkMcp)
  const agentFunction = siteOutput.functions().get(AGENT_FUNCTION) as string
  const bareFunction = bareOutput.functions().get(HEALTH) as string
  const sdkMcpFunction = sdkMcpOutput.functions().get(MCP_PATH) as string
  const mcp = benchCases().find((c) => c.name === 'mcp-tools-call')
  if (!mcp) throw new Error('the mcp-tools-call bench case is missing')
  const firstCall = { method: 'POST', headers: mcp.headers, body: mcp.body }
  const env = buildEnv()
  const deployment = Object.fromEntries(Object.entries(env).filter(([name]) => name in DEPLOYMENT)) as Record<string, string>
  type Sample = { ms: number; cpuMs: number }
  const times = { bare: [] as Sample[], sdkMcp: [] as Sample[], rest: [] as Sample[], mcp: [] as Sample[], npmStart: [] as Sample[] }
  const launch = async (functionDir: string, projectDir: string, readyPath: string, ready = {}): Promise<Sample> => {
    const run = await runVercelFunction(functionDir, projectDir, deployment, readyPath, ready)
    await run.stop()
    if (run.firstStatus !== 200) throw new Error(`${readyPath} answered ${run.firstStatus} first:\n${run.output()}`)
    return { ms: run.startMs, cpuMs: run.startCpuMs }
  }
  for (let run = 1; run <= runs; run++) {
    process.stderr.write(`cold start run ${run}/${runs}: bare, the SDK's MCP route, agent API, MCP, npm start\n`)
    times.bare.push(await launch(bareFunction, bare, HEALTH))
    times.sdkMcp.push(await launch(sdkMcpFunction, sdkMcp, MCP_PATH, firstCall))
    times.rest.push(await launch(agentFunction, site, HEALTH))
    times.mcp.push(await launch(agentFunction, site, mcp.path, firstCall))
    times.npmStart.push(await timeNpmStart(site))
  }
  const medians = (samples: Sample[]) => ({ ms: median(samples.map((s) => s.ms)), cpuMs: median(samples.map((s) => s.cpuMs)) })
  const bareMedians = medians(times.bare)
  const sdkMcpMedians = medians(times.sdkMcp)
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`
  const row = (name: string, samples: Sample[], goal?: { anchor: { ms: number; cpuMs: number }; times: number }) => {
    const { ms, cpuMs } = medians(samples)
    const verdict = goal === undefined ? '' : ms / goal.anchor.ms <= goal.times ? `pass (≤ ${goal.times}×)` : `FAIL (> ${goal.times}×)`
    const toAnchor = (anchor: { ms: number; cpuMs: number }) => [ratio(ms, anchor.ms), ratio(cpuMs, anchor.cpuMs)]
    const runsText = samples.map((s) => s.ms.toFixed(0)).join(' ')
    return [name, ms.toFixed(0), cpuMs.toFixed(0), ...toAnchor(bareMedians), ...toAnchor(sdkMcpMedians), verdict, runsText]
  }
  const rows = [
    ['cold start: process start → first 200', 'median ms', 'CPU ms', '× bare', 'CPU × bare', '× SDK MCP', 'CPU × SDK MCP', 'goal', 'runs (ms)'],
    row('bare Next route handler (launcher, GET health)', times.bare),
    row("MCP SDK's minimal route (launcher, first tools/call)", times.sdkMcp),
    row('agent API function (launcher, GET health)', times.rest, { anchor: bareMedians, times: COLD_START_GOALS.rest }),
    row('agent API function (launcher, first MCP tools/call)', times.mcp, { anchor: sdkMcpMedians, times: COLD_START_GOALS.mcp }),
    row('npm start (GET health)', times.npmStart),
  ]
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((r) => (r[column] ?? '').length))) ?? []
  const line = (r: string[]) => `| ${r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`
  console.log(
    `\n${runs} alternating cold starts each, Vercel's ___next_launcher.cjs for every build (vercel build, offline); medians. ` +
      "The agent API's goal is a multiple of the bare route's, the first MCP call's of the SDK's minimal route's, judged on wall time; " +
      "CPU time (user + system of the process when it answered) shows the work itself, which the machine's other load does not stretch.\n",
  )
  console.log(line(rows[0] ?? []))
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const r of rows.slice(1)) console.log(line(r))
  console.log('\nfunctions (unzipped: own files plus every traced file):')
  for (const [label, output, dir] of [
    ['site', siteOutput, site],
    ['bare', bareOutput, bare],
    ['SDK MCP', sdkMcpOutput, sdkMcp],
  ] as const) {
    const routes = new Map<string, string[]>()
    for (const [route, functionDir] of output.functions()) {
      if (!/\.rsc$|\.segments\//.test(route)) routes.set(functionDir, [...(routes.get(functionDir) ?? []), route])
    }
    for (const [functionDir, served] of routes) {
      const { bytes, files } = output.functionSize(functionDir, dir)
      const names = served.length > 3 ? `${served.slice(0, 3).join(', ')} and ${served.length - 3} more` : served.join(', ')
      console.log(`  ${label} ${(bytes / 1e6).toFixed(2)} MB, ${files} files: ${names}`)
    }
  }
}
