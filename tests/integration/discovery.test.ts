/**
 * The discovery documents as served: media types, caching, CORS, ETag revalidation and exact bodies,
 * plus the OpenAPI description linted by Redocly and Spectral with zero errors.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expectedMarkdown, readJson } from '../support/http.ts'
import { McpRegistryServerSchema } from '../support/mcp-registry.ts'
import { postLegacy, postModern } from '../support/mcp-http.ts'
import { projectRoot } from '../../harness/paths.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

const BASE = 'https://agents.example.com'
let site: RunningSite

beforeAll(async () => {
  site = await startSite()
})
afterAll(async () => {
  await site?.stop()
})

const DOCUMENTS = [
  ['/openapi.json', 'application/vnd.oai.openapi+json'],
  ['/llms.txt', 'text/plain; charset=utf-8'],
  ['/sitemap.xml', 'application/xml; charset=utf-8'],
  ['/sitemap.md', 'text/markdown; charset=utf-8'],
  ['/robots.txt', 'text/plain; charset=utf-8'],
  ['/.well-known/mcp.json', 'application/json'],
  ['/.well-known/mcp/server-card.json', 'application/json'],
  ['/mcp/server-card', 'application/mcp-server-card+json'],
  ['/mcp.json', 'application/json'],
  ['/.well-known/oauth-protected-resource', 'application/json'],
  ['/problems/agent_resource_not_found', 'text/markdown; charset=utf-8'],
  ['/llms-full.txt', 'text/plain; charset=utf-8'],
  ['/mcp/server.json', 'application/json'],
  ['/.well-known/ai-catalog.json', 'application/ai-catalog+json'],
  ['/.well-known/ard.json', 'application/ai-catalog+json'],
  ['/.well-known/api-catalog', 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'],
  ['/.well-known/agent-skills/index.json', 'application/json'],
  ['/.well-known/agent-skills/cadence-public-api/SKILL.md', 'text/markdown; charset=utf-8'],
  ['/.well-known/security.txt', 'text/plain; charset=utf-8'],
] as const

describe('every discovery document', () => {
  for (const [documentPath, contentType] of DOCUMENTS) {
    it(`${documentPath} is public, cacheable and revalidates with its ETag`, async () => {
      const response = await site.fetch(documentPath)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(contentType)
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600, s-maxage=86400')
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-expose-headers')).toContain('ETag')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.has('ratelimit-limit')).toBe(false)
      expect(response.headers.has('x-robots-tag')).toBe(false)
      const etag = response.headers.get('etag')
      expect(etag).toMatch(/^W\/"[\w-]{27}"$/)
      expect((await response.text()).length).toBeGreaterThan(0)

      const revalidated = await site.fetch(documentPath, { headers: { 'If-None-Match': etag ?? '' } })
      expect(revalidated.status).toBe(304)
      expect(await revalidated.text()).toBe('')

      const head = await site.fetch(documentPath, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.headers.get('etag')).toBe(etag)
      expect(await head.text()).toBe('')
    })
  }

  it('an unknown problem type is 404', async () => {
    expect((await site.fetch('/problems/nope')).status).toBe(404)
  })

  it.each(DOCUMENTS.map(([documentPath]) => documentPath))("%s answers a browser's CORS preflight for a conditional GET", async (documentPath) => {
    const response = await site.fetch(documentPath, {
      method: 'OPTIONS',
      headers: { origin: 'https://console.example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD')
    expect(response.headers.get('access-control-allow-headers')).toBe('*')
    expect(response.headers.get('access-control-max-age')).toBe('86400')
  })
})

describe('/robots.txt', () => {
  it('allows everything the sitemap lists, states the content signals and names the sitemap, with only RFC 9309 records and Content-Signal', async () => {
    expect(await (await site.fetch('/robots.txt')).text()).toBe(
      `User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\nDisallow: /keystatic\nDisallow: /api/keystatic\n\nSitemap: ${BASE}/sitemap.xml\n`,
    )
  })
})

describe('/.well-known/security.txt', () => {
  it('names the contact address and expires within a year of the build (RFC 9116)', async () => {
    const text = await (await site.fetch('/.well-known/security.txt')).text()
    const expires = /^Expires: (\d{4}-\d\d-\d\dT00:00:00Z)$/m.exec(text)?.[1] ?? ''
    expect(text).toBe(
      `Contact: mailto:hello@cadence.example\nExpires: ${expires}\nPreferred-Languages: en\nCanonical: ${BASE}/.well-known/security.txt\nPolicy: ${BASE}/contact\n`,
    )
    const days = (Date.parse(expires) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(150)
    expect(days).toBeLessThanOrEqual(180)
  })
})

describe('/sitemap.xml', () => {
  it('lists the pages with absolute URLs and the day each page last changed', async () => {
    const body = await (await site.fetch('/sitemap.xml')).text()
    expect(body).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        `  <url><loc>${BASE}/</loc><lastmod>2026-11-24</lastmod></url>`,
        `  <url><loc>${BASE}/pricing</loc><lastmod>2026-11-21</lastmod></url>`,
        `  <url><loc>${BASE}/contact</loc><lastmod>2026-11-28</lastmod></url>`,
        `  <url><loc>${BASE}/login</loc><lastmod>2026-11-21</lastmod></url>`,
        `  <url><loc>${BASE}/developers</loc><lastmod>2026-11-24</lastmod></url>`,
        '</urlset>',
        '',
      ].join('\n'),
    )
  })
})

describe('/sitemap.md', () => {
  it('lists every page with its Markdown and date, every document with its media type, the API and the problem pages, under frontmatter', async () => {
    const body = await (await site.fetch('/sitemap.md')).text()
    expect(
      body.startsWith(
        '---\ntitle: Cadence sitemap\n' +
          `description: "Every page and document of ${BASE}/ for AI agents: the pages with their Markdown, the discovery documents, the API."\n` +
          `canonical_url: ${BASE}/sitemap.md\nlast_updated: 2026-11-28\n---\n# Cadence sitemap\n`,
      ),
    ).toBe(true)
    expect(body).toContain(
      `- [Pricing](${BASE}/pricing) ([Markdown](${BASE}/pricing.md)), updated 2026-11-21: Cadence is free for individuals. Teams and mentoring programmes pay per active member.`,
    )
    expect(body).toContain(`- [OpenAPI 3.1.1 description](${BASE}/openapi.json) (application/vnd.oai.openapi+json): REST operations, schemas, errors`)
    expect(body).toContain(`- [Too many requests](${BASE}/problems/rate_limit_exceeded) (text/markdown; charset=utf-8): \`rate_limit_exceeded\``)
    const linked = new Set([...body.matchAll(/\]\((https:\/\/agents\.example\.com[^)]*)\)/g)].map((match) => new URL(match[1] ?? '').pathname))
    // Every page, twin and document the site serves is listed, and every listed URL answers.
    for (const path of [...DOCUMENTS.map(([documentPath]) => documentPath), '/', '/index.md', '/developers', '/developers.md'].filter(
      (documentPath) => !documentPath.startsWith('/problems/'),
    )) {
      expect(linked.has(path), path).toBe(true)
    }
    for (const path of linked) {
      const response = await site.fetch(path, path === '/mcp' ? { method: 'POST', body: '{}' } : undefined)
      expect(response.status === 200 || path === '/mcp', path).toBe(true)
      await response.arrayBuffer()
    }
  })
})

describe('/llms.txt', () => {
  it('follows the llms.txt structure: H1, summary blockquote, instructions for agents, then lists: Markdown links, and JSON documents by media type and URL', async () => {
    const lines = (await (await site.fetch('/llms.txt')).text()).split('\n')
    expect(lines[0]).toBe('# Cadence')
    expect(lines[2]).toBe(
      '> Cadence turns an ambitious goal into a weekly plan, keeps you moving with short check-ins, and brings a mentor in the moment you are stuck.',
    )
    const firstH2 = lines.findIndex((line) => line.startsWith('## '))
    expect(lines.slice(1, firstH2).some((line) => line.startsWith('#'))).toBe(false)
    expect(lines.filter((line) => line.startsWith('## '))).toEqual([
      '## Instructions for agents',
      '## Pages',
      '## Docs',
      '## API',
      '## Resources',
      '## MCP',
      '## Discovery',
      '## Optional',
    ])
    // Every entry is a Markdown link, or a JSON document named with its media type and its URL in code.
    const lists = lines.slice(lines.indexOf('## Pages'))
    for (const line of lists.filter((l) => l.startsWith('- '))) {
      expect(line).toMatch(
        /^- (\[[^\]]+\]\(https:\/\/agents\.example\.com\/[^)]*\): .+|[^[`]+ \(application\/[^)]+\) at `https:\/\/agents\.example\.com\/[^`]+`: .+)$/,
      )
    }
    const instructions = lines.slice(lines.indexOf('## Instructions for agents'), lines.indexOf('## Pages')).join('\n')
    expect(instructions).toContain('150 requests at once per client IP, refilled at\n  2 per second')
    expect(instructions).toContain(`connect an MCP client to ${BASE}/mcp`)
    expect(instructions).toContain('Not available: accounts, sign-in, writes')
    expect(lines).toEqual(
      expect.arrayContaining([
        `- [Home](${BASE}/index.md): Markdown of ${BASE}/`,
        `- [Pricing](${BASE}/pricing.md): Markdown of ${BASE}/pricing`,
        `- [Contact](${BASE}/contact.md): Markdown of ${BASE}/contact`,
        `- [Log in](${BASE}/login.md): Markdown of ${BASE}/login`,
        `- [Developers](${BASE}/developers.md): Markdown of ${BASE}/developers`,
        `- [Sitemap](${BASE}/sitemap.md): every page and document of this site`,
        `- OpenAPI 3.1.1 description (application/vnd.oai.openapi+json) at \`${BASE}/openapi.json\`: REST operations, schemas, errors`,
        `- MCP manifest (application/json) at \`${BASE}/.well-known/mcp.json\`: server card plus capabilities`,
        `- [Everything in one file](${BASE}/llms-full.txt): every page, the developer index and the resources as Markdown`,
      ]),
    )
  })

  it('every link resolves on the site itself to Markdown (or llms-full.txt), every listed JSON document to its media type', async () => {
    const body = await (await site.fetch('/llms.txt')).text()
    const links = [...body.matchAll(/\]\((https:\/\/agents\.example\.com[^)]*)\)/g)].map((match) => match[1] ?? '')
    expect(links.length).toBe(8)
    for (const url of links) {
      const response = await site.fetch(new URL(url).pathname)
      expect(response.status, url).toBe(200)
      expect(response.headers.get('content-type'), url).toBe(
        url.endsWith('/llms-full.txt') ? 'text/plain; charset=utf-8' : 'text/markdown; charset=utf-8',
      )
    }
    const listed = [...body.matchAll(/^- [^[`]+ \(([^)]+)\) at `(https:\/\/agents\.example\.com[^`]+)`/gm)]
    expect(listed.length).toBe(15)
    for (const [, contentType, url] of listed) {
      const response = await site.fetch(new URL(url ?? '').pathname)
      expect(response.status, url).toBe(200)
      expect(response.headers.get('content-type'), url).toBe(contentType?.replace(/, the Markdown in `content`$/, ''))
      await response.arrayBuffer()
    }
  })
})

describe('/llms-full.txt', () => {
  it("holds every page's Markdown, the developer index and the three resources, each under its URL", async () => {
    const body = await (await site.fetch('/llms-full.txt')).text()
    expect(body.startsWith('# Cadence: the public corpus\n\n> Every page of')).toBe(true)
    const sources = [...body.matchAll(/^---\n\nSource: (\S+)\n/gm)].map((match) => match[1])
    expect(sources).toEqual([
      `${BASE}/`,
      `${BASE}/pricing`,
      `${BASE}/contact`,
      `${BASE}/login`,
      `${BASE}/developers`,
      `${BASE}/api/agent/v1/resources/product-overview`,
      `${BASE}/api/agent/v1/resources/developer-resources`,
      `${BASE}/api/agent/v1/resources/agent-boundaries`,
    ])
    const developers = await (await site.fetch('/developers.md')).text()
    expect(body).toContain(developers.slice(developers.indexOf('# Cadence developer index')).trim())
    const pricing = await (await site.fetch('/pricing.md')).text()
    expect(body).toContain(pricing.slice(pricing.indexOf('# Pricing')).trim())
    expect(body).not.toContain('\ntitle: ')
  })
})

describe('/developers.md', () => {
  it('is the developer index page as Markdown: frontmatter with its canonical URL and date, then content/developers.md with the base URL and the contract figures filled in', async () => {
    const body = await (await site.fetch('/developers.md')).text()
    const expected = await expectedMarkdown('content/developers.md', { base_url: BASE, service: 'service' })
    const sectionsAt = expected.search(/^## /m)
    const [intro, sections] = [expected.slice(0, sectionsAt).trimEnd(), expected.slice(sectionsAt).trimEnd()]
    const index =
      '---\ntitle: Cadence developer index\ndescription: Entry points, protocols, errors, limits and policies of the Cadence public agent API (REST and MCP).\n' +
      `canonical_url: ${BASE}/developers\nlast_updated: 2026-11-24\n---\n` +
      `> This is the Markdown version of ${BASE}/developers. For the index of this site for AI agents, read ${BASE}/llms.txt; every page and document: ${BASE}/sitemap.md.\n\n${intro}`
    expect(body.slice(0, index.length)).toBe(index)
    // After the introduction, as on the page, the editors' install links; then the content's sections, then the page's WebMCP tools.
    const install =
      /^\n\n## Install in an editor\n\n- \[Add to Cursor\]\(cursor:\/\/anysphere\.cursor-deeplink\/mcp\/install\?name=cadence-public&config=[^)]+\)\n- \[Add to VS Code\]\(vscode:mcp\/install\?[^)]+\)\n\n/
    const rest = body.slice(index.length)
    expect(rest).toMatch(install)
    const afterInstall = rest.replace(install, '')
    expect(afterInstall.slice(0, sections.length)).toBe(sections)
    expect(afterInstall.slice(sections.length)).toMatch(/^\n\n## WebMCP tools on this page\n\n[^#]+$/)
    for (const anchor of ['## Versioning', '## Authentication', '## Rate limits', '## Agent boundaries', '## MCP']) expect(body).toContain(anchor)
  })
})

describe('MCP discovery documents', () => {
  const card = {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: 'com.example.agents/cadence',
    version: '2026-08-25',
    title: 'Cadence',
    description: 'Read-only Cadence product, developer and agent-integration metadata. No auth.',
    websiteUrl: `${BASE}/`,
    remotes: [{ type: 'streamable-http', url: `${BASE}/mcp`, supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] }],
    _meta: { 'com.example.agents/access': { authenticationRequired: false, writesSupported: false } },
  }

  it('the server card follows SEP-2127, at the well-known path and at the MCP URL with its own media type', async () => {
    expect(await readJson(await site.fetch('/.well-known/mcp/server-card.json'))).toEqual(card)
    expect(card.description.length).toBeLessThanOrEqual(100)
    const atEndpoint = await site.fetch('/mcp/server-card', { headers: { Accept: 'application/mcp-server-card+json' } })
    expect(atEndpoint.headers.get('content-type')).toBe('application/mcp-server-card+json')
    expect(await readJson(atEndpoint)).toEqual(card)
  })

  it('the manifest is the card plus the keys older crawlers read', async () => {
    expect(await readJson(await site.fetch('/.well-known/mcp.json'))).toEqual({
      ...card,
      protocolVersion: '2026-07-28',
      serverInfo: { name: card.name, title: card.title, version: card.version },
      transport: { type: 'streamable-http', endpoint: `${BASE}/mcp` },
      capabilities: { resources: {}, tools: {} },
      documentationUrl: `${BASE}/developers.md`,
    })
  })

  it('/mcp.json pastes into mcpServers and servers client configurations', async () => {
    const server = { type: 'http', url: `${BASE}/mcp` }
    expect(await readJson(await site.fetch('/mcp.json'))).toEqual({ mcpServers: { 'cadence-public': server }, servers: { 'cadence-public': server } })
  })

  it('RFC 9728 metadata names the resource and lists no authorization servers and no scopes', async () => {
    expect(await readJson(await site.fetch('/.well-known/oauth-protected-resource'))).toEqual({
      resource: BASE,
      resource_name: 'Cadence Public Agent API',
      authorization_servers: [],
      scopes_supported: [],
      bearer_methods_supported: [],
      resource_documentation: `${BASE}/developers.md`,
      resource_policy_uri: `${BASE}/api/agent/v1/resources/agent-boundaries`,
    })
  })
})

describe('agent discovery documents of 2026', () => {
  const tools = ['service.get_public_capabilities', 'service.list_public_resources', 'service.read_public_resource']
  const skillDescription =
    "Read Cadence's public, read-only agent API (REST and MCP) to answer questions about the product, its plans, its developer resources and its agent boundaries. Use when asked what Cadence is or how to integrate with it."

  it('the AI Catalog lists the MCP server card, the REST API as a nested catalog holding the OpenAPI description, and the skill, under urn:air identifiers, at both well-known names', async () => {
    const catalog = {
      specVersion: '1.0',
      host: { displayName: 'Cadence', documentationUrl: `${BASE}/developers.md` },
      entries: [
        {
          identifier: 'urn:air:com.example.agents:cadence:mcp-server',
          displayName: 'Cadence MCP server',
          type: 'application/mcp-server-card+json',
          url: `${BASE}/mcp/server-card`,
          description: 'Read-only Cadence product, developer and agent-integration metadata. No auth.',
          version: '2026-08-25',
          tags: ['mcp', 'read-only', 'no-auth', 'goal-execution', 'mentoring'],
          capabilities: tools,
          representativeQueries: [
            'What is Cadence and what does it cost?',
            "How do I integrate with Cadence's public API?",
            'What may an AI agent do with Cadence?',
          ],
        },
        {
          identifier: 'urn:air:com.example.agents:cadence:rest-api',
          displayName: 'Cadence Public Agent API',
          type: 'application/ai-catalog+json',
          description: "Read-only REST API with Cadence's capability catalog and public resources, described by OpenAPI 3.1.1.",
          version: '2026-08-25',
          tags: ['rest', 'openapi', 'read-only', 'no-auth'],
          capabilities: ['getAgentHealth', 'getPublicCapabilities', 'listPublicResources', 'getPublicResource'],
          representativeQueries: ['Cadence OpenAPI description', 'Cadence public resources and capabilities over REST'],
          data: {
            specVersion: '1.0',
            entries: [
              {
                identifier: 'urn:air:com.example.agents:cadence:rest-api:openapi',
                displayName: 'Cadence Public Agent API: OpenAPI 3.1.1 description',
                type: 'application/vnd.oai.openapi+json',
                url: `${BASE}/openapi.json`,
                description: 'REST operations, schemas and errors.',
                version: '2026-08-25',
                capabilities: ['getAgentHealth', 'getPublicCapabilities', 'listPublicResources', 'getPublicResource'],
              },
            ],
          },
        },
        {
          identifier: 'urn:air:com.example.agents:cadence:cadence-public-api',
          displayName: "Using Cadence's public agent API",
          type: 'text/markdown; profile="urn:air:agent-skills"',
          url: `${BASE}/.well-known/agent-skills/cadence-public-api/SKILL.md`,
          description: skillDescription,
          tags: ['agent-skill', 'rest', 'mcp'],
          representativeQueries: ["How should an agent call Cadence's API?", 'Cadence API quota and errors'],
        },
      ],
    }
    expect(await readJson(await site.fetch('/.well-known/ai-catalog.json'))).toEqual(catalog)
    expect(await (await site.fetch('/.well-known/ard.json')).text()).toBe(await (await site.fetch('/.well-known/ai-catalog.json')).text())
    // Each entry, nested ones included, resolves to a document of the type it announces.
    const listed: Array<{ url: string; type: string }> = catalog.entries.flatMap((entry) =>
      entry.data ? entry.data.entries : [entry as { url: string; type: string }],
    )
    for (const entry of listed) {
      const response = await site.fetch(new URL(entry.url).pathname)
      expect(response.status, entry.url).toBe(200)
      expect(response.headers.get('content-type'), entry.url).toBe(
        entry.type.startsWith('text/markdown') ? 'text/markdown; charset=utf-8' : entry.type,
      )
    }
  })

  it('the RFC 9727 API catalog links each API to its description, its documentation and its status', async () => {
    expect(await readJson(await site.fetch('/.well-known/api-catalog'))).toEqual({
      linkset: [
        {
          anchor: `${BASE}/api/agent/v1`,
          'service-desc': [{ href: `${BASE}/openapi.json`, type: 'application/vnd.oai.openapi+json' }],
          'service-doc': [
            { href: `${BASE}/developers`, type: 'text/html' },
            { href: `${BASE}/developers.md`, type: 'text/markdown' },
          ],
          status: [{ href: `${BASE}/api/agent/v1/health`, type: 'application/json' }],
        },
        {
          anchor: `${BASE}/mcp`,
          'service-desc': [{ href: `${BASE}/mcp/server-card`, type: 'application/mcp-server-card+json' }],
          'service-doc': [{ href: `${BASE}/developers.md`, type: 'text/markdown' }],
        },
      ],
    })
  })

  it('the Agent Skills index lists the skill with the sha256 digest of the bytes served at its URL', async () => {
    const index = (await readJson(await site.fetch('/.well-known/agent-skills/index.json'))) as { skills: { url: string; digest: string }[] }
    const skill = await (await site.fetch('/.well-known/agent-skills/cadence-public-api/SKILL.md')).arrayBuffer()
    const digest = `sha256:${createHash('sha256').update(Buffer.from(skill)).digest('hex')}`
    expect(index).toEqual({
      $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
      skills: [
        {
          name: 'cadence-public-api',
          type: 'skill-md',
          description: skillDescription,
          url: `${BASE}/.well-known/agent-skills/cadence-public-api/SKILL.md`,
          digest,
        },
      ],
    })
    const text = Buffer.from(skill).toString('utf8')
    expect(text.startsWith(`---\nname: cadence-public-api\ndescription: ${skillDescription}\n---\n# Using Cadence's public agent API\n`)).toBe(true)
    expect(text).toContain('150 requests at once,\nrefilled at 2 per second')
    expect(text).toContain(`\`POST ${BASE}/mcp\`, protocol \`2026-07-28\``)
    expect(text).not.toContain('{{')
  })

  it('server.json is a valid MCP Registry entry for this remote server, named as the card and server/discover name it', async () => {
    const entry = await readJson(await site.fetch('/mcp/server.json'))
    expect(entry).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'com.example.agents/cadence',
      title: 'Cadence',
      description: 'Read-only Cadence product, developer and agent-integration metadata. No auth.',
      version: '2026-08-25',
      websiteUrl: `${BASE}/`,
      remotes: [{ type: 'streamable-http', url: `${BASE}/mcp` }],
    })
    expect(McpRegistryServerSchema.safeParse(entry).error?.issues).toBeUndefined()
    const discovered = (await postModern(site, 'server/discover')).json.result._meta['io.modelcontextprotocol/serverInfo']
    expect(discovered).toEqual({ name: 'com.example.agents/cadence', title: 'Cadence', version: '2026-08-25' })
  })
})

describe('MCP_SERVER_NAME', () => {
  it('names the server in the card, the manifest, server/discover and the legacy initialize alike', { timeout: 240_000 }, async () => {
    // The preview build is made with MCP_SERVER_NAME=io.github.cadence/agents.
    const named = await startSite({}, { build: 'preview' })
    try {
      const identity = { name: 'io.github.cadence/agents', title: 'Cadence', version: '2026-08-25' }
      expect(await readJson(await named.fetch('/.well-known/mcp/server-card.json'))).toMatchObject({
        name: identity.name,
        title: identity.title,
        version: identity.version,
      })
      expect(((await readJson(await named.fetch('/.well-known/mcp.json'))) as { serverInfo: unknown }).serverInfo).toEqual(identity)
      expect((await postModern(named, 'server/discover')).json.result._meta['io.modelcontextprotocol/serverInfo']).toEqual(identity)
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }
      expect((await postLegacy(named, initialize)).json.result.serverInfo).toEqual(identity)
    } finally {
      await named.stop()
    }
  })
})

type OpenApi = {
  openapi: string
  info: { version: string }
  security: unknown[]
  servers: { url: string }[]
  paths: Record<string, { get: { operationId: string; security: unknown[]; responses: Record<string, unknown> } }>
  components: { schemas: Record<string, unknown>; responses: Record<string, { headers?: Record<string, unknown> }> }
  'x-agent-api-authenticated': { status: string }
}

describe('/openapi.json', () => {
  let document: OpenApi
  beforeAll(async () => {
    document = (await readJson(await site.fetch('/openapi.json'))) as OpenApi
  })

  it('is OpenAPI 3.1.1 with document version 2026-08-25, no security anywhere, and the authenticated API not public', () => {
    expect(document.openapi).toBe('3.1.1')
    // No jsonSchemaDialect (3.1's default): validators that copy it into each schema cannot resolve it.
    expect(document).not.toHaveProperty('jsonSchemaDialect')
    expect(JSON.stringify(document)).not.toContain('"additionalProperties":{}')
    expect(document.info.version).toBe('2026-08-25')
    expect(document.security).toEqual([])
    expect(document.servers).toEqual([{ url: BASE, description: expect.any(String) }])
    expect(document).not.toHaveProperty('components.securitySchemes')
    expect(document['x-agent-api-authenticated'].status).toBe('not_public')
    expect(Object.keys(document.paths)).toEqual([
      '/api/agent/v1/health',
      '/api/agent/v1/capabilities',
      '/api/agent/v1/resources',
      '/api/agent/v1/resources/{resourceId}',
    ])
    for (const item of Object.values(document.paths)) {
      expect(item.get.security).toEqual([])
      expect(Object.keys(item.get.responses)).toEqual(expect.arrayContaining(['200', '429', '503']))
    }
    expect(Object.keys(document.paths['/api/agent/v1/resources/{resourceId}']?.get.responses ?? {})).toContain('404')
    expect(Object.keys(document.components.responses.TooManyRequests?.headers ?? {})).toEqual([
      'Retry-After',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'RateLimit-Policy',
      'RateLimit',
      'API-Version',
    ])
    expect(Object.keys(document.components.responses.ServiceUnavailable?.headers ?? {})).toEqual(['Retry-After'])
  })

  it('describes each live REST body: served bodies validate against its component schemas', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema({ $id: 'https://openapi.test/document', components: document.components }, 'document')
    const validatorFor = (id: string) => ajv.compile({ $ref: `https://openapi.test/document#/components/schemas/${id}` })
    const cases: [string, string][] = [
      ['/api/agent/v1/health', 'AgentHealth'],
      ['/api/agent/v1/capabilities', 'AgentCapabilities'],
      ['/api/agent/v1/resources', 'AgentResourceList'],
      ['/api/agent/v1/resources/product-overview', 'AgentResource'],
      ['/api/agent/v1/resources/nope', 'ProblemDetails'],
      ['/api/agent/v1/unknown', 'ProblemDetails'],
    ]
    for (const [livePath, schemaId] of cases) {
      const validate = validatorFor(schemaId)
      const body = await readJson(await site.fetch(livePath))
      expect(validate(body), `${livePath}: ${JSON.stringify(validate.errors)}`).toBe(true)
    }
    // And the schemas are strict where the contract is: an extra property is rejected.
    const health = (await readJson(await site.fetch('/api/agent/v1/health'))) as object
    expect(validatorFor('AgentHealth')({ ...health, extra: 1 })).toBe(false)
  })

  it('passes Redocly and Spectral (oas ruleset) with zero errors', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'openapi-'))
    const file = path.join(directory, 'openapi.json')
    writeFileSync(file, JSON.stringify(document))
    writeFileSync(path.join(directory, '.spectral.yaml'), 'extends: ["spectral:oas"]\n')
    const bin = (name: string) => path.join(projectRoot, 'node_modules', '.bin', name)
    const redocly = spawnSync(bin('redocly'), ['lint', '--format', 'json', file], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    })
    const redoclyReport = JSON.parse(redocly.stdout) as { totals: { errors: number } }
    expect(redoclyReport.totals.errors, redocly.stdout).toBe(0)
    const report = path.join(directory, 'spectral.json')
    const spectral = spawnSync(
      bin('spectral'),
      ['lint', '--format', 'json', '--output', report, '--ruleset', path.join(directory, '.spectral.yaml'), file],
      { encoding: 'utf8' },
    )
    expect(spectral.status, spectral.stdout + spectral.stderr).toBe(0)
    const spectralResults = JSON.parse(readFileSync(report, 'utf8')) as { severity: number; message: string }[]
    expect(
      spectralResults.filter((result) => result.severity === 0),
      spectral.stdout,
    ).toEqual([])
  })
})
