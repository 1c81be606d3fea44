/**
 * The content check's pull-request output: each mistake is a GitHub Actions `::error` workflow
 * command at its file and line, with GitHub's escaping, and the check fails.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { githubAnnotations } from '../../lib/content/check.ts'
import { ContentError } from '../../lib/content/site-content.ts'
import { projectRoot } from '../../harness/paths.ts'

describe('content check annotations', () => {
  it('turns each line of a content error into an ::error command at its file and line', () => {
    const error = new ContentError(
      [
        'content/pages/pricing.md:21: plan "Team" › priceMonthlyUsd: expected a number, got "twelve"',
        'content/pages/pricing.md:25: plan "Team" › feature 1: at most 120 characters (this has 130)',
      ].join('\n'),
    )
    expect(githubAnnotations(error)).toEqual([
      '::error file=content/pages/pricing.md,line=21,title=Content error::plan "Team" › priceMonthlyUsd: expected a number, got "twelve"',
      '::error file=content/pages/pricing.md,line=25,title=Content error::plan "Team" › feature 1: at most 120 characters (this has 130)',
    ])
  })

  it('names the file without a line when the mistake has none, and escapes % and newlines', () => {
    const error = new ContentError('content/resources/product-overview.md: file is missing; expected 100% Markdown')
    expect(githubAnnotations(error)).toEqual([
      '::error file=content/resources/product-overview.md,title=Content error::file is missing; expected 100%25 Markdown',
    ])
  })

  it('npm run check-content -- --annotations prints the annotation of a wrong edit and exits 1', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'content-check-'))
    try {
      cpSync(path.join(projectRoot, 'content'), path.join(root, 'content'), { recursive: true })
      const file = path.join(root, 'content/pages/pricing.md')
      writeFileSync(file, readFileSync(file, 'utf8').replace('priceMonthlyUsd: 12', 'priceMonthlyUsd: twelve'))
      const result = spawnSync(process.execPath, [path.join(projectRoot, 'scripts/check-content.ts'), '--annotations'], {
        cwd: root,
        encoding: 'utf8',
      })
      expect(result.status).toBe(1)
      expect(result.stdout).toBe(
        '::error file=content/pages/pricing.md,line=21,title=Content error::plan "Team" › priceMonthlyUsd: expected a number, got "twelve"\n',
      )
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
