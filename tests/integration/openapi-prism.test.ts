/**
 * Stoplight Prism as a validating proxy in front of the built site, with the published /openapi.json:
 * every real answer of the REST API passes, and a canary copy of the document (a schema no real body
 * can match) makes Prism report the violation, so the body validation provably runs.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../../harness/paths.ts'
import { freePort, startSite, type RunningSite } from '../../harness/site-server.ts'

let site: RunningSite
let document: { components: { schemas: Record<string, { required: string[]; properties: Record<string, unknown> }> } }
const dir = mkdtempSync(path.join(tmpdir(), 'prism-'))
const proxies: ChildProcess[] = []

beforeAll(async () => {
  site = await startSite()
  document = (await (await site.fetch('/openapi.json')).json()) as typeof document
}, 240_000)
afterAll(async () => {
  for (const proxy of proxies) proxy.kill()
  await site?.stop()
})

/** Prism proxying to the site with this document; request validation off, so error answers are checked too. */
async function startPrism(name: string, openapi: unknown): Promise<string> {
  const file = path.join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify(openapi))
  const port = await freePort()
  const args = ['proxy', file, site.origin, '--errors', '--validate-request=false', '-h', '127.0.0.1', '-p', String(port)]
  const proxy = spawn(path.join(projectRoot, 'node_modules/.bin/prism'), args, { stdio: ['ignore', 'pipe', 'pipe'] })
  proxies.push(proxy)
  let log = ''
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${log}`)), 60_000)
    const watch = (chunk: Buffer) => {
      log += chunk
      if (log.includes('Prism is listening')) {
        clearTimeout(timer)
        resolve()
      }
    }
    proxy.stdout?.on('data', watch)
    proxy.stderr?.on('data', watch)
  })
  return `http://127.0.0.1:${port}`
}

const REST_PATHS = [
  '/api/agent/v1/health',
  '/api/agent/v1/capabilities',
  '/api/agent/v1/resources',
  '/api/agent/v1/resources/product-overview',
  '/api/agent/v1/resources/developer-resources',
  '/api/agent/v1/resources/agent-boundaries',
  '/api/agent/v1/resources/nope',
]

describe('Prism validating proxy', () => {
  it('finds no violation in any real answer of the REST API', { timeout: 120_000 }, async () => {
    const prism = await startPrism('published', document)
    for (const apiPath of REST_PATHS) {
      const response = await fetch(`${prism}${apiPath}`)
      const body = await response.text()
      expect({ path: apiPath, violations: response.headers.get('sl-violations') }).toEqual({ path: apiPath, violations: null })
      expect(response.status, `${apiPath}: ${body.slice(0, 300)}`).toBe(apiPath.endsWith('/nope') ? 404 : 200)
    }
  })

  it('reports a body that does not match the document (a canary schema), so body validation really runs', { timeout: 120_000 }, async () => {
    const canary = structuredClone(document)
    const health = canary.components.schemas.AgentHealth
    if (!health) throw new Error('the document has no AgentHealth schema')
    health.required.push('canary')
    health.properties.canary = { type: 'string' }
    const prism = await startPrism('canary', canary)
    const response = await fetch(`${prism}/api/agent/v1/health`)
    expect(response.status).toBe(500)
    expect(JSON.parse(response.headers.get('sl-violations') ?? 'null')).toEqual([
      { location: ['response', 'body'], severity: 'Error', code: 'required', message: "Response body must have required property 'canary'" },
    ])
  })
})
