/**
 * Next's telemetry is off in every npm script: each script that runs Next's CLI goes through
 * scripts/next.ts, and Next itself reports telemetry disabled when run through it, even from a shell
 * that did not opt out.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectRoot } from '../../harness/paths.ts'

const scripts = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts

describe('Next telemetry', () => {
  it('every npm script that runs Next runs it through scripts/next.ts', () => {
    const runningNext = Object.entries(scripts).filter(([, command]) => /(^|&&\s*|\s)next(\s|$)|next\/dist\/bin/.test(command))
    expect(runningNext).toEqual([])
    expect(scripts.dev).toBe('node scripts/next.ts dev')
    expect(scripts.build).toBe('node scripts/next.ts build')
    expect(scripts.typecheck).toMatch(/^node scripts\/next\.ts typegen && /)
  })

  // Two runs of Next's CLI: seconds each on a busy machine.
  it('is disabled when Next runs through scripts/next.ts', { timeout: 60_000 }, () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'telemetry-'))
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: cwd }
    delete env.NEXT_TELEMETRY_DISABLED
    const direct = spawnSync(process.execPath, [path.join(projectRoot, 'node_modules/next/dist/bin/next'), 'telemetry', 'status'], {
      cwd,
      env,
      encoding: 'utf8',
    })
    expect(direct.stdout).toContain('Status: Enabled')
    const wrapped = spawnSync(process.execPath, [path.join(projectRoot, 'scripts/next.ts'), 'telemetry', 'status'], { cwd, env, encoding: 'utf8' })
    expect(wrapped.status).toBe(0)
    expect(wrapped.stdout).toContain('Status: Disabled')
    rmSync(cwd, { recursive: true, force: true })
  })
})
