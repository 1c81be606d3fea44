/**
 * The running process's deployment (lib/site-model.ts), from its settings and content. Built once per
 * process in production; under `next dev` rebuilt whenever the content was re-read after an edit
 * (lib/content/load.ts), and so is everything derived from it with `perSite`.
 */
import { getContent } from './content/load.ts'
import { getConfig } from './env.ts'
import { buildSite, type Site } from './site-model.ts'

export type { Site } from './site-model.ts'

let cached: Site | undefined

export function getSite(): Site {
  const content = getContent()
  if (cached?.content !== content) cached = buildSite(getConfig(), content)
  return cached
}

/** Derives a value from the site once per site (bodies, documents, catalogs): once per process in production. */
export function perSite<T>(build: (site: Site) => T): () => T {
  let builtFor: Site | undefined
  let value: T | undefined
  return () => {
    const site = getSite()
    if (site !== builtFor) {
      value = build(site)
      builtFor = site
    }
    return value as T
  }
}
