/**
 * `npm run complete-lockfile`: `npm ci` refuses a lockfile that lacks an optional dependency of a
 * locked package, and a registry that serves only Linux builds makes `npm install` drop the macOS and
 * Windows builds of native packages (`@next/swc-*`, the Vercel CLI's `@vercel/vc-native-*`). This
 * puts back every missing platform build (version from its parent's manifest, os/cpu from its name;
 * npm skips them on other platforms). Run it after changing dependencies.
 */
import { readFileSync, writeFileSync } from 'node:fs'

interface LockEntry {
  dev?: boolean
  optionalDependencies?: Record<string, string>
  [field: string]: unknown
}
const LOCKFILE = 'package-lock.json'
const lock = JSON.parse(readFileSync(LOCKFILE, 'utf8')) as { packages: Record<string, LockEntry> }
const PLATFORM =
  /-(darwin|linux|win32|android|freebsd|openbsd|sunos|aix)-(arm64|x64|arm|ia32|ppc64|s390x|riscv64|loong64)(?:-(gnu|musl|msvc|gnueabihf))?$/
const added: string[] = []

for (const [parentKey, parent] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(parent.optionalDependencies ?? {})) {
    const platform = PLATFORM.exec(name)
    const key = `node_modules/${name}`
    const nested = `${parentKey}/node_modules/${name}`
    if (!platform || lock.packages[key] || lock.packages[nested]) continue
    const [, os, cpu, abi] = platform
    lock.packages[key] = {
      version,
      cpu: [cpu],
      ...(abi === 'gnu' || abi === 'musl' ? { libc: [abi === 'gnu' ? 'glibc' : 'musl'] } : {}),
      ...(parent.dev ? { dev: true } : {}),
      optional: true,
      os: [os],
    }
    added.push(name)
  }
}

const [root, ...rest] = Object.entries(lock.packages)
lock.packages = Object.fromEntries([...(root ? [root] : []), ...rest.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))])
writeFileSync(LOCKFILE, `${JSON.stringify(lock, null, 2)}\n`)
console.log(added.length ? `added ${added.join(', ')}` : 'lockfile already complete')
