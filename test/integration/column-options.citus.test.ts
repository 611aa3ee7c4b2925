// A column's COMPRESSION and attribute options (n_distinct) on Citus: a new distributed table gets
// its COMPRESSION on every shard (from CREATE TABLE, and from ALTER COLUMN … SET COMPRESSION
// later, which Citus propagates), its n_distinct on the coordinator's table only
// (create_distributed_table does not copy attribute options, and Citus refuses SET (n_distinct)
// on a distributed table: a plan problem, never a failed apply). An unlogged sequence is unlogged
// on every node, and SET LOGGED reaches the workers. docs/citus-facts.md.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const manifest = (b: string, a: string): string => `version: 1
tables:
  events:
    distributed_by: w
    shard_count: 2
    columns:
      w: bigint
      b: { type: text, compression: ${b} }
      a: { type: integer${a} }
`;

describe.skipIf(!citus)('column COMPRESSION and attribute options on Citus', () => {
  it('COMPRESSION reaches every shard, also when changed; n_distinct stays on the coordinator and a change is a plan problem', async () => {
    const db = await freshDatabase(citus!, 'column_options');
    const dir = projectDir(manifest('lz4', ', options: { n_distinct: -0.5 }'));
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const onShards = async (): Promise<string[]> =>
      (
        await db.query<{ result: string }>(
          `SELECT result FROM run_command_on_shards('events', $$SELECT pg_catalog.string_agg(attname::text || ':' || attcompression::text || ':' || COALESCE(pg_catalog.array_to_string(ARRAY(SELECT o FROM pg_catalog.unnest(attoptions) o WHERE o NOT LIKE 'pg\\_attver=%%'), ';'), ''), ',' ORDER BY attnum) FROM pg_catalog.pg_attribute WHERE attrelid = '%s'::regclass AND attnum > 0$$)`,
        )
      ).map((x) => x.result);
    expect(await onShards()).toEqual(['w::,b:l:,a::', 'w::,b:l:,a::']);
    expect(
      await db.query(
        "SELECT ARRAY(SELECT o FROM unnest(attoptions) o WHERE o NOT LIKE 'pg\\_attver=%') AS attoptions FROM pg_attribute WHERE attrelid = 'events'::regclass AND attname = 'a'",
      ),
    ).toEqual([{ attoptions: ['n_distinct=-0.5'] }]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);

    writeFileSync(join(dir, 'citus-migrate.yaml'), manifest('pglz', ', options: { n_distinct: -0.5 }'));
    const c = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(c.code, c.stdout + c.stderr).toBe(0);
    expect(await onShards()).toEqual(['w::,b:p:,a::', 'w::,b:p:,a::']);

    writeFileSync(join(dir, 'citus-migrate.yaml'), manifest('pglz', ''));
    const p = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(p.code).toBe(1);
    expect(p.stdout + p.stderr).toContain(
      'Citus refuses ALTER COLUMN … SET / RESET (n_distinct …) on a distributed, reference or Citus local table',
    );
  });

  it('an unlogged sequence a distributed table draws from is unlogged on every worker; SET LOGGED reaches them', async () => {
    const db = await freshDatabase(citus!, 'unlogged_sequence');
    const m = (unlogged: boolean): string => `version: 1
sequences:
  ids: { unlogged: ${unlogged} }
tables:
  items:
    distributed_by: w
    shard_count: 2
    columns:
      w: bigint
      id: { type: bigint, default: "nextval('ids')" }
`;
    const dir = projectDir(m(true));
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const persistence = (): Promise<string[]> =>
      Promise.all(
        [0, 1, 2].map(
          async (n) =>
            (await db.query<{ p: string }>("SELECT relpersistence AS p FROM pg_class WHERE relname = 'ids'", n))[0]!.p,
        ),
      );
    expect(await persistence()).toEqual(['u', 'u', 'u']);
    writeFileSync(join(dir, 'citus-migrate.yaml'), m(false));
    const l = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(l.code, l.stdout + l.stderr).toBe(0);
    expect(await persistence()).toEqual(['p', 'p', 'p']);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });
});
