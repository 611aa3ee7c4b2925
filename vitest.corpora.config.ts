// `npm run test:corpora`: acceptance runs over the corpora beside the repository (../shared),
// on the throwaway PostgreSQL the integration suite starts. Kept out of `npm test` (minutes long).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'corpora',
    include: ['test/corpora/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    // sqldef's cases run concurrently, each on databases of its own (SQLDEF_CONCURRENCY to change).
    maxConcurrency: Number(process.env.SQLDEF_CONCURRENCY ?? 6),
  },
});
