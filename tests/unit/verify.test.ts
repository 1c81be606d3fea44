/**
 * The parts of `npm run verify` that read HTTP as a CDN may reshape it (Cache-Control without
 * s-maxage, robots.txt groups, the homepage's Link header), and the workflow that runs it on every
 * Vercel deployment. The checks against real servers are tests/integration/verify.test.ts.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { CACHE_CONTROL } from '../../lib/http/headers.ts'
import { pageLinkHeader } from '../../lib/pages/page-headers.ts'
import { buildSiteUrls } from '../../lib/routes/site-urls.ts'
import { canonicalOrigin, disallowsEverything } from '../../scripts/verify/checks.ts'
import type { Fetched } from '../../scripts/verify/client.ts'
import { Findings } from '../../scripts/verify/expect.ts'
import { projectRoot } from '../../harness/paths.ts'

function answer(headers: Record<string, string>): Fetched {
  return { method: 'GET', path: '/', status: 200, headers: new Headers(headers), text: '', answered: true, spentQuota: false }
}

describe('verify: Cache-Control as a client sees it', () => {
  it.each([
    ['public, max-age=3600, s-maxage=86400', true],
    ['max-age=3600,public', true],
    // Vercel's CDN consumes s-maxage and passes the rest on.
    ['public, max-age=3600', true],
    ['public, max-age=3600, s-maxage=60', false],
    ['public, max-age=60, s-maxage=86400', false],
    ['private, no-store', false],
  ])('%j against the documents policy: %s', (value, passes) => {
    const findings = new Findings()
    expect(findings.cacheControl(answer({ 'cache-control': value }), CACHE_CONTROL.document)).toBe(passes)
    expect(findings.problems).toEqual(passes ? [] : [`Cache-Control: ${JSON.stringify(value)}, expected "${CACHE_CONTROL.document}"`])
  })

  it('an absent Cache-Control fails', () => {
    const findings = new Findings()
    expect(findings.cacheControl(answer({}), CACHE_CONTROL.api)).toBe(false)
    expect(findings.problems).toEqual(['Cache-Control: absent, expected "no-store"'])
  })
})

describe('verify: robots.txt disallowing everything', () => {
  it.each([
    ['# Preview deployment: not for indexing.\nUser-agent: *\nDisallow: /\n', true],
    ['User-agent: GPTBot\nUser-agent: *\nDisallow: /\n', true],
    ['User-agent: *\r\nDisallow: /   # all\r\n', true],
    ['User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n', false],
    ['User-agent: *\nDisallow: /private\n', false],
    ['User-agent: *\nAllow: /\nSitemap: https://agents.example.com/sitemap.xml\n', false],
  ])('%j: %s', (robots, expected) => {
    expect(disallowsEverything(robots)).toBe(expected)
  })
})

describe('verify --origin announced', () => {
  it("reads the origin from the homepage's own Link header (lib/pages/page-headers.ts)", () => {
    const link = pageLinkHeader(buildSiteUrls('https://cadence-git-feature.vercel.app'), 'home')
    expect(canonicalOrigin(answer({ link }))).toBe('https://cadence-git-feature.vercel.app')
  })

  it('finds none without a canonical relation or with a non-http one', () => {
    expect(canonicalOrigin(answer({ link: '<https://a.example/llms.txt>; rel="describedby"' }))).toBeNull()
    expect(canonicalOrigin(answer({ link: '<ftp://a.example/>; rel="canonical"' }))).toBeNull()
    expect(canonicalOrigin(answer({}))).toBeNull()
  })
})

describe('the verify-deployment workflow', () => {
  const workflow = parse(readFileSync(path.join(projectRoot, '.github/workflows/verify-deployment.yml'), 'utf8'))
  const job = workflow.jobs.verify
  const step = (predicate: (step: any) => boolean) => job.steps.find(predicate)

  it('runs on deployment_status, only for a successful deployment', () => {
    expect(workflow.on).toBe('deployment_status')
    expect(job.if).toBe("github.event.deployment_status.state == 'success'")
  })

  it("sets up Node 24, installs with npm ci, runs npm run verify on the deployment's target_url with a JSON report, uploads it", () => {
    expect(step((s) => s.uses?.startsWith('actions/setup-node@'))?.with['node-version']).toBe(24)
    expect(step((s) => s.run === 'npm ci --no-audit --no-fund')).toBeDefined()
    const verify = step((s) => typeof s.run === 'string' && s.run.includes('npm run verify --'))
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, as written in the workflow
    expect(verify.env.TARGET_URL).toBe('${{ github.event.deployment_status.target_url }}')
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, as written in the workflow
    expect(verify.env.VERCEL_AUTOMATION_BYPASS_SECRET).toBe('${{ secrets.VERCEL_AUTOMATION_BYPASS_SECRET }}')
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, as written in the workflow
    expect(verify.run).toContain('npm run verify -- "$TARGET_URL" --origin "$origin" ${expect:+--expect "$expect"} --json verify-report.json')
    const upload = step((s) => s.uses?.startsWith('actions/upload-artifact@'))
    expect(upload.if).toBe('always()')
    expect(upload.with.path).toBe('verify-report.json')
  })
})
