/**
 * The keys of the trusted signers, from their key directories (`<origin>/.well-known/http-message-
 * signatures-directory`, a JWK set of Ed25519 keys): fetched only for an origin the operator trusts
 * (AGENT_SIGNATURE_DIRECTORIES), never on a request's critical path, with a short timeout, a size
 * bound and no redirect. A directory counts only when its answer is itself signed (tag
 * `http-message-signatures-directory`, covering `"@authority";req`, its `Content-Digest` checked when
 * covered), and only the keys that signed it are used: each proved it is held by the directory's
 * operator. Cached as `Cache-Control` says within bounds; a failed refresh keeps the keys held (an
 * outage of the signer revokes nothing); with Upstash configured the validated keys are shared by
 * every instance.
 */
import { createHash, type KeyObject } from 'node:crypto'
import { readStreamWithin } from '../http/agent-request.ts'
import {
  ed25519KeyOf,
  ed25519Thumbprint,
  fieldComponent,
  MalformedSignature,
  readMessageSignatures,
  signatureBase,
  verifyEd25519,
} from './message-signature.ts'

export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory'
const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json'
const DIRECTORY_TAG = 'http-message-signatures-directory'

/** Bounds of one fetch and of what is kept. */
export const DIRECTORY_LIMITS = {
  timeoutMs: 3_000,
  maxBytes: 64 * 1024,
  maxKeys: 32,
  /** A directory is fresh at least this long, whatever its Cache-Control says (no-store, max-age=0). */
  minFreshMs: 5 * 60_000,
  /** … and at most this long. */
  maxFreshMs: 24 * 3_600_000,
  /** Without Cache-Control. */
  defaultFreshMs: 3_600_000,
  /** After a failed fetch, or a refresh for a key the directory did not list, no new fetch before this. */
  retryMs: 60_000,
  /** A directory's own signature may be dated this far in the future (clock skew). */
  skewMs: 60_000,
} as const

/** A key of a directory, as kept in the shared store: its thumbprint and public `x`. */
interface StoredKey {
  kid: string
  x: string
}

/** A directory's validated keys as the shared store keeps them; `freshUntil` in epoch ms. */
export interface StoredDirectory {
  keys: StoredKey[]
  freshUntil: number
}

/** Where instances share validated directories (Upstash), or none. Calls may throw: a failure is a miss. */
export interface SharedDirectoryStore {
  read(origin: string): Promise<StoredDirectory | null>
  write(origin: string, directory: StoredDirectory): Promise<void>
}

export type DirectoryFetch = (url: string, init: RequestInit) => Promise<Response>

interface Entry {
  keys: Map<string, KeyObject> | null
  freshUntil: number
  retryAfter: number
  loading: Promise<void> | null
}

/** A key, or why there is none yet: `pending` (nothing held for the origin) or `absent` (not in the directory held). */
export type KeyLookup = KeyObject | 'pending' | 'absent'

export interface KeyDirectoriesOptions {
  fetch?: DirectoryFetch
  now?: () => number
  shared?: SharedDirectoryStore | null
  /** Reports a directory that could not be used (never on a request's path). */
  warn?: (message: string) => void
}

export class KeyDirectories {
  private readonly entries = new Map<string, Entry>()
  private readonly fetchDirectory: DirectoryFetch
  private readonly now: () => number
  private readonly shared: SharedDirectoryStore | null
  private readonly warn: (message: string) => void
  private readonly trusted: ReadonlySet<string>

  /** `trusted`: the only origins ever fetched. */
  constructor(trusted: ReadonlySet<string>, options: KeyDirectoriesOptions = {}) {
    this.trusted = trusted
    this.fetchDirectory = options.fetch ?? ((url, init) => fetch(url, init))
    this.now = options.now ?? Date.now
    this.shared = options.shared ?? null
    this.warn = options.warn ?? ((message) => console.warn(`[agent-signature] ${message}`))
  }

