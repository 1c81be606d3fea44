/**
 * Web Bot Auth verification (lib/agent-signature): RFC 9421's own Ed25519 test vector, then every
 * rule of a verified agent with keys made here and directories answered in-process.
 */
import { createPublicKey } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { directoryAnswer, makeAgentKey, signRequest, type AgentKey } from '../../harness/agent-signer.ts'
import { DIRECTORY_LIMITS, freshnessMs, KeyDirectories, type DirectoryFetch } from '../../lib/agent-signature/key-directory.ts'
import { readMessageSignatures, signatureBase, verifyEd25519 } from '../../lib/agent-signature/message-signature.ts'
import { ReplayGuard } from '../../lib/agent-signature/replay-guard.ts'
import { VerdictCache } from '../../lib/agent-signature/verdict-cache.ts'
import { AgentSignatureVerifier, siteAuthority, type CachedVerdict, type SignedRequest } from '../../lib/agent-signature/web-bot-auth.ts'

describe('RFC 9421 Appendix B.2.6: the Ed25519 signature of the test request, with the key of B.1.4', () => {
  // B.1.4 test-key-ed25519, public part (SubjectPublicKeyInfo).
  const publicKey = createPublicKey(
    ['-----BEGIN PUBLIC KEY-----', 'MCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=', '-----END PUBLIC KEY-----'].join('\n'),
  )
  // B.2.6, its line wrapping (RFC 8792) undone.
  const signatureInput = 'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"'
  const signature = 'sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:'
  const expectedBase = [
    '"date": Tue, 20 Apr 2021 02:07:55 GMT',
    '"@method": POST',
    '"@path": /foo',
    '"@authority": example.com',
    '"content-type": application/json',
    '"content-length": 18',
    '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
  ].join('\n')
  // The test request of B.2: POST /foo?param=Value&Pet=dog to example.com.
  const components: Record<string, string> = {
    date: 'Tue, 20 Apr 2021 02:07:55 GMT',
    '@method': 'POST',
    '@path': '/foo',
    '@authority': 'example.com',
    'content-type': 'application/json',
    'content-length': '18',
  }
  const [signed] = readMessageSignatures(signatureInput, signature, null)
  if (!signed) throw new Error('the vector did not parse')
  const base = signatureBase(signed, (name) => components[name] ?? null) as string

  it('rebuilds the signature base of the RFC byte for byte', () => {
    expect(base).toBe(expectedBase)
  })

  it('accepts the signature', () => {
    expect(verifyEd25519(publicKey, base, signed.signature)).toBe(true)
  })

  it('refuses it with any one byte of the signature changed', () => {
    for (let index = 0; index < signed.signature.length; index++) {
      const changed = Uint8Array.from(signed.signature)
      changed[index] = (changed[index] as number) ^ 0x01
      expect(verifyEd25519(publicKey, base, changed), `byte ${index}`).toBe(false)
    }
  })

  it('refuses it with any one byte of the signed message changed', () => {
    const bytes = Buffer.from(base)
    for (let index = 0; index < bytes.length; index++) {
      const changed = Buffer.from(bytes)
      changed[index] = (changed[index] as number) ^ 0x01
      expect(verifyEd25519(publicKey, changed.toString('latin1'), signed.signature), `byte ${index}`).toBe(false)
    }
  })
})

const SITE = 'agents.example.com'
const SIGNER = 'https://signer.example'
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0)

interface Setup {
  verifier: AgentSignatureVerifier
  directories: KeyDirectories
  fetched: string[]
  clock: { now: number }
  directory: { status: number; answer: () => { headers: Record<string, string>; body: string } }
  /** Ed25519 verifications the verifier made. */
  verifications: { count: number }
  verdicts: VerdictCache<CachedVerdict>
}

