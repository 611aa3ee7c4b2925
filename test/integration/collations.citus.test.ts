// Collations (CREATE COLLATION) on Citus: declared in the sql: files and used by a distributed
// table's column, created before the table in the plan's transaction, on the workers too (Citus
// propagates them), planning empty, and read back by introspect.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const MANIFEST = `version: 1
tables:
  app.people:
    columns:
      tenant_id: { type: bigint, not_null: true }
      name: { type: text, collation: { schema: app, name: nocase } }
    distributed_by: tenant_id
    shard_count: 4
sql: [sql]
`;
const COLLATIONS = `CREATE COLLATION app.nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
COMMENT ON COLLATION app.nocase IS 'case-insensitive';
`;

describe.skipIf(!citus)('collations on Citus', () => {
  it('a collation a distributed column uses is created first, reaches the workers, plans empty, and is read back', async () => {
    const db = await freshDatabase(citus!, 'coll');
    await db.query('CREATE SCHEMA app');
    const dir = mkdtempSync(join(tmpdir(), 'cm-coll-'));
    mkdirSync(join(dir, 'sql'));
    writeFileSync(join(dir, 'citus-migrate.yaml'), MANIFEST);
    writeFileSync(join(dir, 'sql', 'collations.sql'), COLLATIONS);
    const apply = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(apply.code, apply.stderr + apply.stdout).toBe(0);
    expect(apply.stdout).toContain('verified: planning again is empty');
    // On a worker: the collation, and the shards' column using it (a case-insensitive comparison).
    expect(
      await sql<{ n: number }>(
        citus!,
        db.name,
        "SELECT count(*)::int AS n FROM pg_collation WHERE collname = 'nocase'",
        1,
      ),
    ).toEqual([{ n: 1 }]);
    await db.query("INSERT INTO app.people VALUES (1, 'Ada'), (2, 'ada')");
    expect(await db.query<{ n: number }>("SELECT count(*)::int AS n FROM app.people WHERE name = 'ADA'")).toEqual([
      { n: 2 },
    ]);

    const out = mkdtempSync(join(tmpdir(), 'cm-coll-intro-'));
    const intro = await cli(['introspect', '--database', db.url, '--out', join(out, 'citus-migrate.yaml')]);
    expect(intro.code, intro.stderr).toBe(0);
    expect(intro.stderr, intro.stderr).not.toContain('collation');
    expect(readFileSync(join(out, 'sql', 'collations.sql'), 'utf8')).toContain(
      "CREATE COLLATION app.nocase (provider = icu, deterministic = false, locale = 'und-u-ks-level2')",
    );
    const replan = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], {
      cwd: out,
    });
    expect(replan.code, replan.stdout + replan.stderr).toBe(0);
  });
});
