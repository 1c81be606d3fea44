/**
 * Web Bot Auth at the origin (IETF webbotauth, draft-ietf-webbotauth-httpsig-protocol): whether a
 * request's `Signature`, `Signature-Input` and `Signature-Agent` show a trusted signer. The answer
 * never depends on it; the verdict goes to telemetry (agent_signature, agent_signer).
 *
 * A signature verifies only when all of these hold, whatever a library would accept:
 * - it is tagged `web-bot-auth`, its `alg` (if given) is `ed25519`, it has a `keyid`, `created` and `expires`;
 * - `created` is not in the future and `expires` not past (both within SKEW_SECONDS), and it lives at
 *   most MAX_LIFETIME_SECONDS (the draft's 24 hours);
 * - it covers `@authority` (this site's own, see `siteAuthority`) and the
 *   `Signature-Agent` member of its label (`"signature-agent";key="<label>"`, or the whole field), and
 *   `Signature-Agent` is sent, as a dictionary or as the older single string;
 * - the signer is a trusted origin (AGENT_SIGNATURE_DIRECTORIES), named as the origin or its directory
 *   URL; no other directory is ever fetched;
 * - the key is the one of the directory whose RFC 7638 thumbprint is the `keyid`, and the Ed25519
 *   signature of the signature base verifies with it;
 * - its nonce, when it has one, was not admitted before within its lifetime (checked before the
 *   Ed25519 verification; only a verified signature records its nonce). The draft makes `nonce`
 *   optional: a signature without one may be reused until it expires, and each reuse is verified;
 *   its verdict is cached (./verdict-cache.ts), so a reuse costs a lookup, not a verification.
 *
 * Verdicts: `verified`; `invalid` (malformed headers of any kind, a rule above broken, a wrong
 * signature, a replay); `unverified` (well-formed and within the rules, but the key is not held yet or
 * the signer is not trusted: the draft's "verifier cannot decide"); `unsigned` (none of the three headers).
 */
import type { KeyObject } from 'node:crypto'
import { parseItem, type Dictionary, type Parameters } from 'structured-headers'
import type { SiteConfig } from '../env.ts'
import { processSingleton } from '../process-singleton.ts'
import { getSharedRedis } from '../redis/shared-redis.ts'
import { DIRECTORY_PATH, KeyDirectories, type SharedDirectoryStore, type StoredDirectory } from './key-directory.ts'
import {
  fieldComponent,
  MalformedSignature,
  parseSignatureDictionary,
  readMessageSignatures,
  signatureBase,
  verifyEd25519,
  type MessageSignature,
} from './message-signature.ts'
import { ReplayGuard, type SharedClaim } from './replay-guard.ts'
import { type Expiring, VerdictCache } from './verdict-cache.ts'

const WEB_BOT_AUTH_TAG = 'web-bot-auth'
const SKEW_SECONDS = 60
const MAX_LIFETIME_SECONDS = 24 * 3600

type SignatureVerdict = 'verified' | 'invalid' | 'unverified' | 'unsigned'

export interface AgentSignature {
  verdict: SignatureVerdict
  /** The trusted directory's origin, for a verified signature only. */
  signer: string | null
}

const UNSIGNED: AgentSignature = Object.freeze({ verdict: 'unsigned', signer: null })
const INVALID: AgentSignature = Object.freeze({ verdict: 'invalid', signer: null })
const UNVERIFIED: AgentSignature = Object.freeze({ verdict: 'unverified', signer: null })

/** What the verifier reads of a request. */
export interface SignedRequest {
  method: string
  /** The request target in origin-form: path and query. */
  target: string
  /** `https` or `http`: the site's scheme. */
  scheme: string
  /** The authority the request was sent to when it is this site's, else null (the signature cannot be for this site). */
  authority: string | null
  header(name: string): string | null
}