function setup(keys: AgentKey[], trusted: string[] = [SIGNER], cachedVerdicts?: number): Setup {
  const clock = { now: NOW }
  const fetched: string[] = []
  const directory = { status: 200, answer: () => directoryAnswer(keys, 'signer.example', { created: Math.floor(clock.now / 1000) }) }
  const fetchDirectory: DirectoryFetch = async (url) => {
    fetched.push(url)
    if (directory.status !== 200) return new Response('down', { status: directory.status })
    const { headers, body } = directory.answer()
    return new Response(body, { headers })
  }
  const now = () => clock.now
  const directories = new KeyDirectories(new Set(trusted), { fetch: fetchDirectory, now, warn: () => undefined })
  const verifications = { count: 0 }
  const verify: typeof verifyEd25519 = (key, base, signature) => {
    verifications.count++
    return verifyEd25519(key, base, signature)
  }
  const verdicts = new VerdictCache<CachedVerdict>(cachedVerdicts)
  const verifier = new AgentSignatureVerifier({ directories, replays: new ReplayGuard(now), verdicts, now, verify })
  return { verifier, directories, fetched, clock, directory, verifications, verdicts }
}

function request(headers: Record<string, string>, authority: string | null = SITE): SignedRequest {
  return { method: 'GET', target: '/api/agent/v1/health', scheme: 'https', authority, header: (name) => headers[name] ?? null }
}

const signed = (key: AgentKey, options: Partial<Parameters<typeof signRequest>[1]> = {}) =>
  signRequest(key, { authority: SITE, agent: SIGNER, created: Math.floor(NOW / 1000), ...options })

/** A verifier that already holds the directory of `key`. */
async function warmed(key: AgentKey, cachedVerdicts?: number) {
  const context = setup([key], [SIGNER], cachedVerdicts)
  context.verifier.check(request(signed(key)))
  await context.directories.settled()
  return context
}

