/**
 * A TLS front on loopback for a running site: Chromium, told to resolve the site's public host name to
 * it, sees the site at its real https base URL (the one its documents name), as visitors would. Node
 * clients (the agent-readiness scanners) reach it the same way through a forward proxy on loopback
 * that tunnels only that host name to the front.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import { createServer as createHttpServer, request } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SITE_BUILDS } from '../../harness/site-build.ts'
import { startSite } from '../../harness/site-server.ts'

interface TlsFront {
  port: number
  /** Chromium flags that send `host` to this front and accept its certificate (quoted as Lighthouse's --chrome-flags needs). */
  chromeFlags: string[]
  /** The front's self-signed certificate (PEM), for clients told to trust it. */
  certificate: string
  close: () => Promise<void>
}

async function startTlsFront(host: string, origin: string): Promise<TlsFront> {
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
  const certificate = readFileSync(certFile, 'utf8')
  rmSync(dir, { recursive: true, force: true })
  return {
    port,
    certificate,
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
  /**
   * Environment for a Node process (Node 24's own fetch) that reaches `base` through the forward proxy
   * and trusts the front's certificate; any other host is refused by the proxy, so nothing leaves loopback.
   */
  nodeClientEnv: Record<string, string>
  stop: () => Promise<void>
}

/**
 * A forward proxy on loopback that tunnels CONNECT requests for `host:443` to the front and refuses every
 * other destination (502), so a client sees the site at its https base URL without DNS or the network.
 */
async function startForwardProxy(host: string, frontPort: number): Promise<{ port: number; close: () => Promise<void> }> {
  const proxy = createHttpServer((_request, response) => response.writeHead(502).end())
  const tunnels = new Set<Duplex>()
  proxy.on('connect', (incoming, client: Duplex, head) => {
    tunnels.add(client)
    client.on('close', () => tunnels.delete(client))
    if (incoming.url !== `${host}:443`) {
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n')
      return
    }
    const upstream = connect(frontPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const { port } = proxy.address() as AddressInfo
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const tunnel of tunnels) tunnel.destroy()
        proxy.close(() => resolve())
      }),
  }
}

/** The `test` build under npm start, behind a TLS front for its base URL's host: the site as visitors reach it. */
export async function serveAtBaseUrl(): Promise<SiteAtBaseUrl> {
  const base = SITE_BUILDS.test.BASE_URL
  const host = new URL(base).hostname
  const site = await startSite()
  const front = await startTlsFront(host, site.origin)
  const proxy = await startForwardProxy(host, front.port)
  const certDir = mkdtempSync(path.join(tmpdir(), 'tls-front-ca-'))
  const certFile = path.join(certDir, 'front.pem')
  writeFileSync(certFile, front.certificate)
  const proxyUrl = `http://127.0.0.1:${proxy.port}`
  return {
    base,
    chromeFlags: front.chromeFlags,
    nodeClientEnv: { NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl, NO_PROXY: '', NODE_EXTRA_CA_CERTS: certFile },
    stop: async () => {
      await proxy.close()
      await front.close()
      await site.stop()
      rmSync(certDir, { recursive: true, force: true })
    },
  }
}
