/**
 * The two Debian packages `npm test` needs besides node_modules, and the decision `npm test` takes
 * before anything else runs (scripts/test-setup.ts): find them, install the missing ones when this
 * user may (root, or sudo without a password, and apt-get), or stop with one line naming the command.
 * The machine is reached through `SetupHost`, so tests can play a machine without the packages.
 */

/** Where the tests run Debian's Chromium (Playwright, axe, Lighthouse): no browser download is possible here. */
export const CHROMIUM_PATH = '/usr/bin/chromium'
/** Where the tests look for redis-server (the shared-quota tests), in this order, before the PATH. */
export const REDIS_SERVER_PATHS = ['/usr/bin/redis-server', '/usr/local/bin/redis-server']

export interface SystemPackage {
  /** The Debian package that provides it. */
  name: string
  /** Absolute paths that count as installed; `command` on the PATH counts too when set. */
  paths: readonly string[]
  command?: string
}

const TEST_PACKAGES: readonly SystemPackage[] = [
  { name: 'chromium', paths: [CHROMIUM_PATH] },
  { name: 'redis-server', paths: REDIS_SERVER_PATHS, command: 'redis-server' },
]

interface CommandResult {
  ok: boolean
  /** What went wrong, in a few words (the exit status or the spawn error). */
  reason: string
}

/** The machine, as far as the set-up needs it. */
export interface SetupHost {
  /** Is this executable there (an absolute path) or on the PATH (a bare command name)? */
  exists: (pathOrCommand: string) => boolean
  isRoot: () => boolean
  /** Can this user run `sudo` without being asked for a password? */
  hasPasswordlessSudo: () => boolean
  /** Runs a command with the terminal's output (apt-get's progress is worth seeing). */
  run: (command: string, args: readonly string[]) => CommandResult
}

export type SetupOutcome =
  | { status: 'ready'; installed: string[] }
  /** `message` is the one line to print; the caller exits non-zero. */
  | { status: 'missing'; missing: string[]; message: string }

function isInstalled(host: SetupHost, pkg: SystemPackage): boolean {
  return pkg.paths.some((path) => host.exists(path)) || (pkg.command !== undefined && host.exists(pkg.command))
}

function missingPackages(host: SetupHost, packages: readonly SystemPackage[] = TEST_PACKAGES): string[] {
  return packages.filter((pkg) => !isInstalled(host, pkg)).map((pkg) => pkg.name)
}

/** The command a person runs to install the packages (as root, without sudo): what this set-up would have run. */
function installCommand(missing: readonly string[], asRoot = false): string {
  const sudo = asRoot ? '' : 'sudo '
  return `${sudo}apt-get update && ${sudo}apt-get install -y ${missing.join(' ')}`
}

function stop(missing: string[], why: string, asRoot = false): SetupOutcome {
  const message = `npm test needs Debian's ${missing.join(' and ')} (${why}). Run: ${installCommand(missing, asRoot)} — then npm test again.`
  return { status: 'missing', missing, message }
}

/**
 * Finds the packages and installs the missing ones when it can: `apt-get update -qq` then
 * `apt-get install -y -qq`, as root or through `sudo -n`, non-interactively. It never asks for a
 * password (a test run may have no terminal): without root or passwordless sudo, or without apt-get,
 * it stops at once with the command to run.
 */
export function ensureSystemPackages(host: SetupHost, packages: readonly SystemPackage[] = TEST_PACKAGES): SetupOutcome {
  const missing = missingPackages(host, packages)
  if (missing.length === 0) return { status: 'ready', installed: [] }
  if (!host.exists('apt-get')) return stop(missing, 'not installed, and this machine has no apt-get')
  const asRoot = host.isRoot()
  if (!asRoot && !(host.exists('sudo') && host.hasPasswordlessSudo())) {
    return stop(missing, 'not installed, and installing needs root or sudo')
  }
  const apt = (args: string[]) => (asRoot ? host.run('apt-get', args) : host.run('sudo', ['-n', 'apt-get', ...args]))
  const update = apt(['update', '-qq'])
  if (!update.ok) return stop(missing, `apt-get update failed: ${update.reason}`, asRoot)
  const install = apt(['install', '-y', '-qq', ...missing])
  if (!install.ok) return stop(missing, `apt-get install failed: ${install.reason}`, asRoot)
  const stillMissing = missingPackages(host, packages)
  if (stillMissing.length > 0) return stop(stillMissing, 'still not found after apt-get install', asRoot)
  return { status: 'ready', installed: missing }
}
