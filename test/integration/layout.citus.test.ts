// Citus's own layouts on a real coordinator + 2 workers: the facts the layout steps rely on, a
// database laid out by hand with Citus's functions (time-partitioned distributed table with
// columnar old partitions, a columnar table, a distributed schema, a citus-local table, a
// reference table, a LIST-partitioned local table, a distributed partition's own key, foreign
// key, column default and NOT NULL) introspected and rebuilt on an empty database
// with the same metadata and pg_dump, and a time-partition lifecycle kept by plan/apply.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { citusServers, firstError, freshDatabase, pollCount, type TestDb } from '../support/db.js';
import { schemaDump } from '../support/dump.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const LAYOUT = [
  'CREATE EXTENSION citus_columnar',
  'CREATE TABLE events (tenant_id bigint NOT NULL, ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts)',
  "SELECT create_distributed_table('events', 'tenant_id', shard_count => 4)",
  "SELECT create_time_partitions('events', '1 day', now() + interval '3 days', now() - interval '5 days')",
  'CREATE TABLE metrics (id bigint, v float8) USING columnar',
  "SELECT create_distributed_table('metrics', 'id', colocate_with => 'events')",
  'ALTER TABLE metrics SET (columnar.compression = lz4, columnar.stripe_row_limit = 20000)',
  'CREATE SCHEMA tenant_a',
  "SELECT citus_schema_distribute('tenant_a')",
  'CREATE TABLE tenant_a.notes (id bigint PRIMARY KEY, body text)',
  'CREATE TABLE countries (code text PRIMARY KEY)',
  "SELECT create_reference_table('countries')",
  'CREATE TABLE settings (k text PRIMARY KEY, v text)',
  "SELECT citus_add_local_table_to_metadata('settings')",
  'CREATE TABLE regions (r text, n int) PARTITION BY LIST (r)',
  "CREATE TABLE regions_eu PARTITION OF regions FOR VALUES IN ('de', 'fr')",
  'CREATE TABLE regions_other PARTITION OF regions DEFAULT',
  // A distributed partition's own key and foreign keys (as pg_dump prints pagila's).
  'CREATE TABLE pay (tenant_id bigint NOT NULL, id bigint NOT NULL, country text, d date NOT NULL) PARTITION BY RANGE (d)',
  "CREATE TABLE pay_2024 PARTITION OF pay FOR VALUES FROM ('2024-01-01') TO ('2025-01-01')",
  "SELECT create_distributed_table('pay', 'tenant_id', colocate_with => 'events')",
  'ALTER TABLE ONLY pay_2024 ADD CONSTRAINT pay_2024_pkey PRIMARY KEY (tenant_id, id, d)',
  'ALTER TABLE ONLY pay_2024 ADD CONSTRAINT pay_2024_country_fkey FOREIGN KEY (country) REFERENCES countries (code)',
  "ALTER TABLE ONLY pay_2024 ALTER COLUMN country SET DEFAULT 'de'",
  'ALTER TABLE ONLY pay_2024 ALTER COLUMN country SET NOT NULL',
];

/** What Citus and PostgreSQL record about the layout, comparable across databases. */
async function layoutOf(db: TestDb): Promise<unknown> {
  return {
    citus: await db.query(
      `SELECT logicalrelid::text AS rel, partmethod, repmodel, colocationid <> 0 AS colocated, autoconverted,
              (SELECT count(*)::int FROM pg_dist_shard s WHERE s.logicalrelid = p.logicalrelid) AS shards
       FROM pg_dist_partition p ORDER BY 1`,
    ),
    // Tables that share a colocation group, by name.
    groups: await db.query(
      `SELECT array_agg(logicalrelid::text ORDER BY logicalrelid::text) AS members FROM pg_dist_partition
       WHERE colocationid <> 0 GROUP BY colocationid ORDER BY 1`,
    ),
    schemas: await db.query('SELECT schemaid::regnamespace::text AS schema FROM pg_dist_schema'),
    partitions: await db.query(
      `SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound, a.amname FROM pg_class c
       JOIN pg_am a ON a.oid = c.relam WHERE c.relispartition ORDER BY 1`,
    ),
    am: await db.query(
      "SELECT c.relname, a.amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE c.relkind = 'r' AND a.amname <> 'heap' ORDER BY 1",
    ),
    columnarOptions: await db.query('SELECT relation::text AS rel, * FROM columnar.options ORDER BY 1'),
  };
}

