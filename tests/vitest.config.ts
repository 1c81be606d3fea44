import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const root = fileURLToPath(new URL('..', import.meta.url))

export default defineConfig({
  root,
  resolve: { alias: { '@/': root } },
  test: {
    projects: [
      {
        extends: true,
        // Handlers called in-process would print an access-log line per call into the test output.
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', env: { AGENT_ACCESS_LOG: 'false' } },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/build-once.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file starts its own servers; two cores, so run files one after another.
          fileParallelism: false,
        },
      },
    ],
  },
})
