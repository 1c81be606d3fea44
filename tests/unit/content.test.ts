/**
 * The marketing team's content: every real file validates, and a wrong edit fails with the file,
 * the field and what is expected — in the loader, and in `npm run build`'s content check.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ContentError, fillTemplate, loadContent, parseContentFile } from '../../lib/content/load.ts'
import { PricingFrontmatterSchema, ResourceFrontmatterSchema } from '../../lib/content/frontmatter.ts'
import { projectRoot } from '../support/paths.ts'
import { isolatedEnv } from '../support/site-server.ts'

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
    ['content/pages/pricing.md', (s: string) => s.replace('priceMonthlyUsd: 12', 'priceMonthlyUsd: twelve'), 'content/pages/pricing.md: invalid frontmatter\n  plans.1.priceMonthlyUsd: Invalid input: expected number, received string'],
    ['content/pages/pricing.md', (s: string) => s.replace('    cta: contact\n', '    cta: call-us\n'), 'content/pages/pricing.md: invalid frontmatter\n  plans.2.cta: Invalid option: expected one of "signup"|"contact"'],
    ['content/pages/contact.md', (s: string) => s.replace('email: hello@cadence.example', 'email: hello'), 'content/pages/contact.md: invalid frontmatter\n  email: Invalid email address'],
    ['content/resources/agent-boundaries.md', (s: string) => s.replace('id: agent-boundaries', 'id: product-overview'), 'content/resources/agent-boundaries.md: id: expected "agent-boundaries" (the file name), got "product-overview"'],
    ['content/home.md', (s: string) => s.replace(/^tagline: .*\n/m, ''), 'content/home.md: invalid frontmatter\n  tagline: Invalid input: expected string, received undefined'],
    ['content/home.md', (s: string) => s.replace(/^title: /m, 'titel: '), 'content/home.md: invalid frontmatter\n  title: Invalid input: expected string, received undefined\n  (frontmatter): Unrecognized key: "titel"'],
    ['content/developers.md', (s: string) => s.replace('{{base_url}}/openapi.json', '{{baseurl}}/openapi.json'), 'content/developers.md: line 12: unknown placeholder "{{baseurl}}"; expected one of {{base_url}}, {{app_url}}, {{service}}, {{contract_version}}, {{mcp_protocol_version}}'],
    ['content/pages/login.md', (s: string) => s.replace(/^---\n/, ''), 'content/pages/login.md: frontmatter: expected the file to start with a "---" line, YAML fields, and a closing "---" line'],
    ['content/pages/login.md', (s: string) => s.replace('title: Log in', 'title: [Log in'), 'content/pages/login.md: frontmatter: expected valid YAML (line 3)'],
  ])('a wrong edit of %s names the file, the field and what is expected', (file, change, message) => {
    const root = copyOfContent()
    edit(root, file, change)
    expect(() => loadContent(root)).toThrow(ContentError)
    expect(() => loadContent(root)).toThrow(message)
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
    expect(result.stderr).toContain('Content error — fix this file and build again:\ncontent/pages/pricing.md: invalid frontmatter\n  plans.0.priceMonthlyUsd: Too small: expected number to be >=0')
  })

  it('parses frontmatter strictly and keeps the body', () => {
    const file = parseContentFile('x.md', '---\nid: agent-boundaries\nname: N\ndescription: D\n---\n# Body\n', ResourceFrontmatterSchema)
    expect(file).toEqual({ file: 'x.md', data: { id: 'agent-boundaries', name: 'N', description: 'D' }, body: '# Body\n' })
    expect(() => parseContentFile('x.md', '---\nid: agent-boundaries\nname: N\ndescription: D\n---\n   \n', ResourceFrontmatterSchema)).toThrow('x.md: body: expected non-empty Markdown after the frontmatter')
  })

  it('rejects duplicate plan ids', () => {
    const plan = { id: 'a', name: 'A', priceMonthlyUsd: 0, priceNote: 'n', summary: 's', features: ['f'], cta: 'signup', ctaLabel: 'Go' }
    expect(PricingFrontmatterSchema.safeParse({ title: 't', description: 'd', plans: [plan, plan] }).error?.issues[0]?.message).toBe('plan ids must be unique')
  })

  it('fills placeholders', () => {
    expect(fillTemplate('{{base_url}}/x {{ service }}', { base_url: 'https://a', app_url: 'https://b', service: 's', contract_version: 'c', mcp_protocol_version: 'm' })).toBe('https://a/x s')
  })
})
