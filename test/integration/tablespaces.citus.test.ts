// Tablespaces on Citus 13 (pinned here, docs/citus-facts.md): create_distributed_table of a table
// in a tablespace leaves the coordinator's table there and makes every shard in the workers'
// default tablespace, without a word; ALTER TABLE … SET TABLESPACE and CREATE INDEX … TABLESPACE on
// a Citus table are refused. So a Citus table in a tablespace is a plan problem (never a plan
// that fails), one adopted is named as not managed, and a local table on the coordinator is
// managed as on PostgreSQL.
import { afterAll, describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql, type TestDb } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();
const spaces: string[] = [];

async function tablespaceEverywhere(db: TestDb): Promise<string> {
  const ts = `cm_cts_${db.name}`;
  for (const n of citus!.nodes.keys())
    await sql(citus!, 'postgres', ['SET allow_in_place_tablespaces = on', `CREATE TABLESPACE ${ts} LOCATION ''`], n);
  spaces.push(ts);
  return ts;
}

afterAll(async () => {
  if (!citus) return;
  for (const ts of spaces)
    for (const n of citus.nodes.keys())
      await sql(citus, 'postgres', `DROP TABLESPACE IF EXISTS ${ts}`, n).catch(() => undefined);
});

describe.skipIf(!citus)('tablespaces on Citus', () => {
  it('Citus makes shards in the default tablespace and refuses to move a Citus table or index (pinned)', async () => {
    const db = await freshDatabase(citus!, 'ctsf');
    const ts = await tablespaceEverywhere(db);
    await db.query(`CREATE TABLE d (a integer PRIMARY KEY USING INDEX TABLESPACE ${ts}, b integer) TABLESPACE ${ts};
      SELECT create_distributed_table('d', 'a', shard_count => 2)`);
    const shards = async (node: number) =>
      (
        await sql<{ x: string }>(
          citus!,
          db.name,
          [
            'SET citus.override_table_visibility = off',
            `SELECT c.relname || ' ' || COALESCE(t.spcname, '-') AS x FROM pg_class c LEFT JOIN pg_tablespace t ON t.oid = c.reltablespace
              WHERE c.relname ~ '^d_[0-9]+$' ORDER BY 1`,
          ],
          node,
        )
      ).map((r) => r.x);
    const onWorkers = [...(await shards(1)), ...(await shards(2))];
    expect(onWorkers).toHaveLength(2);
    for (const s of onWorkers) expect(s).toMatch(/ -$/);
    const [coordinator] = await db.query<{ spcname: string }>(
      "SELECT t.spcname FROM pg_class c JOIN pg_tablespace t ON t.oid = c.reltablespace WHERE c.relname = 'd'",
    );
    expect(coordinator?.spcname).toBe(ts);
    await expect(db.query('ALTER TABLE d SET TABLESPACE pg_default')).rejects.toThrow(
      /alter table command is currently unsupported/,
    );
    await expect(db.query(`CREATE INDEX d_b ON d (b) TABLESPACE ${ts}`)).rejects.toThrow(
      /specifying tablespaces with CREATE INDEX statements is currently unsupported/,
    );

    // Adopted: named as not managed, with the reason; the introspected manifest plans nothing.
    const dir = projectDir({});
    expect((await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir })).code).toBe(0);
    const plan = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    const doc = JSON.parse(plan.stdout) as {
      transaction: { steps: unknown[] };
      problems: unknown[];
      notManaged: { kind: string; name: string }[];
    };
    expect(doc.problems).toEqual([]);
    expect(doc.transaction.steps).toEqual([]);
    expect(doc.notManaged).toEqual([
      { kind: 'tablespace', name: `public.d (${ts}: a Citus table, its shards in the workers' default tablespace)` },
      {
        kind: 'tablespace',
        name: `public.d_pkey (${ts}: an index of a Citus table, its shards' in the workers' default tablespace)`,
      },
    ]);
  });

  it('a distributed table in a tablespace is a plan problem at its file:line; a local one is moved', async () => {
    const db = await freshDatabase(citus!, 'ctsp');
    const ts = await tablespaceEverywhere(db);
    const manifest = `version: 1
tables:
  d:
    distributed_by: a
    columns: { a: integer, b: integer }
  l:
    local: true
    columns: { a: integer }
sql: [sql]
`;
    const refused = await cli(['apply', '--database', db.url, '--auto-approve'], {
      cwd: projectDir({
        'citus-migrate.yaml': manifest,
        'sql/table-options.sql': `ALTER TABLE l SET TABLESPACE ${ts};\nALTER TABLE d SET TABLESPACE ${ts};\n`,
      }),
    });
    expect(refused.code, refused.stdout + refused.stderr).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(
      /table-options\.sql:2:1: tablespace public\.d: puts public\.d of Citus table public\.d in a tablespace: Citus creates no shard there/,
    );
    expect(await db.query("SELECT 1 FROM pg_class WHERE relname IN ('d', 'l')")).toEqual([]);

    const dir = projectDir({
      'citus-migrate.yaml': manifest,
      'sql/table-options.sql': `ALTER TABLE l SET TABLESPACE ${ts};\n`,
    });
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    const [l] = await db.query<{ spcname: string }>(
      "SELECT t.spcname FROM pg_class c JOIN pg_tablespace t ON t.oid = c.reltablespace WHERE c.relname = 'l'",
    );
    expect(l?.spcname).toBe(ts);
  });
});
