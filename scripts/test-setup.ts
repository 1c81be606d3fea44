/**
 * `npm test`'s first step (npm's `pretest`): makes sure Debian's chromium and redis-server are on the
 * machine before anything needs them, installing the missing ones when this user may
 * (harness/system-packages.ts), else stopping within seconds with one line naming the command.
 */
import { spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import path from 'node:path'
import { ensureSystemPackages, type SetupHost } from '../harness/system-packages.ts'

/** apt-get on a slow mirror takes minutes; past this something is stuck. */
const APT_TIMEOUT_MS = 15 * 60_000

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

const machine: SetupHost = {
  exists: (pathOrCommand) =>
    pathOrCommand.includes('/')
      ? isExecutable(pathOrCommand)
      : (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && isExecutable(path.join(dir, pathOrCommand))),
  isRoot: () => process.getuid?.() === 0,
  hasPasswordlessSudo: () => spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0,
  run: (command, args) => {
    console.error(`[test-setup] ${command} ${args.join(' ')}`)
    const result = spawnSync(command, args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: APT_TIMEOUT_MS,
    })
    if (result.error) return { ok: false, reason: result.error.message }
    if (result.status !== 0) return { ok: false, reason: result.signal ? `killed by ${result.signal}` : `exit status ${result.status}` }
    return { ok: true, reason: '' }
  },
}

const outcome = ensureSystemPackages(machine)
if (outcome.status === 'missing') {
  console.error(outcome.message)
  process.exitCode = 1
} else if (outcome.installed.length > 0) {
  console.error(`[test-setup] installed ${outcome.installed.join(', ')}`)
}