describe('Web Bot Auth verdicts', () => {
  it('a request without Signature, Signature-Input or Signature-Agent is unsigned', () => {
    expect(setup([makeAgentKey()]).verifier.check(request({ 'user-agent': 'x' }))).toEqual({ verdict: 'unsigned', signer: null })
  })

  it("is unverified while the signer's directory is not held yet, then verified by the directory's origin", async () => {
    const key = makeAgentKey()
    const { verifier, directories, fetched } = setup([key])
    expect(verifier.check(request(signed(key)))).toEqual({ verdict: 'unverified', signer: null })
    await directories.settled()
    expect(fetched).toEqual([`${SIGNER}/.well-known/http-message-signatures-directory`])
    expect(verifier.check(request(signed(key)))).toEqual({ verdict: 'verified', signer: SIGNER })
  })

  it.each([
    ['a dictionary member covered as that member', { form: 'dictionary' as const }],
    ['the older single string covered whole', { form: 'string' as const }],
    ['a dictionary covered whole', { components: ['"@authority"', '"signature-agent"'] }],
    ['the directory URL as Signature-Agent', { agent: `${SIGNER}/.well-known/http-message-signatures-directory` }],
    [
      '@method and @path covered too',
      { components: ['"@authority"', '"@method"', '"@path"', '"signature-agent";key="sig1"'], path: '/api/agent/v1/health' },
    ],
    ['no nonce', { nonce: null }],
  ])('verifies Signature-Agent as %s', async (_, options) => {
    const key = makeAgentKey()
    const { verifier } = await warmed(key)
    expect(verifier.check(request(signed(key, options)))).toEqual({ verdict: 'verified', signer: SIGNER })
  })

  it.each([
    ['covers no component (GHSA-x9cc-346q-g27m)', { components: [] }],
    ['does not cover @authority', { components: ['"signature-agent";key="sig1"'] }],
    ['does not cover Signature-Agent', { components: ['"@authority"'] }],
    ['covers another Signature-Agent member', { components: ['"@authority"', '"signature-agent";key="sig2"'] }],
    ['is tagged for another protocol', { tag: 'other-protocol' }],
    ['was created in the future', { created: Math.floor(NOW / 1000) + 120 }],
    ['has expired', { created: Math.floor(NOW / 1000) - 3600, lifetime: 60 }],
    ['lives longer than 24 hours', { lifetime: 24 * 3600 + 1 }],
    ['covers a component the request does not have', { components: ['"@authority"', '"signature-agent";key="sig1"', '"x-missing"'] }],
    ['covers @path of another path', { components: ['"@authority"', '"@path"', '"signature-agent";key="sig1"'], path: '/elsewhere' }],
  ])('a signature that %s is invalid', async (_, options) => {
    const key = makeAgentKey()
    const { verifier } = await warmed(key)
    expect(verifier.check(request(signed(key, options)))).toEqual({ verdict: 'invalid', signer: null })
  })

  it('a signature made for another authority, or reaching the site under a Host that is not its own, is invalid', async () => {
    const key = makeAgentKey()
    const { verifier } = await warmed(key)
    expect(verifier.check(request(signed(key, { authority: 'other.example' })))).toEqual({ verdict: 'invalid', signer: null })
    expect(verifier.check(request(signed(key, { authority: 'other.example' }), null))).toEqual({ verdict: 'invalid', signer: null })
  })

  it("a signature by another key under the trusted key's keyid is invalid", async () => {
    const key = makeAgentKey()
    const { verifier } = await warmed(key)
    expect(verifier.check(request(signed(key, { signingKey: makeAgentKey().privateKey })))).toEqual({ verdict: 'invalid', signer: null })
  })

  it('a nonce seen once is invalid the second time, refused without a second verification', async () => {
    const key = makeAgentKey()
    const { verifier, verifications } = await warmed(key)
    const once = signed(key, { nonce: 'bm9uY2UtMQ==' })
    const before = verifications.count
    expect(verifier.check(request(once))).toEqual({ verdict: 'verified', signer: SIGNER })
    expect(verifier.check(request(once))).toEqual({ verdict: 'invalid', signer: null })
    expect(verifier.check(request(signed(key, { nonce: 'bm9uY2UtMQ==', lifetime: 200 })))).toEqual({ verdict: 'invalid', signer: null })
    expect(verifications.count - before).toBe(1)
  })

  it('a forged signature does not burn its nonce: the signer verifies with it afterwards', async () => {
    const key = makeAgentKey()
    const { verifier } = await warmed(key)
    const forged = signed(key, { nonce: 'bm9uY2UtMg==', signingKey: makeAgentKey().privateKey })
    expect(verifier.check(request(forged))).toEqual({ verdict: 'invalid', signer: null })
    expect(verifier.check(request(signed(key, { nonce: 'bm9uY2UtMg==' })))).toEqual({ verdict: 'verified', signer: SIGNER })
  })

  it('a signer that is not trusted is unverified and its directory is never fetched', async () => {
    const key = makeAgentKey()
    const { verifier, directories, fetched } = setup([key], ['https://trusted.example'])
    expect(verifier.check(request(signed(key)))).toEqual({ verdict: 'unverified', signer: null })
    await directories.settled()
    expect(verifier.check(request(signed(key)))).toEqual({ verdict: 'unverified', signer: null })
    expect(fetched).toEqual([])
  })

  it.each([
    ['Signature-Input is not a dictionary', { 'signature-input': '(((' }],
    ['Signature is not a byte sequence', { signature: 'sig1="abc"' }],
    ['Signature has 63 bytes', { signature: `sig1=:${Buffer.alloc(63).toString('base64')}:` }],
    ['Signature names another label', { signature: `sig2=:${Buffer.alloc(64).toString('base64')}:` }],
    ['Signature-Agent is not a structured field', { 'signature-agent': '"unterminated' }],
    ['Signature-Agent names no member for the label', { 'signature-agent': 'sig9="https://signer.example"' }],
    ['Signature-Agent is a token', { 'signature-agent': 'sig1=https' }],
    ['Signature-Agent names a URL with a path', { 'signature-agent': 'sig1="https://signer.example/keys"' }],
    ['Signature-Agent is not a URL', { 'signature-agent': 'sig1="not a url"' }],
    ['Signature-Input is 9 kB', { 'signature-input': `sig1=("@authority");x="${'a'.repeat(9000)}"` }],
    ['keyid is missing', { 'signature-input': 'sig1=("@authority" "signature-agent";key="sig1");created=1;expires=2;tag="web-bot-auth"' }],
    ['alg is another algorithm', { 'signature-input': 'sig1=("@authority");created=1;expires=2;keyid="k";alg="rsa-pss-sha512";tag="web-bot-auth"' }],
    ['created is a string', { 'signature-input': 'sig1=("@authority");created="now";expires=2;keyid="k";tag="web-bot-auth"' }],
    ['a component is a token', { 'signature-input': 'sig1=(authority);created=1;expires=2;keyid="k";tag="web-bot-auth"' }],
  ])('malformed headers are invalid, never an exception: %s', async (_, override) => {
    const key = makeAgentKey()
    const { verifier } = await warmed(key)
    expect(verifier.check(request({ ...signed(key), ...override }))).toEqual({ verdict: 'invalid', signer: null })
  })

  it.each(['signature', 'signature-input', 'signature-agent'])('a signature set without %s is invalid', async (missing) => {
    const key = makeAgentKey()
    const { verifier } = await warmed(key)
    const headers = signed(key)
    delete headers[missing]
    expect(verifier.check(request(headers))).toEqual({ verdict: 'invalid', signer: null })
  })
})

