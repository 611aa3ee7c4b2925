// The fast case of the real-schemas acceptance run (test/corpora/real-schemas.test.ts): Temporal's
// schema (12 KB, 37 tables) from ../shared/corpora adopts cleanly — introspect, an empty drift
// check against itself, apply to an empty database, equal pg_dump, an empty re-plan.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plainServers, type TestDb } from '../support/db.js';
import { dropAll, REAL_SCHEMAS, runRealSchema } from '../support/real-schemas.js';

const present = existsSync(join(REAL_SCHEMAS, 'temporal', 'schema.sql'));
if (!present) process.stdout.write(`real-schema-temporal: skipped, ${REAL_SCHEMAS}/temporal is missing\n`);

describe.skipIf(!present)('real schema: temporal', () => {
  it('adopts cleanly', async () => {
    const made: TestDb[] = [];
    try {
      const o = await runRealSchema('temporal', plainServers(), made);
      expect({
        loadErrors: o.loadErrors,
        introspect: o.introspect,
        plan: o.plan?.exit,
        apply: o.apply,
        dumpDiffLines: o.dumpDiffLines,
        replan: o.replan?.exit,
      }).toEqual({
        loadErrors: 0,
        introspect: { exit: 0, leftOut: [] },
        plan: 0,
        apply: { exit: 0 },
        dumpDiffLines: 0,
        replan: 0,
      });
    } finally {
      await dropAll(plainServers(), made);
    }
  });
});
