/**
 * npm test's set-up step on machines played by a fake host: which packages it finds, when it installs
 * them and with which commands, and the one line it stops with when it cannot.
 */
import { describe, expect, it } from 'vitest'
import { CHROMIUM_PATH, ensureSystemPackages, type SetupHost } from '../../harness/system-packages.ts'

interface FakeMachine {
  installed: Set<string>
  root?: boolean
  sudo?: 'passwordless' | 'password' | 'absent'
  aptGet?: boolean
  /** The apt-get step that fails, if any. */
  failing?: 'update' | 'install'
  /** apt-get succeeds but installs nothing (a broken mirror). */
  installsNothing?: boolean
}

/** Which executables each package puts where. */
const FILES: Record<string, string[]> = { chromium: [CHROMIUM_PATH], 'redis-server': ['/usr/bin/redis-server', 'redis-server'] }

function fakeHost(machine: FakeMachine): SetupHost & { commands: string[] } {
  const commands: string[] = []
  const present = () => new Set([...machine.installed].flatMap((name) => FILES[name] ?? []))
  return {
    commands,
    exists: (file) =>
      file === 'apt-get' ? machine.aptGet !== false : file === 'sudo' ? (machine.sudo ?? 'absent') !== 'absent' : present().has(file),
    isRoot: () => machine.root ?? false,
    hasPasswordlessSudo: () => machine.sudo === 'passwordless',
    run: (command, args) => {
      commands.push([command, ...args].join(' '))
      const step = args.includes('update') ? 'update' : 'install'
      if (machine.failing === step) return { ok: false, reason: 'exit status 100' }
      if (step === 'install' && !machine.installsNothing) for (const name of args.filter((arg) => arg in FILES)) machine.installed.add(name)
      return { ok: true, reason: '' }
    },
  }
}

describe('npm test set-up (Debian chromium and redis-server)', () => {
  it('runs nothing when both packages are installed', () => {
    const host = fakeHost({ installed: new Set(['chromium', 'redis-server']) })
    expect(ensureSystemPackages(host)).toEqual({ status: 'ready', installed: [] })
    expect(host.commands).toEqual([])
  })

  it('as root, installs only the missing package with a non-interactive apt-get update then install', () => {
    const host = fakeHost({ installed: new Set(['redis-server']), root: true })
    expect(ensureSystemPackages(host)).toEqual({ status: 'ready', installed: ['chromium'] })
    expect(host.commands).toEqual(['apt-get update -qq', 'apt-get install -y -qq chromium'])
  })

  it('with passwordless sudo, installs both missing packages through sudo -n', () => {
    const host = fakeHost({ installed: new Set(), sudo: 'passwordless' })
    expect(ensureSystemPackages(host)).toEqual({ status: 'ready', installed: ['chromium', 'redis-server'] })
    expect(host.commands).toEqual(['sudo -n apt-get update -qq', 'sudo -n apt-get install -y -qq chromium redis-server'])
  })

  it('without root and with a sudo that asks for a password, stops with the sudo command to run and runs nothing', () => {
    const host = fakeHost({ installed: new Set(), sudo: 'password' })
    expect(ensureSystemPackages(host)).toEqual({
      status: 'missing',
      missing: ['chromium', 'redis-server'],
      message:
        "npm test needs Debian's chromium and redis-server (not installed, and installing needs root or sudo). " +
        'Run: sudo apt-get update && sudo apt-get install -y chromium redis-server — then npm test again.',
    })
    expect(host.commands).toEqual([])
  })

  it('without root and without sudo, names only the missing package', () => {
    const host = fakeHost({ installed: new Set(['chromium']) })
    const outcome = ensureSystemPackages(host)
    expect(outcome).toMatchObject({ status: 'missing', missing: ['redis-server'] })
    expect(outcome.status === 'missing' && outcome.message).toBe(
      "npm test needs Debian's redis-server (not installed, and installing needs root or sudo). " +
        'Run: sudo apt-get update && sudo apt-get install -y redis-server — then npm test again.',
    )
  })

  it('on a machine without apt-get, stops at once even as root', () => {
    const host = fakeHost({ installed: new Set(), root: true, aptGet: false })
    const outcome = ensureSystemPackages(host)
    expect(outcome.status === 'missing' && outcome.message).toBe(
      "npm test needs Debian's chromium and redis-server (not installed, and this machine has no apt-get). " +
        'Run: sudo apt-get update && sudo apt-get install -y chromium redis-server — then npm test again.',
    )
    expect(host.commands).toEqual([])
  })

  it('when apt-get update fails, stops after it with the reason and the root command, without installing', () => {
    const host = fakeHost({ installed: new Set(['chromium']), root: true, failing: 'update' })
    const outcome = ensureSystemPackages(host)
    expect(outcome.status === 'missing' && outcome.message).toBe(
      "npm test needs Debian's redis-server (apt-get update failed: exit status 100). " +
        'Run: apt-get update && apt-get install -y redis-server — then npm test again.',
    )
    expect(host.commands).toEqual(['apt-get update -qq'])
  })

  it('when apt-get install fails, stops with the reason', () => {
    const host = fakeHost({ installed: new Set(), sudo: 'passwordless', failing: 'install' })
    const outcome = ensureSystemPackages(host)
    expect(outcome.status === 'missing' && outcome.message).toBe(
      "npm test needs Debian's chromium and redis-server (apt-get install failed: exit status 100). " +
        'Run: sudo apt-get update && sudo apt-get install -y chromium redis-server — then npm test again.',
    )
  })

  it('when apt-get reports success but a package is still absent, stops naming it', () => {
    const host = fakeHost({ installed: new Set(['redis-server']), root: true, installsNothing: true })
    const outcome = ensureSystemPackages(host)
    expect(outcome).toMatchObject({ status: 'missing', missing: ['chromium'] })
    expect(outcome.status === 'missing' && outcome.message).toContain('(still not found after apt-get install)')
  })
})
