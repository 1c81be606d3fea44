/**
 * Vitest global setup: makes the `test` build (tests/support/site-build.ts) up to date before the
 * integration tests start sites from it.
 */
import { ensureSiteBuild } from './site-build.ts'

export default function setup(): void {
  ensureSiteBuild('test')
}
