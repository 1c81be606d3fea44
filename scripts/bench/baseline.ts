/**
 * BENCH_BASELINE of `npm run bench`: another commit of this repository, measured in the same run as
 * the working tree, so that "before and after" is one table rather than two runs an hour apart. The
 * commit is extracted with `git archive` under tests/.artifacts/baselines/<commit>, installed from its
 * own lockfile (`npm ci`: its dependencies may differ) and built with the test build's settings, once;
 * the bench then starts it as the test build is started (harness/site-server.ts), with its own start
 * script and Node flags.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ConfigError } from '../../lib/env.ts'
import { projectRoot } from '../../harness/paths.ts'
import { buildCopy } from '../../harness/project-build.ts'
import { isolatedEnv, SITE_BUILDS } from '../../harness/site-build.ts'

/** Written last, with the commit: a directory without it is an interrupted preparation and is redone. */
const READY_FILE = '.bench-baseline'

/** Runs a command to its end; its output is returned, or with `show`, printed to stderr (the report is stdout). */
function run(command: string, args: string[], options: { cwd: string; input?: Buffer; show?: boolean }): Buffer {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    input: options.input,
    stdio: [options.input ? 'pipe' : 'ignore', options.show ? 2 : 'pipe', 'inherit'],
    maxBuffer: 1024 ** 3,
  })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${options.cwd}${result.error ? `: ${result.error.message}` : ''}`)
  return result.stdout
}

/** The full commit BENCH_BASELINE names (a commit, tag or branch of this repository); a ConfigError if none. */
export function baselineCommit(env: Record<string, string | undefined>): string | undefined {
  const ref = env.BENCH_BASELINE?.trim()
  if (!ref) return undefined
  const result = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: projectRoot, encoding: 'utf8' })
  const commit = result.stdout?.trim() ?? ''
  if (result.status !== 0 || !/^[0-9a-f]{40}$/.test(commit)) {
    throw new ConfigError([{ variable: 'BENCH_BASELINE', expected: `expected a commit of this repository, got ${JSON.stringify(ref)}` }])
  }
  return commit
}

/** The directory of the built baseline `commit`, preparing it first if needed. */
export function prepareBaseline(commit: string): string {
  const dir = path.join(projectRoot, 'tests', '.artifacts', 'baselines', commit)
  const ready = path.join(dir, READY_FILE)
  if (existsSync(ready) && readFileSync(ready, 'utf8') === commit) return dir
  process.stderr.write(`bench: preparing the baseline ${commit.slice(0, 7)} in ${path.relative(projectRoot, dir)} (npm ci, npm run build)…\n`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const archive = run('git', ['archive', '--format=tar', commit], { cwd: projectRoot })
  run('tar', ['-x', '-f', '-'], { cwd: dir, input: archive })
  run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, show: true })
  buildCopy(dir, 'npm', { ...isolatedEnv(), ...SITE_BUILDS.test })
  writeFileSync(ready, commit)
  return dir
}
