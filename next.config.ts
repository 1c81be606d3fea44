import type { NextConfig } from 'next'
import { parseConfig } from './lib/env.ts'
import { exitOnConfigError, loadEnvFiles } from './lib/env-files.ts'

// Read at build time: on Vercel every deployment is built with its own environment, so a preview
// build knows it is a preview. Self-hosted, scripts/start.ts applies the same rule at run time.
const { noindex } = settings()

/** Next has loaded the `.env` files by now; a wrong setting stops `next dev` or `next build` in one line. */
function settings() {
  try {
    return parseConfig(process.env)
  } catch (error) {
    exitOnConfigError(error, loadEnvFiles())
  }
}

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The agent API answers its own trailing-slash paths (404 agent_endpoint_not_found); Next's redirect must not.
  skipTrailingSlashRedirect: true,
  // Content is read from content/ at run time; make sure deployments ship it with every function.
  outputFileTracingIncludes: { '/**': ['./content/**/*.md'] },
  async headers() {
    return noindex ? [{ source: '/:path*', headers: [{ key: 'X-Robots-Tag', value: 'noindex' }] }] : []
  },
}

export default nextConfig
