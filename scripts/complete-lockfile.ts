/**
 * `npm run complete-lockfile`: `npm ci` refuses a lockfile that lacks any optional dependency of
 * `next`, and a registry that serves only Linux builds makes `npm install` drop the macOS and
 * Windows `@next/swc-*` entries. This puts them back (version from next's own package.json, os/cpu
 * from the package name; npm skips them on other platforms). Run it after changing dependencies.
 */
import { readFileSync, writeFileSync } from 'node:fs'

type LockEntry = Record<string, unknown>
const LOCKFILE = 'package-lock.json'
const lock = JSON.parse(readFileSync(LOCKFILE, 'utf8')) as { packages: Record<string, LockEntry> }
const next = lock.packages['node_modules/next'] as { optionalDependencies?: Record<string, string> } | undefined
const added: string[] = []

for (const [name, version] of Object.entries(next?.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`
  const platform = /^@next\/swc-(darwin|linux|win32)-(arm64|x64)(?:-(gnu|musl|msvc))?$/.exec(name)
  if (lock.packages[key] || !platform) continue
  const [, os, cpu, abi] = platform
  lock.packages[key] = {
    version,
    cpu: [cpu],
    ...(abi === 'gnu' || abi === 'musl' ? { libc: [abi === 'gnu' ? 'glibc' : 'musl'] } : {}),
    license: 'MIT',
    optional: true,
    os: [os],
    engines: { node: '>= 10' },
  }
  added.push(name)
}

const [root, ...rest] = Object.entries(lock.packages)
lock.packages = Object.fromEntries([...(root ? [root] : []), ...rest.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))])
writeFileSync(LOCKFILE, `${JSON.stringify(lock, null, 2)}\n`)
console.log(added.length ? `added ${added.join(', ')}` : 'lockfile already complete')
