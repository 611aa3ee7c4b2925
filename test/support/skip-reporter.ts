// Prints one line saying how many Citus-only tests were skipped and why, and a plain
// "N passed, N failed, N skipped" closing line.
import type { Reporter, TestModule } from 'vitest/node';

export default class SkipReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let citusSkipped = 0;
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') count.passed++;
        else if (state === 'failed') count.failed++;
        else if (state === 'skipped') {
          count.skipped++;
          // Only Citus-only tests skip in this suite (*.citus.test.ts and the Citus cases of
          // mixed files), so every skip is counted against the reason.
          citusSkipped++;
        }
      }
    }
    const reason = process.env.CITUS_MIGRATE_CITUS_SKIP_REASON;
    if (citusSkipped > 0 && reason) process.stdout.write(`\ncitus-migrate: ${citusSkipped} Citus test(s) skipped: ${reason}\n`);
    process.stdout.write(`\nvitest: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`);
  }
}
