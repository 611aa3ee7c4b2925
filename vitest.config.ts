import { defineConfig } from 'vitest/config';

// Every catalog read of the tests (in their processes and the CLI's they start) also parses the
// answer with zod and fails on any difference from the fast parse (src/introspect/read.ts).
process.env.CITUS_MIGRATE_CHECK_FAST_PARSE = '1';

export default defineConfig({
  test: {
    reporters: ['default', './test/support/skip-reporter.ts'],
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 30_000 } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/drop-databases.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
