// Typed tables (CREATE TABLE … OF type) on Citus, pinned: Citus distributes one (its shards are
// plain tables) and refuses ALTER TABLE … OF and NOT OF on its tables. So a plan makes a typed
// table, then distributes it (made with its columns, typed, then distributed: pg_dump prints it as
// CREATE TABLE … OF), and a change of a distributed table's type is the plan problem citus_typed_table.
import { describe, expect, it } from 'vitest';
import { citusServers, firstError, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const manifest = (ofType: boolean): string => `version: 1
sql: [sql]
tables:
  app.pairs:
    distributed_by: x
    ${ofType ? 'of_type: app.pair' : ''}
    columns: { x: { type: integer, not_null: true }, y: text }
    primary_key: [x]
`;

describe.skipIf(!citus)('typed tables on Citus', () => {
  it('Citus distributes a typed table with plain shards, and refuses OF and NOT OF on its tables', async () => {
    const db = await freshDatabase(citus!, 'typed_fact');
    await db.query(`CREATE TYPE pair AS (x integer, y text);
      CREATE TABLE typed OF pair (PRIMARY KEY (x)); SELECT create_distributed_table('typed', 'x');
      CREATE TABLE plain (x integer, y text); SELECT create_distributed_table('plain', 'x')`);
    // (Shards are hidden from pg_class on a worker unless the session says otherwise.)
    const shards = await sql<{ n: number }>(
      citus!,
      db.name,
      [
        'SET citus.override_table_visibility TO off',
        "SELECT count(*)::int AS n FROM pg_class WHERE relname ~ '^typed_[0-9]+$' AND relkind = 'r' AND reloftype = 0",
      ],
      1,
    );
    expect(shards[0]!.n).toBeGreaterThan(0);
    for (const statement of ['ALTER TABLE plain OF pair', 'ALTER TABLE typed NOT OF'])
      expect(await firstError(db.url, [statement])).toContain('alter table command is currently unsupported');
  });

  it('a plan makes one typed and distributed; a change of its type is a plan problem', async () => {
    const db = await freshDatabase(citus!, 'typed_plan');
    const dir = projectDir({
      'citus-migrate.yaml': manifest(true),
      'sql/types.sql': 'CREATE TYPE app.pair AS (x integer, y text);\n',
    });
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    expect(
      await db.query<{ t: string; d: string }>(
        "SELECT reloftype::regtype::text AS t, (SELECT partmethod::text FROM pg_dist_partition WHERE logicalrelid = 'app.pairs'::regclass) AS d FROM pg_class WHERE oid = 'app.pairs'::regclass",
      ),
    ).toEqual([{ t: 'app.pair', d: 'h' }]);
    const out = projectDir({});
    expect((await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: out })).code).toBe(0);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: out })).code).toBe(0);

    const untyped = projectDir({
      'citus-migrate.yaml': manifest(false),
      'sql/types.sql': 'CREATE TYPE app.pair AS (x integer, y text);\n',
    });
    const p = await cli(['plan', '--database', db.url], { cwd: untyped });
    expect(p.code, p.stdout + p.stderr).toBe(1);
    expect(p.stdout + p.stderr).toContain('Citus refuses ALTER TABLE … OF and NOT OF on its tables');
  });
});
