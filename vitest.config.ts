import { defineConfig } from 'vitest/config';

/**
 * Integration files run two at a time (INTEGRATION_WORKERS sets how many), each worker on servers
 * of its own: the global setup starts a plain PostgreSQL and a Citus cluster per worker, and a
 * file claims a free set (test/support/server-claim.ts). A file waits on its servers
 * most of the time, so two at once take little more than half as long on two cores. With
 * CITUS_MIGRATE_TEST_URL or CITUS_MIGRATE_TEST_ENGINE=docker, one at a time.
 */
const INTEGRATION_WORKERS = Math.max(
  1,
  Number(process.env.INTEGRATION_WORKERS) ||
    // One cluster named by URL is every worker's; containers, a cluster each, are heavy: one worker.
    (process.env.CITUS_MIGRATE_TEST_URL || process.env.CITUS_MIGRATE_TEST_ENGINE === 'docker' ? 1 : 2),
);

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
          maxWorkers: INTEGRATION_WORKERS,
          // After the unit files, in a group of its own (one maxWorkers per group).
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
