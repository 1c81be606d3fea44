/**
 * Hostile and malformed requests over raw TCP: every one gets a clear 4xx (or the normal answer),
 * never a 5xx, a stack trace or a hang.
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

let site: RunningSite

beforeAll(async () => {
  site = await startSite({ BASE_URL: 'https://agents.example.com' })
})
afterAll(async () => {
  await site?.stop()
})

/** Sends raw bytes, returns the raw answer (or '' if the server closed without one) within 5 s. */
function rawRequest(payload: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(site.port, '127.0.0.1')
    let answer = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no complete answer within 5 s; got: ${answer.slice(0, 200)}`))
    }, 5_000)
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
      // One answer is enough: stop at the end of its body when the length is known.
      const match = /content-length: (\d+)/i.exec(answer)
      const headerEnd = answer.indexOf('\r\n\r\n')
      if (headerEnd >= 0 && match && answer.length >= headerEnd + 4 + Number(match[1])) socket.end()
      if (headerEnd >= 0 && /transfer-encoding: chunked/i.test(answer.slice(0, headerEnd)) && answer.endsWith('0\r\n\r\n')) socket.end()
    })
    socket.on('error', () => undefined)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(answer)
    })
    socket.write(payload)
  })
}

function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)
}

const host = 'Host: 127.0.0.1\r\nConnection: close\r\n'

describe('malformed requests', () => {
  const cases: [string, string | Buffer, number[]][] = [
    ['an invalid percent-encoding in an API path', `GET /api/agent/v1/resources/%E0%A4%A HTTP/1.1\r\n${host}\r\n`, [404]],
    ['an invalid percent-encoding elsewhere', `GET /%E0%A4%A HTTP/1.1\r\n${host}\r\n`, [400]],
    ['a repeated slash under the API', `GET /api/agent/v1//health HTTP/1.1\r\n${host}\r\n`, [404]],
    ['dot segments', `GET /api/agent/v1/resources/../../../../etc/passwd HTTP/1.1\r\n${host}\r\n`, [404]],
    ['an encoded NUL', `GET /api/agent/v1/resources/%00 HTTP/1.1\r\n${host}\r\n`, [404]],
    ['an absolute-form request target', `GET http://evil.example/api/agent/v1/health HTTP/1.1\r\n${host}\r\n`, [200, 400, 404]],
    ['an unknown method', `BREW /api/agent/v1/health HTTP/1.1\r\n${host}\r\n`, [400, 405]],
    ['a body on GET', `GET /api/agent/v1/health HTTP/1.1\r\n${host}Content-Length: 5\r\n\r\nhello`, [200]],
    ['a lying Content-Length', `POST /api/agent/v1/health HTTP/1.1\r\n${host}Content-Length: 1\r\n\r\nhello`, [400, 405]],
    ['an oversized header', `GET /api/agent/v1/health HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`, [431, 400]],
    ['a header without a colon', `GET /api/agent/v1/health HTTP/1.1\r\n${host}Broken header\r\n\r\n`, [400]],
    ['garbage instead of HTTP', Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x01, 0x00, 0x0d, 0x0a, 0x0d, 0x0a]), [0, 400]],
    [
      'a hostile cookie',
      `GET /api/agent/v1/health HTTP/1.1\r\n${host}Cookie: ${'x=%E0%A4%A; '.repeat(200)}vercel-flag-overrides=forged\r\n\r\n`,
      [200],
    ],
    ['a hostile Accept', `GET / HTTP/1.1\r\n${host}Accept: text/markdown;q=abc, */*;q=-1, ;;;, text/html;level=1;q=2\r\n\r\n`, [200]],
  ]
  for (const [label, payload, expected] of cases) {
    it(`${label} → ${expected.join(' or ')}`, async () => {
      const answer = await rawRequest(payload)
      expect(expected, answer.slice(0, 300)).toContain(statusOf(answer))
      expect(answer).not.toMatch(/\n\s+at [\w.<>]+ \(|node:internal|webpack-internal/)
    })
  }

  it('the server still answers normally afterwards', async () => {
    expect((await site.fetch('/api/agent/v1/health')).status).toBe(200)
  })
})
