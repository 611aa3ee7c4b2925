// The sqldef corpus as a vitest suite (used by the full run and by the sample in `npm test`):
// one concurrent test per case, a summary table at the end (SQLDEF_JSON=path also writes the
// outcomes as JSON). A case fails on a crash, and on a silent or rejected outcome unless KNOWN
// lists it (and a listed case fails once its class changes).
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainServers, sql } from './db.js';
import { createSqldefRoles, runSqldefCase, sqldefSummary, type SqldefCase, type SqldefOutcome } from './sqldef.js';
import { KNOWN } from './sqldef-known.js';

/** Declares the suite over `cases`. */
export function sqldefSuite(title: string, cases: readonly SqldefCase[]): void {
  describe.skipIf(cases.length === 0)(title, () => {
    const outcomes: SqldefOutcome[] = [];
    const started = performance.now();
    let major = 0;
    beforeAll(async () => {
      const [row] = await sql<{ v: string }>(
        plainServers(),
        'postgres',
        "SELECT current_setting('server_version_num') AS v",
      );
      major = Math.floor(Number(row!.v) / 10000);
      await createSqldefRoles(plainServers());
    });
    afterAll(() => {
      const seconds = Math.round((performance.now() - started) / 1000);
      const order = new Map(cases.map((c, i) => [c.name, i]));
      const sorted = [...outcomes].sort((a, b) => order.get(a.name)! - order.get(b.name)!);
      process.stdout.write(`\n${sqldefSummary(sorted, seconds)}\n`);
      const out = process.env.SQLDEF_JSON;
      if (out) writeFileSync(out, `${JSON.stringify({ seconds, outcomes: sorted }, null, 2)}\n`);
    });

    it.concurrent.each(cases.map((c) => [`${c.file.replace(/^tests_|\.yml$/g, '')}: ${c.name}`, c] as const))(
      '%s',
      async (_label, c) => {
        const o = await runSqldefCase(c, plainServers(), major);
        outcomes.push(o);
        expect(o.klass === 'crash' ? o.why : '', `${c.name} crashed the CLI`).toBe('');
        const known = KNOWN.get(c.name);
        const held = o.klass === 'silent' || o.klass === 'rejected';
        if (known === undefined) expect(held ? `${o.klass}: ${o.why}` : '', `${c.name} is ${o.klass}`).toBe('');
        else
          expect(o.klass, `${c.name} is listed in KNOWN as ${known.klass} (${known.why}) but is ${o.klass} now`).toBe(
            known.klass,
          );
      },
    );
  });
}