  /**
   * The key `keyid` of the trusted `origin`, at once: what is held now. A missing, stale or
   * incomplete directory is (re)loaded in the background; the request in hand does not wait for it.
   */
  lookup(origin: string, keyid: string): KeyLookup {
    if (!this.trusted.has(origin)) return 'absent'
    let entry = this.entries.get(origin)
    if (!entry) {
      entry = { keys: null, freshUntil: 0, retryAfter: 0, loading: null }
      this.entries.set(origin, entry)
    }
    const now = this.now()
    const key = entry.keys?.get(keyid)
    if (!entry.loading && now >= entry.retryAfter && (!key || now >= entry.freshUntil)) entry.loading = this.load(origin, entry)
    if (key) return key
    return entry.keys ? 'absent' : 'pending'
  }

  /** Settles once no directory is loading (tests, and callers that want the fetch's outcome). */
  async settled(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.loading))
  }

  private async load(origin: string, entry: Entry): Promise<void> {
    try {
      const stored = await this.readShared(origin)
      if (stored && stored.freshUntil > this.now()) {
        this.hold(entry, stored)
        return
      }
      const fetched = await this.fetchValidated(origin).catch((error: unknown) => {
        this.warn(`${origin}: ${error instanceof Error ? error.message : String(error)}`)
        return null
      })
      if (fetched) {
        this.hold(entry, fetched)
        void this.shared?.write(origin, fetched).catch(() => undefined)
        return
      }
      // Not evidence against the keys held: an outage keeps them (or what another instance stored).
      if (!entry.keys && stored) this.hold(entry, stored)
      entry.retryAfter = this.now() + DIRECTORY_LIMITS.retryMs
    } finally {
      entry.loading = null
    }
  }

  private hold(entry: Entry, directory: StoredDirectory): void {
    const keys = new Map<string, KeyObject>()
    for (const { kid, x } of directory.keys) {
      const key = ed25519KeyOf(x)
      if (key && ed25519Thumbprint(x) === kid) keys.set(kid, key)
    }
    entry.keys = keys
    entry.freshUntil = directory.freshUntil
    // A key the directory does not list makes the next lookup refresh it, but not more than once a minute.
    entry.retryAfter = this.now() + DIRECTORY_LIMITS.retryMs
  }

  private async readShared(origin: string): Promise<StoredDirectory | null> {
    if (!this.shared) return null
    try {
      return await this.shared.read(origin)
    } catch {
      return null
    }
  }

  /** Fetches and validates one directory; null (after a warning) when it cannot be used. */
  private async fetchValidated(origin: string): Promise<StoredDirectory | null> {
    const response = await this.fetchDirectory(`${origin}${DIRECTORY_PATH}`, {
      method: 'GET',
      redirect: 'manual',
      headers: { accept: DIRECTORY_MEDIA_TYPE },
      signal: AbortSignal.timeout(DIRECTORY_LIMITS.timeoutMs),
    })
    if (response.status !== 200) {
      await response.body?.cancel()
      throw new Error(`the key directory answered ${response.status}`)
    }
    const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase()
    if (type !== DIRECTORY_MEDIA_TYPE && type !== 'application/json') {
      await response.body?.cancel()
      throw new Error(`the key directory is served as ${type ?? 'nothing'}`)
    }
    const body = await readBounded(response, DIRECTORY_LIMITS.maxBytes)
    const candidates = directoryKeys(body)
    const proven = provenKeys(origin, response.headers, body, candidates, this.now())
    if (proven.length === 0) throw new Error('the key directory carries no valid signature by a key it lists')
    return { keys: proven, freshUntil: this.now() + freshnessMs(response.headers.get('cache-control')) }
  }
}

async function readBounded(response: Response, maxBytes: number): Promise<Buffer> {
  // Refused unread when its declared length is over the bound, else as soon as the bytes pass it.
  const declared = Number(response.headers.get('content-length'))
  const body = declared > maxBytes ? await response.body?.cancel().then(() => null) : await readStreamWithin(response.body, maxBytes)
  if (!body) throw new Error(`the key directory is larger than ${maxBytes} bytes`)
  return body
}

