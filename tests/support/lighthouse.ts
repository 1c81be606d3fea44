/**
 * Lighthouse (npm `lighthouse`) against a page of a running site, in Debian's Chromium: its own CLI,
 * the report parsed. Tests assert category scores and audits by id.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { projectRoot } from '../../harness/paths.ts'
import { CHROMIUM_PATH } from '../../harness/system-packages.ts'

export type LighthouseCategory = 'accessibility' | 'best-practices' | 'seo' | 'agentic-browsing' | 'performance'

interface LighthouseAudit {
  id: string
  title: string
  score: number | null
  scoreDisplayMode: 'binary' | 'numeric' | 'informative' | 'notApplicable' | 'manual' | 'error' | 'metricSavings'
  explanation?: string
}

export interface LighthouseReport {
  runtimeError?: { code: string; message: string }
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>
  audits: Record<string, LighthouseAudit>
}

const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Runtime errors Lighthouse raises when its own trace or screenshots came out broken, with the advice
 * to run it again (core/lib/lh-error.js: `badTraceRecording`, `didntCollectScreenshots`). They say
 * nothing about the page, so a run that ends in one is repeated; any other runtime error fails.
 */
const RECORDING_ERRORS = new Set([
  'NO_TRACING_STARTED',
  'NO_NAVSTART',
  'NO_DCL',
  'NO_RESOURCE_REQUEST',
  'NO_SPEEDLINE_FRAMES',
  'SPEEDINDEX_OF_ZERO',
  'NO_SCREENSHOTS',
  'INVALID_SPEEDLINE',
])
const RUNS_FOR_A_RECORDING = 3

/** `extraChromeFlags`: e.g. host-resolver rules that send the site's public host name to a loopback server. */
export async function runLighthouse(url: string, categories: LighthouseCategory[], extraChromeFlags: string[] = []): Promise<LighthouseReport> {
  for (let run = 1; ; run++) {
    const report = await runLighthouseOnce(url, categories, extraChromeFlags)
    const error = report.runtimeError
    if (!error) return report
    if (!RECORDING_ERRORS.has(error.code) || run === RUNS_FOR_A_RECORDING) {
      throw new Error(`lighthouse could not audit ${url} (run ${run}): ${error.code} ${error.message}`)
    }
  }
}

async function runLighthouseOnce(url: string, categories: LighthouseCategory[], extraChromeFlags: string[]): Promise<LighthouseReport> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lighthouse-'))
  const output = path.join(dir, 'report.json')
  try {
    const log = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          path.join(projectRoot, 'node_modules/lighthouse/cli/index.js'),
          url,
          '--quiet',
          '--output=json',
          `--output-path=${output}`,
          `--only-categories=${categories.join(',')}`,
          `--chrome-flags=${[...CHROME_FLAGS, ...extraChromeFlags].join(' ')}`,
        ],
        { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH }, stdio: ['ignore', 'pipe', 'pipe'] },
      )
      let text = ''
      child.stdout.on('data', (chunk) => (text += chunk))
      child.stderr.on('data', (chunk) => (text += chunk))
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000)
      child.on('error', reject)
      child.on('exit', () => {
        clearTimeout(timer)
        resolve(text)
      })
    })
    try {
      return JSON.parse(readFileSync(output, 'utf8')) as LighthouseReport
    } catch {
      throw new Error(`lighthouse wrote no report for ${url}:\n${log}`)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The audits that lower a category's score (weighted, scored below 1), as `id: title (explanation)`.
 * Audits of weight 0 (performance insights, diagnostics) inform without counting.
 */
function failingAudits(report: LighthouseReport, category: LighthouseCategory): string[] {
  return (report.categories[category]?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0)
    .map((ref) => report.audits[ref.id])
    .filter((audit): audit is LighthouseAudit => audit !== undefined && audit.score !== null && audit.score < 1)
    .map((audit) => `${audit.id}: ${audit.title}${audit.explanation ? ` (${audit.explanation})` : ''}`)
}

/** Each category's score with the audits that lower it: `{ category, score: 1, failing: [] }` when it is exactly 1.0. */
export function categoryScores(report: LighthouseReport, categories: LighthouseCategory[]) {
  return categories.map((category) => ({ category, score: report.categories[category]?.score ?? null, failing: failingAudits(report, category) }))
}
