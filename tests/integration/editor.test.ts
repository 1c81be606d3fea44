/**
 * The visual editor exists only where it is safe: a production build without the editor's GitHub
 * settings (`npm start`, `next start`) has no /keystatic and no /api/keystatic — 404, nothing to sign
 * in to or write through — and ships none of the editor's code.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureSiteBuild } from '../../harness/site-build.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

const servers = {} as Record<'npm start' | 'next start', RunningSite>

beforeAll(async () => {
  ;[servers['npm start'], servers['next start']] = await Promise.all([startSite(), startSite({}, { server: 'next-start' })])
}, 240_000)
afterAll(async () => {
  await Promise.all(Object.values(servers).map((site) => site?.stop()))
})

const EDITOR_REQUESTS: Array<[string, RequestInit]> = [
  ['/keystatic', {}],
  ['/keystatic/singleton/pricing', {}],
  ['/api/keystatic/tree', {}],
  ['/api/keystatic/github/login', {}],
  ['/api/keystatic/update', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"additions":[],"deletions":[]}' }],
]

describe.each(['npm start', 'next start'] as const)('%s without the editor settings', (server) => {
  it.each(EDITOR_REQUESTS)('%s answers 404', async (requestPath, init) => {
    const response = await servers[server].fetch(requestPath, { ...init, redirect: 'manual' })
    expect(response.status).toBe(404)
    expect(await response.text()).not.toMatch(/keystatic/i)
  })
})

describe('the production build without the editor settings', () => {
  it('holds no editor code: no file of .next/static or .next/server names Keystatic', () => {
    const next = path.join(ensureSiteBuild('test'), '.next')
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
      )
    const naming = [...files(path.join(next, 'static')), ...files(path.join(next, 'server'))].filter(
      (file) => /\.(js|json|html|rsc)$/.test(file) && readFileSync(file, 'utf8').includes('@keystatic'),
    )
    expect(naming).toEqual([])
  })
})
