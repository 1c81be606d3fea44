/**
 * `npm run dev` of a project copy, as the marketing team runs it: a plain shell's environment (no
 * NODE_ENV, none of the site's settings), listening on a free loopback port, in its own process group.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { envWithoutSiteVariables, freePort } from '../../harness/site-server.ts'

export interface DevServer {
  origin: string
  output: () => string
  stop: () => Promise<void>
}

export async function startDevServer(root: string, env: Record<string, string> = {}): Promise<DevServer> {
  const port = await freePort()
  const environment: Record<string, string | undefined> = { ...envWithoutSiteVariables(), ...env }
  delete environment.NODE_ENV
  let output = ''
  const dev: ChildProcess = spawn('npm', ['run', 'dev', '--', '-H', '127.0.0.1', '-p', String(port)], {
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
  return { origin: `http://127.0.0.1:${port}`, output: () => output, stop }
}
