// Prints one line saying how many Citus-only tests were skipped and why.
import type { Reporter, TestModule } from 'vitest/node';

export default class SkipReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let skipped = 0;
    for (const m of modules) {
      if (!m.moduleId.endsWith('.citus.test.ts')) continue;
      for (const t of m.children.allTests()) if (t.result().state === 'skipped') skipped++;
    }
    const reason = process.env.CITUS_MIGRATE_CITUS_SKIP_REASON;
    if (skipped > 0 && reason) process.stdout.write(`\ncitus-migrate: ${skipped} Citus test(s) skipped: ${reason}\n`);
  }
}