/** A verified signature without a nonce, kept for its reuse: its verdict, and what must still hold for it to stand. */
export interface CachedVerdict extends Expiring {
  /** The rest of the header set it was verified with, beside the `Signature` field it is found by. */
  input: string
  agent: string
  authority: string
  verdict: AgentSignature
  signer: string
  keyid: string
  /** The directory's key it verified with: a refreshed directory that drops or replaces it ends the entry. */
  key: KeyObject
  /** Covered components beyond the header set and authority (`@path`, other fields), with the values they had. */
  others: ReadonlyArray<readonly [string, Parameters, string]>
}

/** Components a cached verdict's header set and authority determine: the authority and the three signature fields. */
const KEYED_COMPONENTS: ReadonlySet<string> = new Set(['@authority', 'signature-agent', 'signature-input', 'signature'])

export interface VerifierParts {
  directories: KeyDirectories
  replays: ReplayGuard
  /** Verdicts of reused signatures without a nonce (default: a cache of MAX_CACHED_VERDICTS). */
  verdicts?: VerdictCache<CachedVerdict>
  now?: () => number
  /** The Ed25519 check (default node:crypto's); tests count the verifications. */
  verify?: typeof verifyEd25519
}

export class AgentSignatureVerifier {
  private readonly directories: KeyDirectories
  private readonly replays: ReplayGuard
  private readonly verdicts: VerdictCache<CachedVerdict>
  private readonly now: () => number
  private readonly verify: typeof verifyEd25519

  constructor({ directories, replays, verdicts = new VerdictCache(), now = Date.now, verify = verifyEd25519 }: VerifierParts) {
    this.directories = directories
    this.replays = replays
    this.verdicts = verdicts
    this.now = now
    this.verify = verify
  }

  /** The verdict: at once, or once the shared replay store answered for a signature with a nonce that verified. */
  check(request: SignedRequest): AgentSignature | Promise<AgentSignature> {
    const input = request.header('signature-input')
    const signature = request.header('signature')
    const agent = request.header('signature-agent')
    if (input === null && signature === null && agent === null) return UNSIGNED
    if (input === null || signature === null || agent === null || request.authority === null) return INVALID
    // Found by its `Signature` field: the signature's own bytes, unique to what was signed.
    const cached = this.verdicts.get(signature, this.now() / 1000)
    if (cached !== undefined && this.stillHolds(cached, request, input, agent)) return cached.verdict
    let signatures: MessageSignature[]
    let agents: AgentMembers
    try {
      signatures = readMessageSignatures(input, signature, WEB_BOT_AUTH_TAG)
      agents = readSignatureAgent(agent)
    } catch (error) {
      if (error instanceof MalformedSignature) return INVALID
      throw error
    }
    let best: AgentSignature = INVALID
    for (const [index, signed] of signatures.entries()) {
      // Only the first signature's verdict is cached: were an earlier one to verify later, it would count instead.
      const verdict = this.checkOne(request, signed, agents, index === 0 ? { input, signature, agent, authority: request.authority } : null)
      if (verdict instanceof Promise || verdict.verdict === 'verified') return verdict
      if (verdict.verdict === 'unverified') best = verdict
    }
    return best
  }

  /**
   * A cached verdict holds for the very header set and authority it was verified with, while the
   * signer's directory still has its key and the other components it covers are unchanged.
   */
  private stillHolds(cached: CachedVerdict, request: SignedRequest, input: string, agent: string): boolean {
    if (cached.input !== input || cached.agent !== agent || cached.authority !== request.authority) return false
    if (this.directories.lookup(cached.signer, cached.keyid) !== cached.key) return false
    for (const [name, params, value] of cached.others) if (requestComponent(request, name, params) !== value) return false
    return true
  }

