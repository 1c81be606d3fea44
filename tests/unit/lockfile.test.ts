import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectRoot } from '../../harness/paths.ts'

describe('package-lock.json', () => {
  it('lists every optional dependency of every locked package, so `npm ci` accepts it on a fresh machine', () => {
    const lock = JSON.parse(readFileSync(path.join(projectRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { optionalDependencies?: Record<string, string> }>
    }
    const missing = Object.entries(lock.packages).flatMap(([key, entry]) =>
      Object.keys(entry.optionalDependencies ?? {}).filter(
        (name) => !lock.packages[`node_modules/${name}`] && !lock.packages[`${key}/node_modules/${name}`],
      ),
    )
    expect(Object.keys(lock.packages['node_modules/next']?.optionalDependencies ?? {}).length).toBeGreaterThan(0)
    expect(missing, 'run `npm run complete-lockfile` after `npm install`').toEqual([])
  })
})
