/**
 * The marketing team's content: every real file validates, and a wrong edit fails with the file,
 * the field and what is expected — in the loader, and in `npm run build`'s content check.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadContent, parseContentFile } from '../../lib/content/parse.ts'
import { ContentError, fillTemplate } from '../../lib/content/site-content.ts'
import { PricingFrontmatterSchema, ResourceFrontmatterSchema } from '../../lib/content/frontmatter.ts'
import { CONTRACT_TEMPLATE_VALUES } from '../../lib/content/contract-values.ts'
import { CONTRACT_PLACEHOLDERS } from '../support/http.ts'
import { projectRoot } from '../../harness/paths.ts'
import { isolatedEnv } from '../../harness/site-server.ts'

function copyOfContent(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'content-'))
  cpSync(path.join(projectRoot, 'content'), path.join(root, 'content'), { recursive: true })
  return root
}

function edit(root: string, file: string, change: (source: string) => string): void {
  const target = path.join(root, file)
  writeFileSync(target, change(readFileSync(target, 'utf8')))
}

describe('content/', () => {
  it('every file of the repository validates', () => {
    const content = loadContent(projectRoot)
    expect(Object.keys(content.resources)).toEqual(['product-overview', 'developer-resources', 'agent-boundaries'])
    expect(content.pricing.data.plans.map((plan) => plan.id)).toEqual(['personal', 'team', 'programme'])
  })

  it.each([
    [
      'content/pages/pricing.md',
      (s: string) => s.replace('priceMonthlyUsd: 12', 'priceMonthlyUsd: twelve'),
      'content/pages/pricing.md:21: plan "Team" › priceMonthlyUsd: expected a number, got "twelve"',
    ],
    [
      'content/pages/pricing.md',
      (s: string) => s.replace('    cta: contact\n', '    cta: call-us\n'),
      'content/pages/pricing.md:39: plan "Programme" › cta: expected one of signup, contact, got "call-us"',
    ],
    [
      'content/pages/pricing.md',
      (s: string) => s.replace('    name: Team\n', ''),
      'content/pages/pricing.md:19: plan "team" › name: missing; expected text',
    ],
    [
      'content/pages/pricing.md',
      (s: string) => s.replace('id: programme', 'id: team'),
      'content/pages/pricing.md:30: plan "Programme" › id: "team" is already the id of another plan; plan ids must be unique',
    ],
    [
      'content/pages/pricing.md',
      (s: string) => s.replace('      - Unlimited goals', `      - ${'x'.repeat(130)}`),
      'content/pages/pricing.md:25: plan "Team" › feature 1: at most 120 characters (this has 130)',
    ],
    [
      'content/pages/pricing.md',
      (s: string) => s.replace('    ctaLabel: Start a team\n', '    ctaLabel: Start a team\n    colour: blue\n'),
      'content/pages/pricing.md:30: plan "Team" › colour: unknown field; expected one of id, name, priceMonthlyUsd, priceNote, summary, features, cta, ctaLabel',
    ],
    [
      'content/pages/pricing.md',
      (s: string) => s.replace('    cta: contact', '   cta: contact'),
      'content/pages/pricing.md:39: invalid YAML: Sequence item without - indicator',
    ],
    [
      'content/pages/contact.md',
      (s: string) => s.replace('email: hello@cadence.example', 'email: hello'),
      'content/pages/contact.md:7: email: expected an email address, got "hello"',
    ],
    [
      'content/pages/contact.md',
      (s: string) => s.replace(/^updated: .*$/m, 'updated: 2026-02-30'),
      'content/pages/contact.md:6: updated: expected a real calendar date, got "2026-02-30"',
    ],
    [
      'content/pages/contact.md',
      (s: string) => s.replace(/^updated: .*$/m, 'updated: 24 November 2026'),
      'content/pages/contact.md:6: updated: expected a date written YYYY-MM-DD, e.g. 2026-11-24, got "24 November 2026"',
    ],
    [
      'content/pages/contact.md',
      (s: string) => s.replace(/^updated: .*$/m, 'updated: 2999-01-01'),
      'content/pages/contact.md:6: updated: expected a date no later than today (the day the text last changed), got "2999-01-01"',
    ],
    [
      'content/pages/contact.md',
      (s: string) => s.replace('value: 11-50', 'value: Eleven to fifty'),
      'content/pages/contact.md:35: salesForm › fields › teamSize › choice 2 › value: expected lower-case letters, digits, "-" and "+", such as "11-50", got "Eleven to fifty"',
    ],
    [
      'content/pages/contact.md',
      (s: string) => s.replace('value: security', 'value: programme'),
      'content/pages/contact.md:51: salesForm › fields › topic › choice 3 › value: "programme" is already the value of another choice',
    ],
    [
      'content/pages/contact.md',
      (s: string) => s.replace('      label: What do you want to achieve?\n', ''),
      'content/pages/contact.md:41: salesForm › fields › goal › label: missing; expected text',
    ],
    ['content/pages/login.md', (s: string) => s.replace(/^updated: .*\n/m, ''), 'content/pages/login.md: updated: missing; expected text'],
    [
      'content/resources/agent-boundaries.md',
      (s: string) => s.replace('id: agent-boundaries', 'id: product-overview'),
      'content/resources/agent-boundaries.md:2: id: expected "agent-boundaries" (the file name), got "product-overview"',
    ],
    ['content/home.md', (s: string) => s.replace(/^tagline: .*\n/m, ''), 'content/home.md: tagline: missing; expected text'],
    [
      'content/home.md',
      (s: string) => s.replace(/^title: /m, 'titel: '),
      'content/home.md: title: missing; expected text\ncontent/home.md:2: titel: unknown field; expected one of title, description, updated, tagline, startLabel, pricingLabel, loop',
    ],
    [
      'content/developers.md',
      (s: string) => s.replace('{{base_url}}/openapi.json', '{{baseurl}}/openapi.json'),
      `content/developers.md:15: unknown placeholder "{{baseurl}}"; expected one of {{base_url}}, {{app_url}}, {{service}}, ${Object.keys(
        CONTRACT_PLACEHOLDERS,
      )
        .map((name) => `{{${name}}}`)
        .join(', ')}`,
    ],
    // A contract number written by hand where the contract has another is an error at its line.
    [
      'content/resources/agent-boundaries.md',
      (s: string) => s.replace('{{quota_capacity}} requests at once', '100 requests at once'),
      'content/resources/agent-boundaries.md:51: "100 requests at once" says 100 where the contract has 150; write {{quota_capacity}}',
    ],
    [
      'content/developers.md',
      (s: string) => s.replace('`RateLimit-Policy: {{quota_policy}}`', '`RateLimit-Policy: "public-agent-rest";q=100;w=60`'),
      'content/developers.md:111: "RateLimit-Policy: "public-agent-rest";q=100;w=60" says "public-agent-rest";q=100;w=60 where the contract has "public-agent-rest";q=120;w=60;burst=30; write {{quota_policy}}',
    ],
    [
      'content/developers.md',
      (s: string) => s.replace('{{mcp_code_rate_limited}}', '-31430'),
      'content/developers.md:78: -31430 is not an error code of this server; write one of -31000, -31405, -31413, -31415, -31429, -31503 by its placeholder',
    ],
    [
      'content/resources/developer-resources.md',
      (s: string) => s.replace('{{mcp_legacy_protocol_versions}}', '`2025-11-25` and `2024-11-05`'),
      'content/resources/developer-resources.md:39: `2024-11-05` is neither the contract version nor an MCP protocol version; write {{contract_version}} or {{mcp_protocol_version}}',
    ],
    [
      'content/developers.md',
      (s: string) => s.replace('refilled at\n{{quota_refill_per_second}} per second', 'refilled at\n3 per second'),
      'content/developers.md:107: "3 per second" says 3 where the contract has 2; write {{quota_refill_per_second}}',
    ],
    // A contract name written by hand (a tool, an API path, an operation id beside its request) must be the contract's.
    [
      'content/developers.md',
      (s: string) => s.replace('`{{service}}.list_public_resources` (no arguments)', '`{{service}}.list_resources` (no arguments)'),
      'content/developers.md:60: {{service}}.list_resources is not a tool of this server; its tools are get_public_capabilities, list_public_resources, read_public_resource',
    ],
    [
      'content/resources/developer-resources.md',
      (s: string) => s.replace('{{base_url}}/api/agent/v1/capabilities', '{{base_url}}/api/agent/v1/capability'),
      'content/resources/developer-resources.md:18: /api/agent/v1/capability is not a path of the agent API; its operations are /api/agent/v1/health, /api/agent/v1/capabilities, /api/agent/v1/resources, /api/agent/v1/resources/{resourceId}',
    ],
    [
      'content/developers.md',
      (s: string) => s.replace('| `getAgentHealth` |', '| `getHealth` |'),
      'content/developers.md:35: the operation at GET /api/agent/v1/health is getAgentHealth, not getHealth',
    ],
    [
      'content/pages/login.md',
      (s: string) => s.replace(/^---\n/, ''),
      'content/pages/login.md:1: expected the file to start with a "---" line, YAML fields, and a closing "---" line',
    ],
    // The parser notices an unclosed bracket or quote a line later; the error names the line it opened on.
    [
      'content/pages/login.md',
      (s: string) => s.replace('title: Log in', 'title: [Log in'),
      'content/pages/login.md:2: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ],
    [
      'content/pages/login.md',
      (s: string) => s.replace('title: Log in', 'title: "Log in'),
      'content/pages/login.md:2: invalid YAML: Missing closing "quote',
    ],
  ])('a wrong edit of %s names the file, the line, the field and what is expected', (file, change, message) => {
    const root = copyOfContent()
    edit(root, file, change)
    expect(() => loadContent(root)).toThrow(ContentError)
    let thrown: unknown
    try {
      loadContent(root)
    } catch (error) {
      thrown = error
    }
    expect((thrown as Error).message).toBe(message)
  })

  it('a missing resource file is named', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'content-'))
    expect(() => loadContent(root)).toThrow('content/resources/product-overview.md: file is missing; expected a Markdown file with frontmatter')
  })

  it('`npm run build` stops on a wrong edit before Next builds anything', () => {
    const root = copyOfContent()
    edit(root, 'content/pages/pricing.md', (s) => s.replace('priceMonthlyUsd: 0', 'priceMonthlyUsd: -5'))
    const result = spawnSync(process.execPath, [path.join(projectRoot, 'scripts/prebuild.ts')], { cwd: root, encoding: 'utf8', env: isolatedEnv() })
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(
      'Content error — fix this file and build again:\ncontent/pages/pricing.md:10: plan "Personal" › priceMonthlyUsd: expected a number ≥ 0, got -5\n',
    )
  })

  it('parses frontmatter strictly and keeps the body', () => {
    const file = parseContentFile('x.md', '---\nid: agent-boundaries\nname: N\ndescription: D\n---\n# Body\n', ResourceFrontmatterSchema)
    expect(file).toEqual({ file: 'x.md', data: { id: 'agent-boundaries', name: 'N', description: 'D' }, body: '# Body\n' })
    expect(() => parseContentFile('x.md', '---\nid: agent-boundaries\nname: N\ndescription: D\n---\n   \n', ResourceFrontmatterSchema)).toThrow(
      'x.md:6: expected Markdown text after the closing "---" line',
    )
  })

  it('rejects duplicate plan ids at the second plan', () => {
    const plan = { id: 'a', name: 'A', priceMonthlyUsd: 0, priceNote: 'n', summary: 's', features: ['f'], cta: 'signup', ctaLabel: 'Go' }
    const issue = PricingFrontmatterSchema.safeParse({ title: 't', description: 'd', updated: '2026-11-21', plans: [plan, plan] }).error?.issues[0]
    expect(issue?.path).toEqual(['plans', 1, 'id'])
    expect(issue?.message).toBe('"a" is already the id of another plan; plan ids must be unique')
  })

  it('fills placeholders', () => {
    const values = { base_url: 'https://a', app_url: 'https://b', service: 's', ...CONTRACT_TEMPLATE_VALUES }
    expect(fillTemplate('{{base_url}}/x {{ service }} {{quota_capacity}}', values)).toBe('https://a/x s 150')
  })

  it('every contract placeholder holds the figure the contract states', () => {
    expect(CONTRACT_TEMPLATE_VALUES).toEqual(CONTRACT_PLACEHOLDERS)
  })

  it('the repository content states no contract number by hand', () => {
    const bodies = [
      'content/developers.md',
      'content/home.md',
      ...['product-overview', 'developer-resources', 'agent-boundaries'].map((id) => `content/resources/${id}.md`),
    ]
    for (const file of bodies) {
      const source = readFileSync(path.join(projectRoot, file), 'utf8')
      expect(source, file).not.toMatch(/(?<![\w{-])(?:-31\d{3}|150|120|270|3600000|300000)(?![\w}])|`20\d\d-\d\d-\d\d`/)
    }
  })
})