  private checkOne(
    request: SignedRequest,
    signed: MessageSignature,
    agents: AgentMembers,
    /** The raw header set and authority its verdict is cached with, for the first signature of a set. */
    received: (Pick<CachedVerdict, 'input' | 'agent' | 'authority'> & { signature: string }) | null,
  ): AgentSignature | Promise<AgentSignature> {
    const { params, components, label } = signed
    const keyid = params.get('keyid')
    const created = params.get('created')
    const expires = params.get('expires')
    const alg = params.get('alg')
    const nonce = params.get('nonce')
    if (typeof keyid !== 'string' || keyid === '' || !Number.isInteger(created) || !Number.isInteger(expires)) return INVALID
    if ((alg !== undefined && alg !== 'ed25519') || (nonce !== undefined && typeof nonce !== 'string')) return INVALID
    const now = this.now() / 1000
    const [from, until] = [created as number, expires as number]
    if (from > now + SKEW_SECONDS || until < now - SKEW_SECONDS || until <= from || until - from > MAX_LIFETIME_SECONDS) return INVALID
    if (!components.some(([name, componentParams]) => name === '@authority' && componentParams.size === 0)) return INVALID
    // The Signature-Agent member of this label, covered as that member or as the whole field.
    const signerUrl = agents.form === 'string' ? agents.value : agents.members.get(label)
    if (signerUrl === undefined) return INVALID
    const coversAgent = components.some(
      ([name, componentParams]) =>
        name === 'signature-agent' &&
        (componentParams.size === 0 || (agents.form === 'dictionary' && componentParams.size === 1 && componentParams.get('key') === label)),
    )
    if (!coversAgent) return INVALID
    const base = signatureBase(signed, (name, componentParams) => requestComponent(request, name, componentParams))
    if (base === null) return INVALID
    const signer = directoryOrigin(signerUrl)
    if (signer === null) return INVALID
    const key = this.directories.lookup(signer, keyid)
    if (typeof key === 'string') return UNVERIFIED
    // A nonce already admitted is a replay: refused before the costly verification.
    const replayKey = typeof nonce === 'string' ? this.replays.replayKey(signer, nonce) : null
    if (replayKey !== null && this.replays.wasSeen(replayKey)) return INVALID
    if (!this.verify(key, base, signed.signature)) return INVALID
    const verified: AgentSignature = Object.freeze({ verdict: 'verified', signer })
    const validUntil = until + SKEW_SECONDS
    if (replayKey === null) {
      if (received !== null) {
        const { signature, ...fields } = received
        const others = components
          .filter(([name]) => !KEYED_COMPONENTS.has(name))
          .map(([name, componentParams]) => [name, componentParams, requestComponent(request, name, componentParams) as string] as const)
        const length = signature.length + fields.input.length + fields.agent.length + fields.authority.length
        this.verdicts.set(signature, { ...fields, verdict: verified, signer, keyid, key, others, validUntil }, length, now)
      }
      return verified
    }
    const admitted = this.replays.admit(replayKey, validUntil * 1000)
    if (admitted instanceof Promise) return admitted.then((fresh) => (fresh ? verified : INVALID))
    return admitted ? verified : INVALID
  }
}

type AgentMembers = { form: 'string'; value: string } | { form: 'dictionary'; members: Map<string, string> }

/**
 * `Signature-Agent`: a dictionary of labels to URL strings (members with parameters are ignored, as
 * the draft says), or the older single string (it begins with a double quote).
 */
function readSignatureAgent(value: string): AgentMembers {
  if (value.trimStart().startsWith('"')) {
    let item: ReturnType<typeof parseItem>
    try {
      item = parseItem(value)
    } catch {
      throw new MalformedSignature('Signature-Agent is not a string')
    }
    if (typeof item[0] !== 'string') throw new MalformedSignature('Signature-Agent is not a string')
    return { form: 'string', value: item[0] }
  }
  const dictionary: Dictionary = parseSignatureDictionary(value)
  const members = new Map<string, string>()
  for (const [label, [member, params]] of dictionary) if (typeof member === 'string' && params.size === 0) members.set(label, member)
  return { form: 'dictionary', members }
}

/**
 * The origin a Signature-Agent URL names: an https (or loopback http) origin, given as the origin
 * itself or as its directory URL; null for anything else (another path, credentials, a fragment).
 */
function directoryOrigin(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return null
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.hash) return null
  return url.pathname === '/' || url.pathname === DIRECTORY_PATH ? url.origin : null
}

