import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * Integration files whose assertions hold only on a quiet machine: durations (the server's real
 * timeouts, the rollout bound, answers within a second while Redis hangs), Lighthouse's performance
 * score, the soak's traffic and memory. They run one after another, once every other file is done.
 */
const TIMING_BOUND_FILES = [
  'tests/integration/robustness.test.ts',
  'tests/integration/quota.test.ts',
  'tests/integration/rollout.test.ts',
  'tests/integration/plain-redis.test.ts',
  'tests/integration/soak.test.ts',
  'tests/integration/lighthouse-quality.test.ts',
]

/** What both integration projects share: the builds they start sites from, and servers' start-up time. */
const integration = {
  include: ['tests/integration/**/*.test.ts'],
  environment: 'node' as const,
  globalSetup: ['tests/support/build-once.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
}

export default defineConfig({
  root,
  resolve: { alias: { '@/': root } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          // Handlers called in-process would print an access-log line per call into the test output.
          env: { AGENT_ACCESS_LOG: 'false' },
          // A group of its own, with no integration file beside it: a few unit tests bound a duration.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          ...integration,
          name: 'integration',
          exclude: TIMING_BOUND_FILES,
          // Most of an integration file's time is spent waiting for its servers and child processes, so
          // three files at a time keep two cores busy.
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          ...integration,
          name: 'integration-timing',
          include: TIMING_BOUND_FILES,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
})
