/**
 * What a build was made for. Pages and documents are prerendered with the deployment's settings and
 * content, so `next build` records them (next.config.ts) and `npm start` compares them with its own
 * before serving: a server whose settings or content differ from its build would publish two sites
 * at once (prerendered pages with one base URL, API answers with another).
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Site } from './site.ts'

const BUILD_RECORD_FILE = 'cadence-build.json'

export interface BuildRecord {
  /** Each published setting, by a label naming the variable that sets it. */
  settings: Record<string, string>
  /** sha256 of the validated content/ (frontmatter and bodies). */
  content: string
}

export function buildRecordOf(site: Site): BuildRecord {
  const { config } = site
  return {
    settings: {
      'base URL (BASE_URL, or PORT and the Vercel variables)': config.baseUrl,
      'deployment (VERCEL_ENV)': config.deployment,
      APP_URL: config.appUrl,
      SERVICE_NAME: config.serviceName,
      MCP_SERVER_NAME: config.mcpServerName ?? '(derived from the base URL)',
      CONTENT_SIGNAL: config.contentSignal,
      // The contact page offers its form only where leads are kept durably (Upstash, or SQLite off
      // Vercel): the server must agree. Which store keeps them may differ between build and start.
      'contact form (a durable lead store: Upstash settings, or not on Vercel)': config.leads.store ? 'offered' : 'not offered',
    },
    content: createHash('sha256').update(JSON.stringify(site.content)).digest('hex'),
  }
}

export function writeBuildRecord(distDir: string, site: Site): void {
  writeFileSync(path.join(distDir, BUILD_RECORD_FILE), `${JSON.stringify(buildRecordOf(site), null, 2)}\n`)
}

export function readBuildRecord(distDir: string): BuildRecord | null {
  try {
    return JSON.parse(readFileSync(path.join(distDir, BUILD_RECORD_FILE), 'utf8')) as BuildRecord
  } catch {
    return null
  }
}

/** One line saying how `current` differs from what the build was made for, or null when it does not. */
export function describeBuildMismatch(built: BuildRecord, current: BuildRecord): string | null {
  const differences = Object.entries(current.settings)
    .filter(([label, value]) => built.settings[label] !== value)
    .map(([label, value]) => `${label} is ${JSON.stringify(built.settings[label] ?? '(unset)')} in the build but ${JSON.stringify(value)} here`)
  if (built.content !== current.content) differences.push('content/ changed since the build')
  if (differences.length === 0) return null
  return `This build was made for other settings: ${differences.join('; ')}. Start with the build's settings, or run npm run build again with these.`
}
