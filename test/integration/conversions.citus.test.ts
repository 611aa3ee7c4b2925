// Encoding conversions on Citus: Citus 13 does not propagate CREATE CONVERSION (pinned here), so a
// declared one is made on the coordinator, where clients' encodings are converted, and only there;
// the plan is empty after, and introspect reads it back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

describe.skipIf(!citus)('conversions on Citus', () => {
  it('are made on the coordinator only, plan empty after, and are read back', async () => {
    const db = await freshDatabase(citus!, 'conv');
    const count = async (node: number) =>
      (
        await sql<{ n: number }>(
          citus!,
          db.name,
          "SELECT count(*)::int AS n FROM pg_conversion WHERE conname = 'latin1_utf8'",
          node,
        )
      )[0]!.n;
    // By hand first: what Citus does with the statement.
    await db.query("CREATE CONVERSION public.latin1_utf8 FOR 'LATIN1' TO 'UTF8' FROM iso8859_1_to_utf8");
    expect([await count(0), await count(1), await count(2)]).toEqual([1, 0, 0]);
    await db.query('DROP CONVERSION public.latin1_utf8');

    const dir = projectDir({
      'citus-migrate.yaml': 'version: 1\nsql: [sql]\n',
      'sql/conversions.sql':
        "CREATE DEFAULT CONVERSION latin1_utf8 FOR 'latin1' TO 'utf8' FROM iso8859_1_to_utf8;\nCOMMENT ON CONVERSION latin1_utf8 IS 'legacy clients';\n",
    });
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    expect([await count(0), await count(1), await count(2)]).toEqual([1, 0, 0]);
    const out = projectDir({});
    expect((await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: out })).code).toBe(0);
    expect(readFileSync(join(out, 'sql', 'conversions.sql'), 'utf8')).toContain(
      "CREATE DEFAULT CONVERSION public.latin1_utf8 FOR 'LATIN1' TO 'UTF8' FROM pg_catalog.iso8859_1_to_utf8;",
    );
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: out })).code).toBe(0);
  });
});
