/**
 * Who may use the local editor. Under `npm run dev` Keystatic's API writes content/ for any request
 * it accepts: there is no sign-in, and its one check, a `no-cors: 1` header, keeps out other sites'
 * pages only as long as the browser counts them as other sites. A page whose own name resolves to
 * this machine (DNS rebinding: `evil.example` → 127.0.0.1) is same-origin with itself and sends
 * `Host: evil.example`; a program on another machine sends whatever it likes. `npm run dev` listens
 * on loopback (scripts/next.ts), which keeps other machines out; this keeps out every request not
 * addressed to the dev server by one of its own names (Host) or, from a browser, sent by a page of
 * another origin (Origin).
 *
 * GitHub mode is not guarded here: the deployment writes nothing itself (each save is a commit the
 * editor's browser makes at GitHub, with the editor's own GitHub sign-in), its host is whatever name
 * it is reached by (the production domain, an editing domain, a reverse proxy passing the browser's
 * Host on), and a page of another name never holds the editor's session cookie.
 */
import type { HttpAnswer } from '../http/http-answer.ts'

/** Where the dev server listens: HOST and the port it listens on. */
export interface DevServerAddress {
  host: string
  port: number
}

/** Listening on every interface names no host a browser would ask for. */
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '[::]'])

/** The names of this machine's loopback interface, as a browser writes them in Host. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']

/** How a host appears in a Host header: an IPv6 address in brackets, lower case. */
function hostName(host: string): string {
  const name = host.toLowerCase()
  return name.includes(':') && !name.startsWith('[') ? `[${name}]` : name
}

/**
 * The Host values that address the dev server: its loopback names and HOST (unless HOST is every
 * interface), each with the port; without it where the port is the scheme's own (a browser then
 * leaves it out).
 */
function ownHosts({ host, port }: DevServerAddress): ReadonlySet<string> {
  const names = new Set([...LOOPBACK_NAMES, hostName(host)].filter((name) => !WILDCARD_ADDRESSES.has(name)))
  const bare = port === 80 || port === 443
  return new Set([...names].flatMap((name) => [`${name}:${port}`, ...(bare ? [name] : [])]))
}

const refusal = (status: number, text: string): HttpAnswer => ({
  status,
  headers: [
    ['Content-Type', 'text/plain; charset=utf-8'],
    ['Cache-Control', 'no-store'],
  ],
  body: new TextEncoder().encode(`${text}\n`),
})

/**
 * Why the local editor refuses a request, as its answer; null when the request may go on. A request
 * for another host is 421 Misdirected Request (it was not meant for this server); a page of another
 * origin is 403. A browser's own requests to the editor carry the server's Host, and an Origin only
 * when it is the editor's own.
 */
export function localEditorRefusal(headers: Headers, listen: DevServerAddress): HttpAnswer | null {
  const host = headers.get('host')?.toLowerCase() ?? ''
  const hosts = ownHosts(listen)
  if (!hosts.has(host)) {
    const at = [...hosts].filter((name) => name.includes(':')).join(', ')
    return refusal(421, `Misdirected request: the local editor answers only at ${at}.`)
  }
  const origin = headers.get('origin')?.toLowerCase()
  if (origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`) {
    return refusal(403, 'Forbidden: the local editor takes requests only from its own pages.')
  }
  return null
}
