/**
 * The pieces of RFC 9421 (HTTP Message Signatures) this site verifies with: the `Signature-Input` and
 * `Signature` dictionaries (Structured Fields, RFC 9651, parsed by `structured-headers`), the signature
 * base of a message, Ed25519 verification (node:crypto) and the RFC 7638 thumbprint of an Ed25519 JWK
 * (RFC 8037). What a signature must cover and when it is fresh are the callers' rules
 * (./web-bot-auth.ts for requests, ./key-directory.ts for a directory's answer).
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto'
import { parseDictionary, serializeInnerList, serializeItem, type Dictionary, type InnerList, type Item, type Parameters } from 'structured-headers'

/** One member of `Signature-Input` with its `Signature`: what was signed, how, and the signature's bytes. */
export interface MessageSignature {
  label: string
  /** The covered components in order: each a component name (`@authority`, `signature-agent`) with its parameters. */
  components: ReadonlyArray<readonly [string, Parameters]>
  /** The signature parameters (`created`, `expires`, `keyid`, `alg`, `nonce`, `tag`). */
  params: Parameters
  /** The `@signature-params` value: the member serialized again (RFC 9421 §2.3). */
  signatureParams: string
  signature: Uint8Array
}

/** Why a set of signature headers could not be read: the caller answers as it always does and records `invalid`. */
export class MalformedSignature extends Error {
  override name = 'MalformedSignature'
}

/** Field values longer than this are refused unparsed: a signature set is a few hundred bytes. */
const MAX_SIGNATURE_FIELD_LENGTH = 8192
/** Members of one `Signature-Input` looked at; past these the set is refused (each costs a verification). */
const MAX_SIGNATURES = 4
/** Components one signature may cover. */
const MAX_COMPONENTS = 16
const ED25519_SIGNATURE_BYTES = 64

/** A Structured Fields dictionary, or a MalformedSignature. */
export function parseSignatureDictionary(value: string): Dictionary {
  if (value.length > MAX_SIGNATURE_FIELD_LENGTH) throw new MalformedSignature('field too long')
  try {
    return parseDictionary(value)
  } catch {
    throw new MalformedSignature('not a structured dictionary')
  }
}

/**
 * The signatures of a message: each `Signature-Input` member (an inner list of component names)
 * with the `Signature` member of the same label (a byte sequence). Members whose `tag` is not `tag` (when
 * one is given) are left out; any malformed member, or one without its signature, refuses the set.
 */
export function readMessageSignatures(signatureInput: string, signature: string, tag: string | null): MessageSignature[] {
  const inputs = parseSignatureDictionary(signatureInput)
  const signatures = parseSignatureDictionary(signature)
  if (inputs.size === 0 || inputs.size > MAX_SIGNATURES) throw new MalformedSignature('no or too many signatures')
  const found: MessageSignature[] = []
  for (const [label, member] of inputs) {
    const [items, params] = member
    if (!Array.isArray(items)) throw new MalformedSignature('a Signature-Input member is not an inner list')
    if (tag !== null && params.get('tag') !== tag) continue
    if (items.length > MAX_COMPONENTS) throw new MalformedSignature('too many components')
    const components = items.map(([name, componentParams]) => {
      if (typeof name !== 'string' || name === '' || name !== name.toLowerCase() || name === '@signature-params') {
        throw new MalformedSignature('a component name is not a lower-case string')
      }
      return [name, componentParams] as const
    })
    const bytes = signatures.get(label)?.[0]
    if (!(bytes instanceof ArrayBuffer) || bytes.byteLength !== ED25519_SIGNATURE_BYTES)
      throw new MalformedSignature('no Ed25519 signature for a label')
    found.push({ label, components, params, signatureParams: serializeInnerList(member as InnerList), signature: new Uint8Array(bytes) })
  }
  return found
}

/** A component's value, or null when this message cannot give it (the signature then cannot verify). */
export type ComponentResolver = (name: string, params: Parameters) => string | null

/**
 * The signature base (RFC 9421 §2.5): one line per covered component, `"<name>";<params>: <value>`,
 * then `"@signature-params"`. Null when a component cannot be resolved or is covered twice.
 */
export function signatureBase(signature: Pick<MessageSignature, 'components' | 'signatureParams'>, resolve: ComponentResolver): string | null {
  let base = ''
  const seen = new Set<string>()
  for (const [name, params] of signature.components) {
    const id = serializeItem(name, params)
    if (seen.has(id)) return null
    seen.add(id)
    const value = resolve(name, params)
    if (value === null || /[\r\n]/.test(value)) return null
    base += `${id}: ${value}\n`
  }
  return `${base}"@signature-params": ${signature.signatureParams}`
}

/**
 * The value of a header field component (RFC 9421 §2.1): the field's value as received, or with
 * `key`, the serialized member of the field parsed as a dictionary. Other parameters (`sf`, `bs`,
 * `req`, `tr`) are not resolved.
 */
export function fieldComponent(value: string | null, params: Parameters): string | null {
  if (value === null) return null
  if (params.size === 0) return value
  const key = params.get('key')
  if (params.size !== 1 || typeof key !== 'string') return null
  let dictionary: Dictionary
  try {
    dictionary = parseSignatureDictionary(value)
  } catch {
    return null
  }
  const member = dictionary.get(key)
  if (!member) return null
  return Array.isArray(member[0]) ? serializeInnerList(member as InnerList) : serializeItem(member as Item)
}

/** Ed25519 over the signature base; false for a key or signature of another kind, never throws. */
export function verifyEd25519(key: KeyObject, base: string, signature: Uint8Array): boolean {
  try {
    return verify(null, Buffer.from(base), key, signature)
  } catch {
    return false
  }
}

/** The base64url Ed25519 public key `x` of an OKP JWK, checked: 32 bytes, canonical encoding. */
export function ed25519KeyOf(x: unknown): KeyObject | null {
  if (typeof x !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(x) || Buffer.from(x, 'base64url').toString('base64url') !== x) return null
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' })
  } catch {
    return null
  }
}

/** RFC 7638 thumbprint of an Ed25519 JWK (RFC 8037 §A.3): SHA-256 of its required members in order, base64url. */
export function ed25519Thumbprint(x: string): string {
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url')
}
