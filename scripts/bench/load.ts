/**
 * One load run, in its own process so the generator never shares an event loop with a server:
 * autocannon against one URL, each request from one of 10,000 client addresses (sent as
 * X-Forwarded-For; the site under test trusts loopback as its proxy). A `{{n}}` in the body becomes a
 * number of its own in each request, sent from an address of its own. Prints autocannon's result as JSON.
 */
import autocannon from 'autocannon'

const spec = JSON.parse(process.argv[2] ?? '{}') as {
  url: string
  method: string
  headers: Record<string, string>
  body?: string
  connections: number
  duration: number
}

let counter = 0
let sent = 0
const varies = spec.body?.includes('{{n}}') ?? false
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.duration,
  requests: [
    {
      method: spec.method as autocannon.Request['method'],
      headers: spec.headers,
      ...(spec.body ? { body: spec.body } : {}),
      setupRequest: (request) => {
        counter = (counter + 1) % 10_000
        request.headers = { ...request.headers, 'x-forwarded-for': `10.${(counter >> 8) & 255}.${counter & 255}.7` }
        if (varies && spec.body) {
          sent += 1
          request.body = spec.body.replaceAll('{{n}}', `${process.pid}-${sent}`)
          // A new visitor each time, from an address of its own in this run: the form's per-address limit
          // (a few posts per ten minutes) is not what is measured.
          const visitor = (process.pid * 65_536 + sent) % 16_777_216
          request.headers['x-forwarded-for'] = `10.${visitor >> 16}.${(visitor >> 8) & 255}.${visitor & 255}`
        }
        return request
      },
    },
  ],
})
process.stdout.write(JSON.stringify(result))
