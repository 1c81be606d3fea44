/**
 * Vitest global setup: makes every test build (harness/site-build.ts) up to date before the
 * integration tests start sites from them. Built here, at the same time, rather than by the first
 * file that needs one: files run in parallel, and a build made inside a test would count against its
 * time limit and keep other files waiting for it.
 */
import { ensureSiteBuilds, SITE_BUILDS, type SiteBuildName } from '../../harness/site-build.ts'

export default async function setup(): Promise<void> {
  await ensureSiteBuilds(Object.keys(SITE_BUILDS) as SiteBuildName[])
}