describe('signatures without a nonce, reused until they expire', () => {
  it('are verified at each reuse, with one Ed25519 verification for all of them', async () => {
    const key = makeAgentKey()
    const { verifier, verifications } = await warmed(key)
    const reused = signed(key, { nonce: null })
    const before = verifications.count
    for (let i = 0; i < 3; i++) expect(verifier.check(request(reused))).toEqual({ verdict: 'verified', signer: SIGNER })
    expect(verifications.count - before).toBe(1)
  })

  it('are not verified once past expires and its 60 s of skew, cached or not', async () => {
    const key = makeAgentKey()
    const { verifier, clock, verdicts } = await warmed(key)
    const reused = signed(key, { nonce: null, lifetime: 120 })
    expect(verifier.check(request(reused))).toEqual({ verdict: 'verified', signer: SIGNER })
    clock.now += (120 + 60) * 1000
    expect(verifier.check(request(reused))).toEqual({ verdict: 'verified', signer: SIGNER })
    clock.now += 1000
    expect(verifier.check(request(reused))).toEqual({ verdict: 'invalid', signer: null })
    expect(verdicts.size).toBe(0)
  })

  it('are verified again, not looked up, when the path, authority, Signature-Agent or signature parameters they cover differ, and are invalid there', async () => {
    const key = makeAgentKey()
    const { verifier, verifications } = await warmed(key)
    const components = ['"@authority"', '"@path"', '"signature-agent";key="sig1"']
    const reused = signed(key, { nonce: null, components, path: '/api/agent/v1/health' })
    expect(verifier.check(request(reused))).toEqual({ verdict: 'verified', signer: SIGNER })
    const before = verifications.count
    expect(verifier.check({ ...request(reused), target: '/api/agent/v1/resources' })).toEqual({ verdict: 'invalid', signer: null })
    expect(verifier.check(request(reused, 'other.example'))).toEqual({ verdict: 'invalid', signer: null })
    // The same signer named by its directory URL: another signed value.
    const directoryUrl = `sig1="${SIGNER}/.well-known/http-message-signatures-directory"`
    expect(verifier.check(request({ ...reused, 'signature-agent': directoryUrl }))).toEqual({ verdict: 'invalid', signer: null })
    // The same Signature under other signature parameters.
    const input = (reused['signature-input'] as string).replace(';tag=', ';label="x";tag=')
    expect(verifier.check(request({ ...reused, 'signature-input': input }))).toEqual({ verdict: 'invalid', signer: null })
    expect(verifications.count - before).toBe(4)
    expect(verifier.check(request(reused))).toEqual({ verdict: 'verified', signer: SIGNER })
    expect(verifications.count - before).toBe(4)
  })

  it('stop verifying once a refreshed directory no longer lists their key', async () => {
    const [old, next] = [makeAgentKey(), makeAgentKey()]
    const { verifier, directories, clock, directory } = setup([old])
    directory.answer = () => directoryAnswer([old], 'signer.example', { created: Math.floor(clock.now / 1000), cacheControl: 'max-age=600' })
    const reused = signed(old, { nonce: null, lifetime: 3600 })
    verifier.check(request(reused))
    await directories.settled()
    expect(verifier.check(request(reused))).toEqual({ verdict: 'verified', signer: SIGNER })
    directory.answer = () => directoryAnswer([next], 'signer.example', { created: Math.floor(clock.now / 1000) })
    clock.now += 601_000
    // Stale: still verified while the refresh it starts is under way.
    expect(verifier.check(request(reused))).toEqual({ verdict: 'verified', signer: SIGNER })
    await directories.settled()
    expect(verifier.check(request(reused))).toEqual({ verdict: 'unverified', signer: null })
  })

  it('are cached in a bounded number of entries, however many verified signatures arrive', async () => {
    const key = makeAgentKey()
    const { verifier, verdicts, verifications } = await warmed(key, 8)
    const distinct = Array.from({ length: 50 }, (_, i) => signed(key, { nonce: null, lifetime: 300 + i }))
    for (const headers of distinct) expect(verifier.check(request(headers))).toEqual({ verdict: 'verified', signer: SIGNER })
    expect(verdicts.size).toBeLessThanOrEqual(8)
    const before = verifications.count
    expect(verifier.check(request(distinct[49] as Record<string, string>))).toEqual({ verdict: 'verified', signer: SIGNER })
    expect(verifier.check(request(distinct[0] as Record<string, string>))).toEqual({ verdict: 'verified', signer: SIGNER })
    expect(verifications.count - before).toBe(1)
  })

  it('never cache a signature that did not verify, nor one with a nonce', async () => {
    const key = makeAgentKey()
    const { verifier, verdicts } = await warmed(key)
    for (let i = 0; i < 20; i++) {
      const headers = signed(key, { nonce: null, lifetime: 300 + i })
      const bogus = { ...headers, signature: `sig1=:${Buffer.alloc(64, i).toString('base64')}:` }
      expect(verifier.check(request(bogus))).toEqual({ verdict: 'invalid', signer: null })
      expect(verifier.check(request(signed(key, { nonce: null, lifetime: 300 + i, signingKey: makeAgentKey().privateKey })))).toEqual({
        verdict: 'invalid',
        signer: null,
      })
    }
    expect(verifier.check(request(signed(key)))).toEqual({ verdict: 'verified', signer: SIGNER })
    expect(verdicts.size).toBe(0)
  })
})