/** The Ed25519 keys of a JWK set by thumbprint; a `kid`, when given, must be that thumbprint. */
function directoryKeys(body: Buffer): Map<string, { x: string; key: KeyObject }> {
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    throw new Error('the key directory is not JSON')
  }
  const list = (parsed as { keys?: unknown } | null)?.keys
  if (!Array.isArray(list)) throw new Error('the key directory has no "keys" array')
  if (list.length > DIRECTORY_LIMITS.maxKeys) throw new Error(`the key directory lists more than ${DIRECTORY_LIMITS.maxKeys} keys`)
  const keys = new Map<string, { x: string; key: KeyObject }>()
  for (const jwk of list as Array<Record<string, unknown>>) {
    if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519') continue
    const key = ed25519KeyOf(jwk.x)
    if (!key) continue
    const kid = ed25519Thumbprint(jwk.x as string)
    if (jwk.kid !== undefined && jwk.kid !== kid) continue
    keys.set(kid, { x: jwk.x as string, key })
  }
  return keys
}

/**
 * The keys among `candidates` that signed this answer: a signature tagged
 * `http-message-signatures-directory`, by a listed key (`keyid` its thumbprint), covering
 * `"@authority";req`, created not in the future and not expired; `content-digest`, when covered,
 * must match the body.
 */
function provenKeys(
  origin: string,
  headers: Headers,
  body: Buffer,
  candidates: Map<string, { x: string; key: KeyObject }>,
  now: number,
): StoredKey[] {
  const input = headers.get('signature-input')
  const signature = headers.get('signature')
  if (input === null || signature === null) return []
  let signatures: ReturnType<typeof readMessageSignatures>
  try {
    signatures = readMessageSignatures(input, signature, DIRECTORY_TAG)
  } catch (error) {
    if (error instanceof MalformedSignature) return []
    throw error
  }
  const authority = new URL(origin).host
  const proven: StoredKey[] = []
  for (const signed of signatures) {
    const keyid = signed.params.get('keyid')
    const candidate = typeof keyid === 'string' ? candidates.get(keyid) : undefined
    const created = signed.params.get('created')
    const expires = signed.params.get('expires')
    const alg = signed.params.get('alg')
    if (!candidate || typeof created !== 'number' || typeof expires !== 'number' || (alg !== undefined && alg !== 'ed25519')) continue
    if (created * 1000 > now + DIRECTORY_LIMITS.skewMs || expires * 1000 <= now) continue
    const coversAuthority = signed.components.some(([name, params]) => name === '@authority' && params.size === 1 && params.get('req') === true)
    if (!coversAuthority) continue
    const base = signatureBase(signed, (name, params) => {
      if (name === '@authority') return params.size === 1 && params.get('req') === true ? authority : null
      if (name === 'content-digest') {
        const value = headers.get('content-digest')
        return params.size === 0 && value !== null && contentDigestMatches(value, body) ? value : null
      }
      return name.startsWith('@') ? null : fieldComponent(headers.get(name), params)
    })
    if (base !== null && verifyEd25519(candidate.key, base, signed.signature)) proven.push({ kid: keyid as string, x: candidate.x })
  }
  return proven
}

/** RFC 9530: every sha-256 / sha-512 member of Content-Digest must match the body, and one must be there. */
function contentDigestMatches(value: string, body: Buffer): boolean {
  const members = [...value.matchAll(/(sha-256|sha-512)=:([A-Za-z0-9+/=]+):/g)]
  if (members.length === 0) return false
  return members.every(
    ([, algorithm, digest]) =>
      createHash(algorithm === 'sha-256' ? 'sha256' : 'sha512')
        .update(body)
        .digest('base64') === digest,
  )
}

/** How long a directory answer stays fresh: its max-age within the bounds; no-store and no-cache get the least. */
export function freshnessMs(cacheControl: string | null): number {
  if (!cacheControl) return DIRECTORY_LIMITS.defaultFreshMs
  if (/(?:^|,)\s*(?:no-store|no-cache)\b/i.test(cacheControl)) return DIRECTORY_LIMITS.minFreshMs
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(cacheControl)?.[1]
  if (maxAge === undefined) return DIRECTORY_LIMITS.defaultFreshMs
  return Math.min(DIRECTORY_LIMITS.maxFreshMs, Math.max(DIRECTORY_LIMITS.minFreshMs, Number(maxAge) * 1000))
}
