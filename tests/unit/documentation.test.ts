/**
 * The documentation holds together: every relative link of README.md and docs/*.md leads to a file of
 * the repository and, with a #fragment, to a heading of that file (GitHub's heading anchors); README
 * links to every page under docs/; README's settings table lists every variable lib/env.ts reads.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { VARIABLES_READ } from '../../lib/env.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

const DOCUMENTS = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]

/** The lines of a Markdown text outside fenced code blocks, with their line numbers. */
function proseLines(markdown: string): { line: string; number: number }[] {
  const lines: { line: string; number: number }[] = []
  let fence: string | undefined
  markdown.split('\n').forEach((line, index) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence ? undefined : marker
      return
    }
    if (!fence) lines.push({ line, number: index + 1 })
  })
  return lines
}

/** A heading's anchor as GitHub makes it: its text lower-cased, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*~]/g, '')
    .trim()
    .toLowerCase()
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')
}

/** Every anchor the headings of a Markdown text produce; a repeated heading gets -1, -2, … */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const { line } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1]
    if (heading === undefined) continue
    const slug = githubSlug(heading)
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** The targets of a Markdown text's links: inline links and images, and reference definitions. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = []
  for (const { line, number } of proseLines(markdown)) {
    // What a code span holds is text, not a link.
    const text = line.replace(/(`+)[^`]*?\1/g, 'code')
    for (const match of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ target: match[1] as string, line: number })
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(text)
    if (definition) links.push({ target: definition[1] as string, line: number })
  }
  return links
}

/** What is wrong with a relative link of `file`, or undefined when it leads somewhere. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined
  const [pathPart = '', fragment] = target.split('#', 2)
  const resolved =
    pathPart === '' ? file : path.posix.normalize(path.posix.join(pathPart.startsWith('/') ? '' : path.posix.dirname(file), decodeURI(pathPart)))
  if (resolved.startsWith('..') || !existsSync(path.join(root, resolved))) return `${resolved} does not exist`
  if (fragment === undefined) return undefined
  const anchor = decodeURIComponent(fragment)
  if (statSync(path.join(root, resolved)).isDirectory() || !resolved.endsWith('.md')) {
    // Code files have only GitHub's line anchors.
    return /^L\d+(?:-L\d+)?$/.test(anchor) ? undefined : `${resolved} has no anchor #${anchor}`
  }
  return anchorsOf(read(resolved)).has(anchor) ? undefined : `no heading of ${resolved} makes #${anchor}`
}

/** The variable names in the first column of the table under README's `## Settings` heading. */
function settingsTableNames(): string[] {
  const readme = read('README.md')
  const section = readme.split(/^## /m).find((part) => part.startsWith('Settings\n'))
  if (!section) throw new Error('README.md has no "## Settings" section')
  const rows = section.split('\n').filter((line) => line.startsWith('|'))
  return rows.slice(2).flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] as string))
}

describe('links', () => {
  test('the heading anchors follow GitHub: lower case, punctuation dropped, spaces as hyphens, repeats numbered', () => {
    expect(githubSlug('Performance: `npm run bench`')).toBe('performance-npm-run-bench')
    expect(githubSlug('Performance is 1.0')).toBe('performance-is-10')
    expect(githubSlug("The pages' policy")).toBe('the-pages-policy')
    expect(githubSlug('Quota, client identity and rollout')).toBe('quota-client-identity-and-rollout')
    expect(githubSlug('`updated`')).toBe('updated')
    expect([...anchorsOf('# A\n## Tested\n```sh\n# not a heading\n```\n## Tested\n')]).toEqual(['a', 'tested', 'tested-1'])
  })

  for (const file of DOCUMENTS) {
    test(`${file}: every relative link leads to a file of the repository, and every #fragment to a heading of its target`, () => {
      const broken = linksOf(read(file)).flatMap(({ target, line }) => {
        const problem = brokenLink(file, target)
        return problem ? [`${file}:${line}: (${target}) ${problem}`] : []
      })
      expect(broken).toEqual([])
    })
  }

  test('README.md links to every page under docs/', () => {
    const linked = new Set(linksOf(read('README.md')).map(({ target }) => target.split('#')[0]))
    expect(DOCUMENTS.filter((file) => file.startsWith('docs/') && !linked.has(file))).toEqual([])
  })
})

describe('settings', () => {
  test("README's settings table lists every variable lib/env.ts reads (VARIABLES_READ)", () => {
    const listed = new Set(settingsTableNames())
    expect(VARIABLES_READ.filter((name) => !listed.has(name))).toEqual([])
  })

  test('every variable lib/env.ts reads directly (env.NAME or env["NAME"]) is in VARIABLES_READ', () => {
    const source = read('lib/env.ts')
    const named = new Set<string>()
    for (const match of source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) named.add(match[1] as string)
    for (const match of source.matchAll(/\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g)) named.add(match[1] as string)
    expect(named.size).toBeGreaterThan(0)
    expect([...named].filter((name) => !VARIABLES_READ.includes(name))).toEqual([])
  })
})
