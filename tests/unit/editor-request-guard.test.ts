/**
 * The local editor's guard (lib/editor/request-guard.ts): which requests the editor of `npm run dev`
 * answers, by the Host they are addressed to and the Origin of the page that sent them. Everything it
 * refuses, it refuses before Keystatic reads or writes a file.
 */
import { describe, expect, it } from 'vitest'
import { localEditorRefusal } from '../../lib/editor/index.ts'

const LISTEN = { host: '127.0.0.1', port: 3000 }
const PLAIN_TEXT: Array<[string, string]> = [
  ['Content-Type', 'text/plain; charset=utf-8'],
  ['Cache-Control', 'no-store'],
]

/** The guard's answer to a request with these headers, its body as text; null when it goes on. */
function answer(headers: Record<string, string>, listen = LISTEN) {
  const refused = localEditorRefusal(new Headers(headers), listen)
  return refused && { status: refused.status, headers: refused.headers, body: new TextDecoder().decode(refused.body ?? new Uint8Array()) }
}

const misdirected = (hosts: string) => ({
  status: 421,
  headers: PLAIN_TEXT,
  body: `Misdirected request: the local editor answers only at ${hosts}.\n`,
})
const FORBIDDEN = { status: 403, headers: PLAIN_TEXT, body: 'Forbidden: the local editor takes requests only from its own pages.\n' }

describe('the local editor’s guard', () => {
  it.each(['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'LocalHost:3000'])(
    'a request for %s goes on, without an Origin or from a page of that origin',
    (host) => {
      expect(answer({ host })).toBeNull()
      expect(answer({ host, origin: `http://${host.toLowerCase()}` })).toBeNull()
    },
  )

  it.each([
    ['a name that resolves to this machine (DNS rebinding)', 'evil.example:3000'],
    ['a name without the port', 'evil.example'],
    ['this machine’s network address', '192.168.1.20:3000'],
    ['another port', 'localhost:3001'],
    ['the loopback address without the port', '127.0.0.1'],
    ['a user name before the host', 'evil@localhost:3000'],
    ['an empty Host', ''],
  ])('a request for %s (%j) is answered 421 with the names the editor answers at', (_name, host) => {
    expect(answer({ host, origin: `http://${host}` })).toEqual(misdirected('localhost:3000, 127.0.0.1:3000, [::1]:3000'))
  })

  it('a request without a Host is answered 421', () => {
    expect(answer({})).toEqual(misdirected('localhost:3000, 127.0.0.1:3000, [::1]:3000'))
  })

  it.each(['http://evil.example', 'http://evil.example:3000', 'null', 'http://localhost:3000', 'http://127.0.0.1:3001'])(
    'a request for 127.0.0.1:3000 sent by a page of %s is answered 403',
    (origin) => {
      expect(answer({ host: '127.0.0.1:3000', origin })).toEqual(FORBIDDEN)
    },
  )

  it('with HOST naming an address, the editor also answers requests for that address with the port', () => {
    const listen = { host: '192.168.1.20', port: 3000 }
    expect(answer({ host: '192.168.1.20:3000', origin: 'http://192.168.1.20:3000' }, listen)).toBeNull()
    expect(answer({ host: 'localhost:3000' }, listen)).toBeNull()
    expect(answer({ host: 'evil.example:3000' }, listen)).toEqual(misdirected('localhost:3000, 127.0.0.1:3000, [::1]:3000, 192.168.1.20:3000'))
  })

  it('an IPv6 HOST is written in brackets, a host name in lower case', () => {
    expect(answer({ host: '[fe80::1]:4000' }, { host: 'fe80::1', port: 4000 })).toBeNull()
    expect(answer({ host: 'studio.local:4000' }, { host: 'Studio.Local', port: 4000 })).toBeNull()
  })

  it.each(['0.0.0.0', '::'])('HOST=%s (every interface) names no host: the editor still answers only at its loopback names', (host) => {
    expect(answer({ host: '192.168.1.20:3000' }, { host, port: 3000 })).toEqual(misdirected('localhost:3000, 127.0.0.1:3000, [::1]:3000'))
    expect(answer({ host: `${host}:3000` }, { host, port: 3000 })).toEqual(misdirected('localhost:3000, 127.0.0.1:3000, [::1]:3000'))
  })

  it('on port 80 the Host a browser sends has no port, and is the dev server’s too', () => {
    expect(answer({ host: 'localhost' }, { host: '127.0.0.1', port: 80 })).toBeNull()
    expect(answer({ host: 'localhost:80' }, { host: '127.0.0.1', port: 80 })).toBeNull()
  })
})
