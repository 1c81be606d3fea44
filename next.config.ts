import type { NextConfig } from 'next'

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The agent API answers its own trailing-slash paths (404 agent_endpoint_not_found); Next's redirect must not.
  skipTrailingSlashRedirect: true,
  // Content is read from content/ at run time; make sure deployments ship it with every function.
  outputFileTracingIncludes: { '/**': ['./content/**/*.md'] },
}

export default nextConfig