async function setUp(db: TestDb, statements: readonly string[]): Promise<void> {
  // One statement at a time: Citus refuses some function calls after parallel DDL in one transaction.
  for (const s of statements) await db.query(s);
}

describe.skipIf(!citus)('Citus layouts', () => {
  it('Citus facts: citus_columnar is not created with citus; alter_old_partitions_set_access_method commits per partition (refused in a transaction block); public cannot be a distributed schema; a local table with a foreign key to a reference table is converted by Citus and back', async () => {
    const db = await freshDatabase(citus!, 'lay_facts');
    expect(await db.query("SELECT extname FROM pg_extension WHERE extname = 'citus_columnar'")).toEqual([]);
    expect(await firstError(db.url, ['CREATE TABLE c (a int) USING columnar'])).toBe(
      'access method "columnar" does not exist',
    );
    await setUp(db, [
      'CREATE EXTENSION citus_columnar',
      'CREATE TABLE e (t int, ts timestamptz) PARTITION BY RANGE (ts)',
      "SELECT create_distributed_table('e', 't', shard_count => 2)",
      "SELECT create_time_partitions('e', '1 day', '2025-01-04 00:00+00', '2025-01-01 00:00+00')",
    ]);
    expect(await db.query('SELECT partition::text AS p, from_value, to_value FROM time_partitions ORDER BY 1')).toEqual(
      [
        { p: 'e_p2025_01_01', from_value: '2025-01-01 00:00:00+00', to_value: '2025-01-02 00:00:00+00' },
        { p: 'e_p2025_01_02', from_value: '2025-01-02 00:00:00+00', to_value: '2025-01-03 00:00:00+00' },
        { p: 'e_p2025_01_03', from_value: '2025-01-03 00:00:00+00', to_value: '2025-01-04 00:00:00+00' },
      ],
    );
    expect(
      await firstError(db.url, [
        'BEGIN',
        "CALL alter_old_partitions_set_access_method('e', '2025-01-03 00:00+00', 'columnar')",
        'COMMIT',
      ]),
    ).toBe('invalid transaction termination');
    // drop_old_time_partitions runs inside a transaction.
    expect(
      await firstError(db.url, ['BEGIN', "CALL drop_old_time_partitions('e', '2025-01-02 00:00+00')", 'COMMIT']),
    ).toBeUndefined();
    expect(await db.query('SELECT count(*)::int AS n FROM time_partitions')).toEqual([{ n: 2 }]);
    expect(await firstError(db.url, ["SELECT citus_schema_distribute('public')"])).toBe(
      'public schema cannot be distributed',
    );
    await setUp(db, [
      "CREATE TABLE ref (id int PRIMARY KEY); SELECT create_reference_table('ref')",
      'CREATE TABLE loc (id int, rid int)',
      'ALTER TABLE loc ADD CONSTRAINT loc_fk FOREIGN KEY (rid) REFERENCES ref (id)',
    ]);
    expect(await db.query("SELECT autoconverted FROM pg_dist_partition WHERE logicalrelid = 'loc'::regclass")).toEqual([
      { autoconverted: true },
    ]);
    await db.query('ALTER TABLE loc DROP CONSTRAINT loc_fk');
    expect(await db.query("SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'loc'::regclass")).toEqual([]);
  });

  it('columnar options: ALTER TABLE … SET / RESET (columnar.…) reaches every shard, in a transaction too; a declared option is set, an undeclared one is named, and reset with prune', async () => {
    const db = await freshDatabase(citus!, 'lay_colopt');
    await setUp(db, [
      'CREATE EXTENSION citus_columnar',
      'CREATE TABLE m (id bigint, v float8) USING columnar',
      "SELECT create_distributed_table('m', 'id', shard_count => 2)",
      'CREATE TABLE pe (id int, d date) PARTITION BY RANGE (d)',
      "CREATE TABLE pe_1 PARTITION OF pe FOR VALUES FROM ('2024-01-01') TO ('2025-01-01') USING columnar",
      'ALTER TABLE pe_1 SET (columnar.compression = lz4)',
    ]);
    const onShards = async (): Promise<string[]> =>
      (
        await db.query<{ result: string }>(
          `SELECT result FROM run_command_on_shards('m', $$SELECT compression || '/' || stripe_row_limit FROM columnar.options WHERE relation = '%s'::regclass$$) ORDER BY shardid`,
        )
      ).map((r) => r.result);
    expect(
      await firstError(db.url, [
        'BEGIN',
        "ALTER TABLE m SET (columnar.compression = 'lz4', columnar.stripe_row_limit = 20000)",
        'COMMIT',
      ]),
    ).toBeUndefined();
    expect(await onShards()).toEqual(['lz4/20000', 'lz4/20000']);
    expect(await firstError(db.url, ['CREATE TABLE h (a int)', 'ALTER TABLE h SET (columnar.compression = lz4)'])).toBe(
      'columnar storage parameters specified on non-columnar table',
    );
    const dir = mkdtempSync(join(tmpdir(), 'cm-layout-'));
    const manifest = (extra: string): void =>
      writeFileSync(
        join(dir, 'citus-migrate.yaml'),
        `version: 1\n${extra}tables:\n  h: { columns: { a: integer } }\n  pe: { columns: { id: integer, d: date }, partition_by: range (d), partitions: { pe_1: { from: 2024-01-01, to: 2025-01-01, access_method: columnar } } }\n  m:\n    distributed_by: id\n    shard_count: 2\n    access_method: columnar\n    columnar_options: { compression_level: 7 }\n    columns: { id: bigint, v: double precision }\n`,
      );
    manifest('');
    const plan = JSON.parse((await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir })).stdout) as {
      transaction: { steps: { sql: string[] }[] };
      unmanaged: string[];
      notManaged: { kind: string; name: string }[];
    };
    // A columnar partition's options are managed as a table's: an undeclared one is named, and reset with prune.
    expect(plan.notManaged).toEqual([]);
    expect(plan.transaction.steps.map((s) => s.sql.join('; '))).toEqual([
      'ALTER TABLE public.m SET (columnar.compression_level = 7)',
    ]);
    expect(plan.unmanaged).toEqual([
      'columnar option columnar.compression = lz4 of table public.pe_1',
      'columnar option columnar.compression = lz4 of table public.m',
      'columnar option columnar.stripe_row_limit = 20000 of table public.m',
    ]);
    manifest('prune: true\n');
    const applied = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const c = (await db.query<{ c: string }>("SELECT current_setting('columnar.compression') AS c"))[0]!.c;
    expect(await onShards()).toEqual([`${c}/150000`, `${c}/150000`]);
    expect(await db.query("SELECT compression_level FROM columnar.options WHERE relation = 'm'::regclass")).toEqual([
      { compression_level: 7 },
    ]);
    expect(await db.query("SELECT compression FROM columnar.options WHERE relation = 'pe_1'::regclass")).toEqual([
      { compression: c },
    ]);
    // Declared on the partition, set there (in the plan's transaction), and the next plan is empty.
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      readFileSync(join(dir, 'citus-migrate.yaml'), 'utf8').replace(
        'access_method: columnar }',
        'access_method: columnar, columnar_options: { compression: lz4, stripe_row_limit: 5000 } }',
      ),
    );
    const own = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(own.code, own.stdout + own.stderr).toBe(0);
    expect(own.stdout).toContain('verified: planning again is empty');
    expect(
      await db.query("SELECT compression, stripe_row_limit FROM columnar.options WHERE relation = 'pe_1'::regclass"),
    ).toEqual([{ compression: 'lz4', stripe_row_limit: 5000 }]);
  });

  it('a layout made with Citus functions: introspect plans empty; applied to an empty database it rebuilds the same metadata and pg_dump, and plans empty there', async () => {
    const src = await freshDatabase(citus!, 'lay_src');
    await setUp(src, LAYOUT);
    await src.query("CALL alter_old_partitions_set_access_method('events', now() - interval '2 days', 'columnar')");
    const dir = mkdtempSync(join(tmpdir(), 'cm-layout-'));
    const manifest = join(dir, 'citus-migrate.yaml');
    const intro = await cli(['introspect', '--database', src.url, '--out', manifest]);
    expect(intro.code, intro.stderr).toBe(0);
    const onSrc = await cli(
      ['plan', '--database', src.url, '--detailed-exitcode', '--include-unmanaged', '--format', 'json'],
      { cwd: dir },
    );
    expect(onSrc.code, onSrc.stdout + onSrc.stderr).toBe(0);

    const dst = await freshDatabase(citus!, 'lay_dst');
    const applied = await cli(['apply', '--database', dst.url, '--auto-approve'], { cwd: dir });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(await layoutOf(dst)).toEqual(await layoutOf(src));
    // Options set before create_distributed_table reach the shards.
    expect(
      await dst.query(
        `SELECT DISTINCT result FROM run_command_on_shards('metrics', $$SELECT compression || '/' || stripe_row_limit FROM columnar.options WHERE relation = '%s'::regclass$$)`,
      ),
    ).toEqual([{ result: 'lz4/20000' }]);
    expect(schemaDump(dst)).toBe(schemaDump(src));
    const again = await cli(['plan', '--database', dst.url, '--detailed-exitcode', '--include-unmanaged'], {
      cwd: dir,
    });
    expect(again.code, again.stdout).toBe(0);
  });

  it('time partitions kept by the manifest: created ahead, dropped after retention (hazard drops_data), made columnar after COMMIT; the next plan is empty', async () => {
    const db = await freshDatabase(citus!, 'lay_time');
    const dir = mkdtempSync(join(tmpdir(), 'cm-timeparts-'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      `version: 1
colocation:
  tenants: { shard_count: 4 }
tables:
  events:
    columns:
      tenant_id: { type: bigint, not_null: true }
      ts: { type: timestamptz, not_null: true }
    distributed_by: tenant_id
    colocation: tenants
    partition_by: range (ts)
    time_partitions: { interval: 1 day, premake: 3, retention: 10 days, columnar_after: 3 days }
`,
    );
    const first = await cli(['apply', '--database', db.url, '--auto-approve', '--format', 'json'], { cwd: dir });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const parts = async () =>
      db.query<{ p: string; am: string }>(
        "SELECT partition::text AS p, access_method AS am FROM time_partitions WHERE parent_table = 'events'::regclass ORDER BY from_value::timestamptz",
      );
    const created = await parts();
    // Today's partition and three more (the fourth day ahead is reached at now + 3 days).
    expect(created.length).toBeGreaterThanOrEqual(4);
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_dist_partition WHERE logicalrelid::text LIKE 'events%'"),
    ).toEqual([{ n: created.length + 1 }]);
    // Old partitions appear (a backfill): the plan drops those past retention and converts the rest.
    await db.query("SELECT create_time_partitions('events', '1 day', now(), now() - interval '14 days')");
    const plan = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    const doc = JSON.parse(plan.stdout) as {
      hazards: string[];
      transaction: { steps: { kind: string }[] };
      afterCommit: { kind: string }[];
    };
    expect(doc.transaction.steps.map((s) => s.kind)).toEqual(['drop_old_time_partitions']);
    expect(doc.afterCommit.map((s) => s.kind)).toEqual(['set_old_partitions_access_method']);
    expect(doc.hazards).toEqual(expect.arrayContaining(['drops_data', 'rewrites_table', 'non_transactional']));
    const refused = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('drops_data');
    const second = await cli(
      [
        'apply',
        '--database',
        db.url,
        '--auto-approve',
        '--allow-hazards',
        'drops_data,rewrites_table,non_transactional',
      ],
      { cwd: dir },
    );
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const after = await parts();
    const oldest = await db.query<{ ok: boolean }>(
      "SELECT min(from_value::timestamptz) >= now() - interval '11 days' AS ok FROM time_partitions WHERE parent_table = 'events'::regclass",
    );
    expect(oldest).toEqual([{ ok: true }]);
    const columnar = await db.query<{ ok: boolean }>(
      `SELECT bool_and(access_method = 'columnar') AS ok FROM time_partitions
       WHERE parent_table = 'events'::regclass AND to_value::timestamptz <= now() - interval '3 days'`,
    );
    expect(columnar).toEqual([{ ok: true }]);
    expect(after.some((p) => p.am === 'heap')).toBe(true);
    const empty = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], { cwd: dir });
    expect(empty.code, empty.stdout).toBe(0);
  });

  it('the cluster guard: a plan that distributes a table is refused (exit 7, nothing run) while a background job runs, a node is inactive or another session moves a shard, and goes ahead once they ended', async () => {
    const db = await freshDatabase(citus!, 'lay_guard');
    const dir = mkdtempSync(join(tmpdir(), 'cm-guard-'));
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      'version: 1\ntables:\n  t: { distributed_by: id, shard_count: 2, columns: { id: bigint } }\n',
    );
    // A job row as citus_rebalance_start leaves it (no task: the background queue leaves it alone).
    const [job] = await db.query<{ id: string }>(
      "INSERT INTO pg_dist_background_job (state, job_type, description) VALUES ('running', 'rebalance', 'Rebalance all colocation groups') RETURNING job_id::text AS id",
    );
    const busy = await cli(['apply', '--database', db.url, '--auto-approve', '--wait', '2s'], { cwd: dir });
    expect(busy.code).toBe(7);
    expect(busy.stderr).toContain(`background job ${job!.id} (rebalance, running): Rebalance all colocation groups`);
    expect(busy.stderr).toContain('nothing was run (waited 2s)');
    expect(await db.query("SELECT 1 FROM pg_class WHERE relname = 't'")).toEqual([]);
    await db.query(
      `UPDATE pg_dist_background_job SET state = 'finished', finished_at = now() WHERE job_id = ${job!.id}`,
    );

    const [w] = await db.query<{ host: string; port: number }>(
      'SELECT nodename AS host, nodeport AS port FROM pg_dist_node WHERE groupid <> 0 ORDER BY nodeport DESC LIMIT 1',
    );
    await db.query(`SELECT citus_disable_node('${w!.host}', ${w!.port}, synchronous => true)`);
    const inactive = await cli(['apply', '--database', db.url, '--auto-approve', '--wait', '0s'], { cwd: dir });
    expect(inactive.code).toBe(7);
    expect(inactive.stderr).toContain(`node ${w!.host}:${w!.port} is inactive`);
    await db.query(`SELECT citus_activate_node('${w!.host}', ${w!.port})`);

    // A shard move another session runs in the foreground, held up by a lock on its table: it
    // holds Citus's placement-colocation lock all along, which is what the guard reads.
    await setUp(db, [
      'CREATE TABLE mv (id bigint PRIMARY KEY)',
      "SELECT create_distributed_table('mv', 'id', shard_count => 2)",
      'INSERT INTO mv SELECT generate_series(1, 100)',
    ]);
    const [shard] = await db.query<{ id: string; host: string; port: number; target: number }>(
      `SELECT p.shardid::text AS id, n.nodename AS host, n.nodeport AS port,
         (SELECT o.nodeport FROM pg_dist_node o WHERE o.groupid NOT IN (0, n.groupid) LIMIT 1) AS target
       FROM pg_dist_placement p JOIN pg_dist_shard s USING (shardid) JOIN pg_dist_node n ON n.groupid = p.groupid
       WHERE s.logicalrelid = 'mv'::regclass ORDER BY 1 LIMIT 1`,
    );
    const holder = new pg.Client({ connectionString: db.url });
    const mover = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await mover.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE mv IN ACCESS EXCLUSIVE MODE');
    const moving = mover.query(
      `SELECT citus_move_shard_placement(${shard!.id}, '${shard!.host}', ${shard!.port}, '${shard!.host}', ${shard!.target}, shard_transfer_mode => 'block_writes')`,
    );
    expect(
      await pollCount(
        db,
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT citus_move_shard_placement%' AND wait_event_type = 'Lock'",
        (n) => n === 1,
      ),
    ).toBe(true);
    const moved = await cli(['apply', '--database', db.url, '--auto-approve', '--wait', '0s'], { cwd: dir });
    await holder.query('COMMIT');
    await holder.end();
    await moving;
    await mover.end();
    expect(moved.code, moved.stdout + moved.stderr).toBe(7);
    expect(moved.stderr).toMatch(
      /session \d+ is moving, copying or splitting shards: SELECT citus_move_shard_placement\(/,
    );

    const ok = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
  });
});
