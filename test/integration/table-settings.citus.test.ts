// Table settings on Citus tables (issue #23): what Citus propagates and what it refuses
// (docs/citus-facts.md, "Table settings"), and what the plan makes of them: REPLICA IDENTITY is
// applied to distributed and reference tables and reaches every shard; CLUSTER ON and a column's
// SET STATISTICS on a table Citus already holds are plan problems, never a failed apply; a new
// distributed table's column statistics are set before it is distributed and reach its shards.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, firstError, type TestDb } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

/** One value per shard of `table`, from `query` run on each shard (%s is the shard's name). */
async function onShards(db: TestDb, table: string, query: string): Promise<string[]> {
  const rows = await db.query<{ result: string }>(
    `SELECT result FROM run_command_on_shards('${table}', $$${query}$$) ORDER BY shardid`,
  );
  return rows.map((r) => r.result);
}

const REFUSED = 'alter table command is currently unsupported';

describe.skipIf(!citus)('table settings on Citus', () => {
  it('REPLICA IDENTITY and ALTER INDEX … SET STATISTICS reach the shards; CLUSTER ON and SET STATISTICS of a column are refused on every kind of Citus table, but set before distribution they are copied to the shards', async () => {
    const db = await freshDatabase(citus!, 'ts_facts');
    await db.query(`CREATE TABLE d (id bigint PRIMARY KEY, a text NOT NULL, b text);
      CREATE UNIQUE INDEX d_ida ON d (id, a); CREATE INDEX d_a ON d (a); CREATE INDEX d_lower ON d (lower(b));
      SELECT create_distributed_table('d', 'id', shard_count => 2);
      CREATE TABLE r (id bigint PRIMARY KEY, a text); CREATE INDEX r_a ON r (a); SELECT create_reference_table('r');
      CREATE TABLE l (id bigint PRIMARY KEY, a text); CREATE INDEX l_a ON l (a); SELECT citus_add_local_table_to_metadata('l')`);
    // Propagated.
    await db.query('ALTER TABLE d REPLICA IDENTITY FULL');
    await db.query('ALTER TABLE r REPLICA IDENTITY FULL');
    expect(await onShards(db, 'd', "SELECT relreplident FROM pg_class WHERE oid = '%s'::regclass")).toEqual(['f', 'f']);
    expect(await onShards(db, 'r', "SELECT relreplident FROM pg_class WHERE oid = '%s'::regclass")).toEqual(['f']);
    await db.query('ALTER TABLE d REPLICA IDENTITY USING INDEX d_ida');
    expect(
      await onShards(db, 'd', "SELECT count(*) FROM pg_index WHERE indrelid = '%s'::regclass AND indisreplident"),
    ).toEqual(['1', '1']);
    await db.query('ALTER INDEX d_lower ALTER COLUMN 1 SET STATISTICS 400');
    expect(
      await onShards(
        db,
        'd',
        "SELECT max(a.attstattarget) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indexrelid WHERE i.indrelid = '%s'::regclass",
      ),
    ).toEqual(['400', '400']);
    // Refused on a distributed, a reference and a Citus local table alike.
    for (const t of ['d', 'r', 'l']) {
      expect(await firstError(db.url, [`ALTER TABLE ${t} CLUSTER ON ${t}_a`])).toBe(REFUSED);
      expect(await firstError(db.url, [`ALTER TABLE ${t} SET WITHOUT CLUSTER`])).toBe(REFUSED);
      expect(await firstError(db.url, [`ALTER TABLE ${t} ALTER COLUMN a SET STATISTICS 100`])).toBe(REFUSED);
    }
    // Set on the local table before create_distributed_table: copied to each shard.
    expect(
      await firstError(db.url, [
        'BEGIN',
        'CREATE TABLE n (id bigint PRIMARY KEY, a text)',
        'CREATE INDEX n_a ON n (a)',
        'ALTER TABLE n CLUSTER ON n_a',
        'ALTER TABLE n ALTER COLUMN a SET STATISTICS 321',
        "SELECT create_distributed_table('n', 'id', shard_count => 2)",
        'COMMIT',
      ]),
    ).toBeUndefined();
    expect(
      await onShards(
        db,
        'n',
        "SELECT attstattarget FROM pg_attribute WHERE attrelid = '%s'::regclass AND attname = 'a'",
      ),
    ).toEqual(['321', '321']);
    expect(
      await onShards(db, 'n', "SELECT count(*) FROM pg_index WHERE indrelid = '%s'::regclass AND indisclustered"),
    ).toEqual(['1', '1']);
  });

  it('plans REPLICA IDENTITY and a new table’s column statistics on distributed tables, and names CLUSTER ON and statistics changes Citus refuses as problems', async () => {
    const db = await freshDatabase(citus!, 'ts_plan');
    const manifest = (stats: number, cluster: boolean): Record<string, string> => ({
      'citus-migrate.yaml': `version: 1
tables:
  app.t:
    columns:
      id: { type: bigint, not_null: true }
      a: { type: text, statistics: ${stats} }
    primary_key: [id]
    distributed_by: id
    shard_count: 2
sql: [sql]
`,
      'sql/settings.sql': `CREATE INDEX t_a ON app.t (a);\nALTER TABLE app.t REPLICA IDENTITY FULL;\n${cluster ? 'ALTER TABLE app.t CLUSTER ON t_a;\n' : ''}`,
    });
    const first = projectDir(manifest(250, false));
    const applied = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: first });
    expect(applied.stderr).toBe(applied.code === 0 ? applied.stderr : '');
    expect(applied.code).toBe(0);
    expect(
      await onShards(
        db,
        'app.t',
        "SELECT attstattarget FROM pg_attribute WHERE attrelid = '%s'::regclass AND attname = 'a'",
      ),
    ).toEqual(['250', '250']);
    expect(await onShards(db, 'app.t', "SELECT relreplident FROM pg_class WHERE oid = '%s'::regclass")).toEqual([
      'f',
      'f',
    ]);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: first });
    expect(again.code).toBe(0);

    // Changing the statistics target, or declaring CLUSTER ON, on the distributed table: problems.
    const second = projectDir(manifest(500, true));
    const plan = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: second });
    const problems = (JSON.parse(plan.stdout) as { problems: { code: string; object: string }[] }).problems;
    expect(problems.map((p) => [p.code, p.object])).toEqual([
      ['citus_refuses_alter', 'column app.t.a'],
      ['citus_refuses_alter', 'cluster on app.t'],
    ]);
    const refused = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: second });
    expect(refused.code).not.toBe(0);
  });
});
