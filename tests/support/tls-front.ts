/**
 * A TLS front on loopback for a running site: Chromium, told to resolve the site's public host name to
 * it, sees the site at its real https base URL (the one its documents name), as visitors would.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SITE_BUILDS } from './site-build.ts'
import { startSite } from './site-server.ts'

export interface TlsFront {
  port: number
  /** Chromium flags that send `host` to this front and accept its certificate (quoted as Lighthouse's --chrome-flags needs). */
  chromeFlags: string[]
  close: () => Promise<void>
}

export async function startTlsFront(host: string, origin: string): Promise<TlsFront> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tls-front-'))
  const keyFile = path.join(dir, 'key.pem')
  const certFile = path.join(dir, 'cert.pem')
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      `/CN=${host}`,
      '-addext',
      `subjectAltName=DNS:${host}`,
    ],
    { encoding: 'utf8' },
  )
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`)
  const spki = spawnSync(
    'sh',
    ['-c', `openssl x509 -in ${certFile} -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`],
    { encoding: 'utf8' },
  )
  if (spki.status !== 0) throw new Error(`openssl could not hash the certificate's key: ${spki.stderr}`)
  const target = new URL(origin)
  const server: Server = createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (incoming, outgoing) => {
    const forwarded = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      },
    )
    forwarded.on('error', () => outgoing.destroy())
    incoming.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  rmSync(dir, { recursive: true, force: true })
  return {
    port,
    chromeFlags: [
      `--host-resolver-rules="MAP ${host} 127.0.0.1:${port}"`,
      `--ignore-certificate-errors-spki-list=${spki.stdout.trim()}`,
      '--ignore-certificate-errors',
    ],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export interface SiteAtBaseUrl {
  /** The build's https base URL, which Chromium given `chromeFlags` reaches. */
  base: string
  chromeFlags: string[]
  stop: () => Promise<void>
}

/** The `test` build under npm start, behind a TLS front for its base URL's host: the site as visitors reach it. */
export async function serveAtBaseUrl(): Promise<SiteAtBaseUrl> {
  const base = SITE_BUILDS.test.BASE_URL
  const site = await startSite()
  const front = await startTlsFront(new URL(base).hostname, site.origin)
  return {
    base,
    chromeFlags: front.chromeFlags,
    stop: async () => {
      await front.close()
      await site.stop()
    },
  }
}