describe("the signer's key directory", () => {
  it('is used only for the keys that signed its answer', async () => {
    const [signer, listedOnly] = [makeAgentKey(), makeAgentKey()]
    const { verifier, directories, directory } = setup([signer, listedOnly])
    directory.answer = () => directoryAnswer([signer, listedOnly], 'signer.example', { signedBy: [signer], created: Math.floor(NOW / 1000) })
    verifier.check(request(signed(signer)))
    await directories.settled()
    expect(verifier.check(request(signed(signer)))).toEqual({ verdict: 'verified', signer: SIGNER })
    expect(verifier.check(request(signed(listedOnly)))).toEqual({ verdict: 'unverified', signer: null })
  })

  it('is not used at all when its answer is unsigned, or signed for another authority', async () => {
    const key = makeAgentKey()
    for (const answer of [
      () => directoryAnswer([key], 'signer.example', { signedBy: [], created: Math.floor(NOW / 1000) }),
      () => directoryAnswer([key], 'copy.example', { created: Math.floor(NOW / 1000) }),
    ]) {
      const { verifier, directories, directory } = setup([key])
      directory.answer = answer
      verifier.check(request(signed(key)))
      await directories.settled()
      expect(verifier.check(request(signed(key)))).toEqual({ verdict: 'unverified', signer: null })
    }
  })

  it('keeps verifying with the keys it holds while the directory is down past its freshness, and fetches at most once a minute', async () => {
    const key = makeAgentKey()
    const { verifier, directories, fetched, clock, directory } = await warmed(key)
    directory.status = 503
    clock.now += DIRECTORY_LIMITS.maxFreshMs + 1
    expect(verifier.check(request(signed(key, { created: Math.floor(clock.now / 1000) })))).toEqual({ verdict: 'verified', signer: SIGNER })
    await directories.settled()
    expect(verifier.check(request(signed(key, { created: Math.floor(clock.now / 1000) })))).toEqual({ verdict: 'verified', signer: SIGNER })
    await directories.settled()
    expect(fetched).toHaveLength(2)
  })

  it('a key removed from the directory stops verifying once the directory is refreshed', async () => {
    const [old, next] = [makeAgentKey(), makeAgentKey()]
    const { verifier, directories, clock, directory } = await warmed(old)
    directory.answer = () => directoryAnswer([next], 'signer.example', { created: Math.floor(clock.now / 1000) })
    clock.now += DIRECTORY_LIMITS.maxFreshMs + 1
    const created = Math.floor(clock.now / 1000)
    verifier.check(request(signed(old, { created })))
    await directories.settled()
    expect(verifier.check(request(signed(old, { created })))).toEqual({ verdict: 'unverified', signer: null })
    expect(verifier.check(request(signed(next, { created })))).toEqual({ verdict: 'verified', signer: SIGNER })
  })

  it.each([
    ['its length declared in Content-Length', true],
    ['its bytes streamed without a length', false],
  ])('is not used when its answer is one byte over the 64 KiB bound (%s), and used at exactly the bound', async (_how, declared) => {
    const key = makeAgentKey()
    for (const [bodyBytes, verdict] of [
      [DIRECTORY_LIMITS.maxBytes + 1, { verdict: 'unverified', signer: null }],
      [DIRECTORY_LIMITS.maxBytes, { verdict: 'verified', signer: SIGNER }],
    ] as const) {
      const { verifier, directories, directory } = setup([key])
      directory.answer = () => {
        const answer = directoryAnswer([key], 'signer.example', { created: Math.floor(NOW / 1000), bodyBytes })
        expect(Buffer.byteLength(answer.body)).toBe(bodyBytes)
        return declared ? { ...answer, headers: { ...answer.headers, 'content-length': String(bodyBytes) } } : answer
      }
      verifier.check(request(signed(key)))
      await directories.settled()
      expect(verifier.check(request(signed(key)))).toEqual(verdict)
    }
  })

  it.each([
    [null, DIRECTORY_LIMITS.defaultFreshMs],
    ['max-age=600', 600_000],
    ['public, max-age=31536000', DIRECTORY_LIMITS.maxFreshMs],
    ['max-age=0', DIRECTORY_LIMITS.minFreshMs],
    ['no-store', DIRECTORY_LIMITS.minFreshMs],
  ])('Cache-Control %s keeps it fresh %i ms', (cacheControl, expected) => {
    expect(freshnessMs(cacheControl)).toBe(expected)
  })
})

describe('the authority a signature must cover', () => {
  const local = { baseUrl: 'https://agents.example.com', onVercel: false }
  it.each([
    ['agents.example.com', local, 'agents.example.com'],
    ['Agents.Example.com:443', local, 'agents.example.com'],
    ['other.example', local, null],
    ['127.0.0.1:3000', local, null],
    ['cadence-git-x.vercel.app', { ...local, onVercel: true }, 'cadence-git-x.vercel.app'],
  ])('Host %s is %s', (host, config, expected) => {
    expect(siteAuthority(host, config)).toBe(expected)
  })
})
