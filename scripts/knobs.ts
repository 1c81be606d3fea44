/**
 * Knobs of the measuring scripts (bench, soak) from the environment, after the `.env` files were loaded
 * (lib/env-files.ts). A wrong value is a ConfigError: one line naming the variable, no stack trace.
 */
import { ConfigError } from '../lib/env.ts'

export function positiveNumber(env: Record<string, string | undefined>, name: string, fallback: number, options: { integer?: boolean } = {}): number {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0 || (options.integer && !Number.isInteger(value))) {
    throw new ConfigError([
      { variable: name, expected: `expected a positive ${options.integer ? 'whole number' : 'number'}, got ${JSON.stringify(raw)}` },
    ])
  }
  return value
}
