/**
 * `.env` files for the programs that parse settings outside Next's own commands (`npm start`,
 * `npm run rollout`, the prebuild check, bench, soak). They are loaded by Next's own loader
 * (`@next/env`, the package `next` uses, at the same version), so the files, their precedence
 * (`.env.production.local`, `.env.local`, `.env.production`, `.env`; a variable already in the
 * environment wins) and `$VAR` expansion are exactly what `next build` and `next start` see.
 * Loading writes into `process.env`; lib/env.ts remains the one place that reads settings from it.
 */
import * as nextEnvExports from '@next/env'
import { ConfigError, getConfig, type SiteConfig } from './env.ts'

// Native ESM (npm start, scripts) sees this CommonJS package's exports as `default`; Next's compiled
// next.config.ts sees them directly.
const nextEnv: typeof nextEnvExports =
  'loadEnvConfig' in nextEnvExports ? nextEnvExports : (nextEnvExports as unknown as { default: typeof nextEnvExports }).default

export interface EnvFiles {
  /** The files that were read, in precedence order, e.g. `['.env.local', '.env']`. */
  files: string[]
  /** Where a variable's value came from: `.env.local`, `the environment`, or undefined when unset. */
  sourceOf: (variable: string) => string | undefined
}

/**
 * Loads the `.env` files of `dir` as `next start` does (production mode; `NODE_ENV=test`: Next's test
 * files), or as `next dev` does (`development`: the `.env.development*` files).
 */
export function loadEnvFiles(dir: string = process.cwd(), mode: 'production' | 'development' = 'production'): EnvFiles {
  const { loadedEnvFiles } = nextEnv.loadEnvConfig(dir, mode === 'development', {
    info: () => {},
    error: (...args: unknown[]) => console.error(...args),
  })
  const initial = nextEnv.initialEnv ?? {}
  return {
    files: loadedEnvFiles.map((file) => file.path),
    sourceOf: (variable) => {
      if (initial[variable] !== undefined) return 'the environment'
      return loadedEnvFiles.find((file) => file.env[variable] !== undefined)?.path
    },
  }
}

/** One line per wrong variable, naming where its value came from; no stack trace. */
export function describeConfigError(error: ConfigError, files?: EnvFiles): string[] {
  return error.issues.map((issue) => {
    const source = files?.sourceOf(issue.variable)
    return `Invalid setting ${issue.variable}${source ? ` (from ${source})` : ''}: ${issue.expected}`
  })
}

/** Prints a wrong setting as one line per variable on stderr and exits 1; anything else is rethrown. */
export function exitOnConfigError(error: unknown, files?: EnvFiles): never {
  if (!(error instanceof ConfigError)) throw error
  for (const line of describeConfigError(error, files)) console.error(line)
  process.exit(1)
}

/**
 * Loads the `.env` files and parses the settings. A wrong setting stops the process with exit code 1
 * and one line per wrong variable on stderr, e.g.
 * `Invalid setting PORT (from .env): expected a port number from 1 to 65535, got "abc"`.
 */
export function loadSettingsOrExit(dir: string = process.cwd(), mode: 'production' | 'development' = 'production'): SiteConfig {
  const files = loadEnvFiles(dir, mode)
  try {
    return getConfig()
  } catch (error) {
    exitOnConfigError(error, files)
  }
}
