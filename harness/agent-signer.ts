/**
 * A Web Bot Auth signer for tests and the bench: an Ed25519 key made on the spot, the headers a
 * signed agent sends (`Signature`, `Signature-Input`, `Signature-Agent`), and its key directory's
 * answer, itself signed, served on a loopback port with a switchable behaviour (answer, hold the
 * answer until released, fail). The signature base is written out here line by line, apart from the
 * site's verifier (lib/agent-signature), so that the two are checked against each other.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory'

export interface AgentKey {
  privateKey: KeyObject
  x: string
  /** RFC 7638 thumbprint: the `keyid`. */
  keyid: string
}

export function makeAgentKey(): AgentKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const x = publicKey.export({ format: 'jwk' }).x as string
  const keyid = createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url')
  return { privateKey, x, keyid }
}

const quoted = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`

export interface SignOptions {
  /** The authority the request goes to, as the signer sees it (`agents.example.com`). */
  authority: string
  /** Signature-Agent's value: the signer's origin (default the directory's). */
  agent: string
  /** `dictionary` (`sig1="…"`, covered as `"signature-agent";key="sig1"`) or `string` (the older form, covered whole). */
  form?: 'dictionary' | 'string'
  label?: string
  /** Seconds since the epoch (default now). */
  created?: number
  /** Seconds after `created` (default 300). */
  lifetime?: number
  nonce?: string | null
  tag?: string
  /** The components covered, in order (default `@authority` and the Signature-Agent member). */
  components?: readonly string[]
  /** Whether `@method` and `@path` are covered too, with `method` and `path`. */
  method?: string
  path?: string
  /** Signs with this key while naming `keyid`'s (another key under a trusted keyid). */
  signingKey?: KeyObject
  keyid?: string
}

/** The three headers of a signed request. */
export function signRequest(key: AgentKey, options: SignOptions): Record<string, string> {
  const label = options.label ?? 'sig1'
  const form = options.form ?? 'dictionary'
  const created = options.created ?? Math.floor(Date.now() / 1000)
  const expires = created + (options.lifetime ?? 300)
  const nonce = options.nonce === undefined ? randomBytes(32).toString('base64') : options.nonce
  const agentComponent = form === 'dictionary' ? `"signature-agent";key=${quoted(label)}` : '"signature-agent"'
  const components = options.components ?? ['"@authority"', agentComponent]
  const values: Record<string, string> = {
    '"@authority"': options.authority,
    '"@method"': options.method ?? 'GET',
    '"@path"': options.path ?? '/',
    '"signature-agent"': form === 'dictionary' ? `${label}=${quoted(options.agent)}` : quoted(options.agent),
    [`"signature-agent";key=${quoted(label)}`]: quoted(options.agent),
  }
  let params = `(${components.join(' ')});created=${created};expires=${expires};keyid=${quoted(options.keyid ?? key.keyid)};alg="ed25519"`
  if (nonce !== null) params += `;nonce=${quoted(nonce)}`
  params += `;tag=${quoted(options.tag ?? 'web-bot-auth')}`
  const base = [...components.map((component) => `${component}: ${values[component]}`), `"@signature-params": ${params}`].join('\n')
  const signature = sign(null, Buffer.from(base), options.signingKey ?? key.privateKey).toString('base64')
  return {
    'signature-agent': values['"signature-agent"'] as string,
    'signature-input': `${label}=${params}`,
    signature: `${label}=:${signature}:`,
  }
}

/** A key directory's answer: the JWK set, signed by each key (tag `http-message-signatures-directory`, `"@authority";req`, `content-digest`). */
export function directoryAnswer(
  keys: AgentKey[],
  authority: string,
  options: { cacheControl?: string; signedBy?: AgentKey[]; created?: number; bodyBytes?: number } = {},
) {
  const keySet = { keys: keys.map((key) => ({ kty: 'OKP', crv: 'Ed25519', kid: key.keyid, x: key.x, use: 'sig' })) }
  // `bodyBytes`: a member the directory's readers ignore pads the JSON to exactly that many bytes.
  const unpadded = JSON.stringify({ ...keySet, padding: '' })
  const body = options.bodyBytes ? JSON.stringify({ ...keySet, padding: ' '.repeat(options.bodyBytes - unpadded.length) }) : JSON.stringify(keySet)
  const digest = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`
  const created = options.created ?? Math.floor(Date.now() / 1000)
  const inputs: string[] = []
  const signatures: string[] = []
  for (const [index, key] of (options.signedBy ?? keys).entries()) {
    const params = `("@authority";req "content-digest");created=${created};expires=${created + 3600};keyid=${quoted(key.keyid)};alg="ed25519";tag="http-message-signatures-directory"`
    const base = `"@authority";req: ${authority}\n"content-digest": ${digest}\n"@signature-params": ${params}`
    inputs.push(`binding${index}=${params}`)
    signatures.push(`binding${index}=:${sign(null, Buffer.from(base), key.privateKey).toString('base64')}:`)
  }
  const headers: Record<string, string> = {
    'content-type': 'application/http-message-signatures-directory+json',
    'content-digest': digest,
    'cache-control': options.cacheControl ?? 'max-age=86400',
  }
  if (inputs.length > 0) {
    headers['signature-input'] = inputs.join(', ')
    headers.signature = signatures.join(', ')
  }
  return { headers, body }
}

export type DirectoryBehaviour = 'answer' | 'hold' | 'fail'

/** A key directory on a loopback port; `requests` counts the fetches of its directory. */
export interface LoopbackDirectory {
  origin: string
  keys: AgentKey[]
  behaviour: DirectoryBehaviour
  requests: number
  /** Answers the fetches held so far (behaviour `hold`), as `answer` would. */
  release(): void
  close(): Promise<void>
}

export async function startLoopbackDirectory(
  keys: AgentKey[] = [makeAgentKey()],
  behaviour: DirectoryBehaviour = 'answer',
): Promise<LoopbackDirectory> {
  const held: ServerResponse[] = []
  let origin = ''
  const answer = (response: ServerResponse) => {
    const { headers, body } = directoryAnswer(directory.keys, new URL(origin).host)
    response.writeHead(200, headers).end(body)
  }
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url !== DIRECTORY_PATH) return void response.writeHead(404).end()
    directory.requests++
    if (directory.behaviour === 'fail') return void response.writeHead(503).end()
    if (directory.behaviour === 'hold') return void held.push(response)
    answer(response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const directory: LoopbackDirectory = {
    origin,
    keys,
    behaviour,
    requests: 0,
    release: () => {
      for (const response of held.splice(0)) answer(response)
    },
    close: () =>
      new Promise((resolve) => {
        for (const response of held.splice(0)) response.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return directory
}
