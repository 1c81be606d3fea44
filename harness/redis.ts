/**
 * A throwaway Redis for tests: Debian's `redis-server` on a free loopback port, nothing persisted.
 * It can be stopped and started again on the same port (a Redis outage), or paused with SIGSTOP
 * (a Redis that accepts connections but never answers).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort } from './site-server.ts'
import { REDIS_SERVER_PATHS } from './system-packages.ts'

export interface RunningRedis {
  port: number
  /** `redis://127.0.0.1:<port>` */
  url: string
  output: () => string
  /** Stops the server (its data is gone: nothing is persisted). */
  stop: () => Promise<void>
  /** Starts it again on the same port after `stop`. */
  start: () => Promise<void>
  /** SIGSTOP: connections stay open, nothing is answered. */
  pause: () => void
  resume: () => void
  /** Stops it for good and removes its working directory. */
  dispose: () => Promise<void>
  /** Process id of the running server, if any (to measure its CPU). */
  pid: () => number | undefined
}

function redisServerBinary(): string {
  for (const candidate of REDIS_SERVER_PATHS) if (existsSync(candidate)) return candidate
  return 'redis-server'
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort()
  const dir = mkdtempSync(path.join(tmpdir(), 'cadence-redis-'))
  let child: ChildProcess | null = null
  let output = ''

  const launch = async () => {
    output = ''
    const proc = spawn(
      redisServerBinary(),
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--daemonize',
        'no',
        '--protected-mode',
        'yes',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    child = proc
    proc.stdout?.on('data', (chunk) => (output += chunk))
    proc.stderr?.on('data', (chunk) => (output += chunk))
    const deadline = Date.now() + 10_000
    while (!output.includes('Ready to accept connections')) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited with ${proc.exitCode}:\n${output}`)
      if (Date.now() > deadline) throw new Error(`redis-server did not start within 10 s:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  const stop = async () => {
    const proc = child
    child = null
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
    proc.kill('SIGCONT')
    proc.kill('SIGTERM')
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }

  await launch()
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      await stop()
    },
    start: launch,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    dispose: async () => {
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
    pid: () => child?.pid,
  }
}
