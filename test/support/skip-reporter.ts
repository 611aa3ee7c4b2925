// Prints one line saying which Citus the Citus tests ran on, or how many were skipped and why,
// and a plain "N passed, N failed, N skipped" closing line.
import type { Reporter, TestModule } from 'vitest/node';

export default class SkipReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let citusSkipped = 0;
    let containerSkipped = 0;
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') count.passed++;
        else if (state === 'failed') count.failed++;
        else if (state === 'skipped') {
          count.skipped++;
          // The container tests skip for their own reason (no engine, or no image).
          if (m.moduleId.endsWith('cluster-docker.test.ts')) {
            containerSkipped++;
            continue;
          }
          // Without ../shared/corpora the real-schema case skips, and says why itself.
          if (m.moduleId.endsWith('real-schema-temporal.test.ts')) continue;
          // Likewise the sqldef sample (its cases never skip one by one: a case that cannot run passes as "skipped").
          if (m.moduleId.endsWith('sqldef-sample.test.ts')) continue;
          // Otherwise only Citus-only tests skip in this suite (*.citus.test.ts and the Citus cases of
          // mixed files), so every skip is counted against the reason.
          citusSkipped++;
        }
      }
    }
    const reason = process.env.CITUS_MIGRATE_CITUS_SKIP_REASON;
    const path = process.env.CITUS_MIGRATE_CITUS_PATH;
    if (citusSkipped > 0 && reason)
      process.stdout.write(`\ncitus-migrate: ${citusSkipped} Citus test(s) skipped: ${reason}\n`);
    else if (path) process.stdout.write(`\ncitus-migrate: Citus tests ran on ${path}\n`);
    const containerReason = process.env.CITUS_MIGRATE_CONTAINER_SKIP_REASON;
    if (containerSkipped > 0 && containerReason)
      process.stdout.write(`citus-migrate: ${containerSkipped} container test(s) skipped: ${containerReason}\n`);
    // A file that fails before its tests run (an error at collection) has no failed test to count.
    const broken = modules.filter(
      (m) => m.state() === 'failed' && ![...m.children.allTests()].some((t) => t.result().state === 'failed'),
    );
    const files = broken.length
      ? `, ${broken.length} file(s) failed to load: ${broken.map((m) => m.moduleId.split('/test/').pop()).join(', ')}`
      : '';
    process.stdout.write(
      `\nvitest: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped${files}\n`,
    );
  }
}