/** A covered component of a request (RFC 9421 §2.2 derived components, §2.1 fields); null when it cannot be given. */
function requestComponent(request: SignedRequest, name: string, params: Parameters): string | null {
  if (!name.startsWith('@')) return fieldComponent(request.header(name), params)
  if (params.size !== 0) return null
  const query = request.target.indexOf('?')
  const path = query < 0 ? request.target : request.target.slice(0, query)
  switch (name) {
    case '@authority':
      return request.authority
    case '@method':
      return request.method
    case '@path':
      return path || '/'
    case '@query':
      return query < 0 ? '?' : request.target.slice(query)
    case '@scheme':
      return request.scheme
    case '@target-uri':
      return `${request.scheme}://${request.authority}${request.target}`
    case '@request-target':
      return request.target
    default:
      return null
  }
}

/**
 * The authority a request was sent to, as this site's: on Vercel the `Host` the platform routed
 * (only the project's domains reach it); elsewhere only the base URL's authority, so that a
 * signature made for another site cannot be replayed here under its own `Host`. Lower case,
 * without the scheme's default port (RFC 9421 §2.2.3).
 */
export function siteAuthority(host: string | null, config: Pick<SiteConfig, 'baseUrl' | 'onVercel'>): string | null {
  if (!host) return null
  const base = baseAuthority(config.baseUrl)
  let authority = host.trim().toLowerCase()
  if (authority.endsWith(base.defaultPort)) authority = authority.slice(0, -base.defaultPort.length)
  if (config.onVercel) return /^[a-z0-9.[\]:-]+$/.test(authority) ? authority : null
  return authority === base.host ? authority : null
}

let lastBase: { url: string; host: string; defaultPort: string } | undefined

/** The base URL's authority and its scheme's default port, parsed once. */
function baseAuthority(url: string): { host: string; defaultPort: string } {
  if (lastBase?.url !== url) {
    const parsed = new URL(url)
    lastBase = { url, host: parsed.host, defaultPort: parsed.protocol === 'https:' ? ':443' : ':80' }
  }
  return lastBase
}

/** Upstash keys of the signature state: `<prefix>:agent-signature:directory:<origin>`, `…:seen:<hash>`. */
const DIRECTORY_KEY = (prefix: string, origin: string) => `${prefix}:agent-signature:directory:${origin}`
const SEEN_KEY = (prefix: string, key: string) => `${prefix}:agent-signature:seen:${key}`
/** A shared directory is kept this long past its freshness, for instances that start during an outage. */
const SHARED_DIRECTORY_TTL_SECONDS = 30 * 24 * 3600

function sharedDirectories(prefix: string): SharedDirectoryStore | null {
  const redis = getSharedRedis()
  if (!redis) return null
  return {
    async read(origin) {
      const text = await (await redis).get<string>(DIRECTORY_KEY(prefix, origin))
      if (typeof text !== 'string') return null
      const stored = JSON.parse(text) as StoredDirectory
      return Array.isArray(stored?.keys) && typeof stored.freshUntil === 'number' ? stored : null
    },
    async write(origin, directory) {
      await (await redis).set(DIRECTORY_KEY(prefix, origin), JSON.stringify(directory), { ex: SHARED_DIRECTORY_TTL_SECONDS })
    },
  }
}

function sharedClaim(prefix: string): SharedClaim | null {
  const redis = getSharedRedis()
  if (!redis) return null
  return async (key, expiresAt) => {
    const claimed = await (await redis).set(SEEN_KEY(prefix, key), '1', { nx: true, px: Math.max(1, expiresAt - Date.now()) })
    return claimed !== null
  }
}

/**
 * This process's verifier, from the settings: the trusted directories, and Upstash when configured.
 * @public (lib/signed-agents.ts loads this module on the first signed request)
 */
export function getAgentSignatureVerifier(config: Pick<SiteConfig, 'agentSignatureDirectories' | 'redisKeyPrefix'>): AgentSignatureVerifier {
  return processSingleton('agent-signature-verifier', () => {
    const trusted = new Set(config.agentSignatureDirectories)
    return new AgentSignatureVerifier({
      directories: new KeyDirectories(trusted, { shared: sharedDirectories(config.redisKeyPrefix) }),
      replays: new ReplayGuard(Date.now, sharedClaim(config.redisKeyPrefix)),
    })
  })
}
