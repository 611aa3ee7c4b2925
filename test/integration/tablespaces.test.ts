// Tablespaces of tables, partitions, indexes, keys and materialized views, and a sequence a
// column owns that is logged or unlogged otherwise than its table: adopted (introspect), made
// again on an empty database equal (pg_dump, and each relation's tablespace and persistence, which
// pg_dump only says in SET lines), and changed in place, converging in one apply. The tablespaces
// are in-place ones (PostgreSQL 15's allow_in_place_tablespaces): no directory of the server's.
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, sql, type TestDb } from '../support/db.js';
import { adoptAndRebuild } from '../support/adopt-rebuild.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const info = plainServers();
const made: TestDb[] = [];
const spaces: string[] = [];

/** Each relation of public: its name, persistence and tablespace ('-': the database's). */
const places = async (db: TestDb): Promise<string[]> =>
  (
    await db.query<{
      x: string;
    }>(`SELECT c.relname || ' ' || c.relpersistence::text || ' ' || COALESCE(t.spcname, '-') AS x
      FROM pg_class c LEFT JOIN pg_tablespace t ON t.oid = c.reltablespace
      WHERE c.relnamespace = 'public'::regnamespace ORDER BY c.relname`)
  ).map((r) => r.x);

async function tablespaces(db: TestDb): Promise<[string, string]> {
  const names: [string, string] = [`cm_ts1_${db.name}`, `cm_ts2_${db.name}`];
  for (const ts of names) {
    await sql(info, 'postgres', ['SET allow_in_place_tablespaces = on', `CREATE TABLESPACE ${ts} LOCATION ''`]);
    spaces.push(ts);
  }
  return names;
}

afterAll(async () => {
  for (const db of made) await sql(info, 'postgres', `DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`);
  for (const ts of spaces) await sql(info, 'postgres', `DROP TABLESPACE IF EXISTS ${ts}`).catch(() => undefined);
});

describe('tablespaces and owned sequences’ persistence', () => {
  it('are adopted, made again equal, and changed in place in one apply', async () => {
    const original = await freshDatabase(info, 'tsa');
    made.push(original);
    const [ts1, ts2] = await tablespaces(original);
    await original.query(`
      CREATE TABLE t (id serial PRIMARY KEY, b integer, c integer UNIQUE) TABLESPACE ${ts1};
      ALTER INDEX t_pkey SET TABLESPACE ${ts2};
      CREATE INDEX t_b ON t (b) TABLESPACE ${ts2};
      CREATE INDEX t_bp ON t (b) TABLESPACE ${ts1} WHERE b > 0;
      ALTER TABLE t ADD CONSTRAINT t_ex EXCLUDE USING btree (b WITH =) USING INDEX TABLESPACE ${ts2};
      CREATE TABLE pt (a integer, b integer) PARTITION BY RANGE (a) TABLESPACE ${ts1};
      CREATE TABLE pt1 PARTITION OF pt FOR VALUES FROM (0) TO (10);
      CREATE TABLE pt2 PARTITION OF pt FOR VALUES FROM (10) TO (20) TABLESPACE pg_default;
      CREATE INDEX pt_b ON pt (b) TABLESPACE ${ts2};
      ALTER INDEX pt1_b_idx SET TABLESPACE ${ts1};
      CREATE MATERIALIZED VIEW mv TABLESPACE ${ts2} AS SELECT 1 AS x;
      CREATE TABLE pk (a integer, PRIMARY KEY (a) USING INDEX TABLESPACE ${ts1}) PARTITION BY RANGE (a);
      CREATE TABLE pk1 PARTITION OF pk FOR VALUES FROM (0) TO (10);
      CREATE TABLE pk2 PARTITION OF pk FOR VALUES FROM (10) TO (20);
      ALTER INDEX pk1_pkey SET TABLESPACE ${ts2};
      CREATE UNLOGGED TABLE u (id serial, g integer GENERATED ALWAYS AS IDENTITY);
      ALTER SEQUENCE u_id_seq SET LOGGED;
      CREATE TABLE l (id serial);
      ALTER SEQUENCE l_id_seq SET UNLOGGED;
    `);
    const { copy } = await adoptAndRebuild(info, original, 'tsb');
    made.push(copy);
    expect(await places(copy)).toEqual(await places(original));

    // The manifest, changed: a partition added under the table in ts1 (made in the database's
    // tablespace, as declared), t moved to ts2, u made logged (its sequences with it), an index
    // moved, and t_ex's index back in the database's tablespace.
    const dir = projectDir({});
    expect((await cli(['introspect', '--database', copy.url, '-o', 'citus-migrate.yaml'], { cwd: dir })).code).toBe(0);
    const edit = (file: string, f: (s: string) => string): void =>
      writeFileSync(join(dir, file), f(readFileSync(join(dir, file), 'utf8')));
    edit('citus-migrate.yaml', (s) =>
      s
        .replace(/( {6}pt2:\n {8}from: "10"\n {8}to: "20"\n)/, '$1      pt3:\n        from: "20"\n        to: "30"\n')
        .replace(/( {2}u:\n {4}local: true\n) {4}unlogged: true\n/, '$1'),
    );
    edit('sql/table-options.sql', (s) =>
      s
        .replace(`ALTER TABLE public.t SET TABLESPACE ${ts1};`, `ALTER TABLE public.t SET TABLESPACE ${ts2};`)
        .replace('ALTER SEQUENCE public.u_id_seq SET LOGGED;\n', '')
        .replace(`ALTER INDEX public.t_ex SET TABLESPACE ${ts2};\n`, '')
        .replace(
          `ALTER INDEX public.pk_pkey SET TABLESPACE ${ts1};`,
          `ALTER INDEX public.pk_pkey SET TABLESPACE ${ts2};`,
        ),
    );
    edit('sql/indexes.sql', (s) => s.replace(`(b) TABLESPACE ${ts2};`, `(b) TABLESPACE ${ts1};`));
    edit('citus-migrate.yaml', (s) => `${s}prune: true\n`);
    const plan = await cli(['plan', '--database', copy.url, '--format', 'json'], { cwd: dir });
    type Steps = { summary: string; hazards: string[]; sql: string[] }[];
    const steps = (JSON.parse(plan.stdout) as { transaction: { steps: Steps } }).transaction.steps;
    const step = (summary: string) => steps.find((s) => s.summary.startsWith(summary));
    // t holds its files: moving them is a rewrite (ACCESS EXCLUSIVE while they are copied).
    expect(step(`change tablespace public.t`)?.hazards).toEqual(['rewrites_table']);
    expect(step('create partition public.pt3')?.sql.join('\n')).toContain('TABLESPACE pg_default');
    // u's sequence follows u: no step of its own (ALTER TABLE … SET LOGGED sets it).
    expect(steps.filter((s) => s.summary.includes('u_id_seq'))).toEqual([]);
    const r = await cli(['apply', '--database', copy.url, '--auto-approve', '--allow-hazards', 'rewrites_table'], {
      cwd: dir,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    const after = await places(copy);
    expect(after).toEqual(
      expect.arrayContaining([
        `t p ${ts2}`,
        `pt3 p -`,
        `pt3_b_idx p ${ts1}`,
        `pt1_b_idx p ${ts1}`,
        `pt_b p ${ts1}`,
        `u p -`,
        `u_id_seq p -`,
        `u_g_seq p -`,
        `t_ex p -`,
        `l_id_seq u -`,
        // The partitioned key's index moved: its partitions' that followed it with it.
        `pk_pkey p ${ts2}`,
        `pk1_pkey p ${ts2}`,
        `pk2_pkey p ${ts2}`,
      ]),
    );
  });
});
