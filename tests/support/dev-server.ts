/**
 * `npm run dev` of a project copy, as the marketing team runs it: a plain shell's environment (no
 * NODE_ENV, none of the site's settings), on a free port, at the address it listens on by default
 * (no `-H`), in its own process group.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { envWithoutSiteVariables, freePort } from '../../harness/site-server.ts'

export interface DevServer {
  origin: string
  port: number
  output: () => string
  stop: () => Promise<void>
}

export async function startDevServer(root: string, env: Record<string, string> = {}): Promise<DevServer> {
  const port = await freePort()
  const environment: Record<string, string | undefined> = { ...envWithoutSiteVariables(), ...env }
  delete environment.NODE_ENV
  let output = ''
  const dev: ChildProcess = spawn('npm', ['run', 'dev', '--', '-p', String(port)], {
    cwd: root,
    env: environment as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  dev.stdout?.on('data', (chunk) => (output += chunk))
  dev.stderr?.on('data', (chunk) => (output += chunk))
  const stop = async () => {
    if (dev.pid && dev.exitCode === null) {
      const exited = new Promise((resolve) => dev.once('exit', resolve))
      process.kill(-dev.pid, 'SIGTERM')
      await exited
    }
  }
  const deadline = Date.now() + 60_000
  while (!/Ready in/.test(output)) {
    if (dev.exitCode !== null) throw new Error(`npm run dev exited:\n${output}`)
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`npm run dev not ready within 60 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { origin: `http://127.0.0.1:${port}`, port, output: () => output, stop }
}

/** An address of /proc/net/tcp or tcp6: hexadecimal, each 32-bit word in the machine's (little-endian) byte order. */
function decodeAddress(hex: string): string {
  const words = (hex.match(/.{8}/g) ?? []).map((word) => (word.match(/../g) ?? []).reverse().join(''))
  if (words.length === 1) return (words[0]?.match(/../g) ?? []).map((byte) => Number.parseInt(byte, 16)).join('.')
  const groups = words.join('').match(/.{4}/g) ?? []
  // Written out in full (`0000:…:0001`), then shortened the usual way.
  return groups
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')
    .replace(/(^|:)0(:0)+(:|$)/, '::')
}

/**
 * The local addresses this machine's listening TCP sockets on `port` are bound to, as the kernel
 * reports them (Linux: /proc/net/tcp and tcp6, every socket of the network namespace).
 */
export function listeningAddresses(port: number): string[] {
  const LISTEN = '0A'
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === LISTEN && Number.parseInt(fields[1]?.split(':')[1] ?? '', 16) === port)
      .map((fields) => decodeAddress(fields[1]?.split(':')[0] ?? '')),
  )
}
