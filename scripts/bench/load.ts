/**
 * One load run, in its own process so the generator never shares an event loop with a server:
 * autocannon against one URL, each request from one of 10,000 client addresses (sent as
 * X-Forwarded-For; the site under test trusts loopback as its proxy). A `{{n}}` in the body becomes a
 * number of its own in each request, sent from an address of its own. With `signer`, each request gets
 * a Web Bot Auth signature of its own (a fresh nonce), made here: the signing costs the generator, not
 * the server. Prints autocannon's result as JSON.
 */
import { createPrivateKey, type JsonWebKey } from 'node:crypto'
import autocannon from 'autocannon'
import { signRequest, type AgentKey } from '../../harness/agent-signer.ts'

/** A key made for the bench run (its private JWK), and what each request's signature names. */
export interface LoadSigner {
  jwk: JsonWebKey
  keyid: string
  authority: string
  agent: string
}

const spec = JSON.parse(process.argv[2] ?? '{}') as {
  url: string
  method: string
  headers: Record<string, string>
  body?: string
  connections: number
  duration: number
  signer?: LoadSigner
}

const signer = spec.signer
const key: AgentKey | undefined = signer && {
  privateKey: createPrivateKey({ key: signer.jwk, format: 'jwk' }),
  x: signer.jwk.x as string,
  keyid: signer.keyid,
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
        if (key && signer) Object.assign(request.headers, signRequest(key, { authority: signer.authority, agent: signer.agent, lifetime: 60 }))
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
const { user, system } = process.cpuUsage()
// The generator's own CPU: on a machine of few cores it competes with the server for them.
process.stdout.write(JSON.stringify({ ...result, generatorCpuMs: (user + system) / 1000 }))
