// Online changes on a real coordinator + 2 workers: a table holding rows distributed with
// create_distributed_table_concurrently while a client keeps inserting (every acknowledged row is
// there afterwards), its colocated member and foreign key after it; an invalid index left by a
// failed CREATE INDEX CONCURRENTLY rebuilt; a foreign key and a CHECK left NOT VALID validated;
// a new CHECK added NOT VALID and validated after COMMIT.
// On a cluster of its own where it can start one: create_distributed_table_concurrently makes a
// logical replication slot, which waits for every transaction running on the coordinator's
// server (any database) to end — the other test files' transactions would hold it up.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPgInstall, startLocalCluster, type LocalCluster } from '../../src/cluster/local.js';
import { citusServers, firstError, freshDatabase } from '../support/db.js';
import type { ServerInfo } from '../support/servers.js';
import { cli } from '../support/run-cli.js';

const shared = citusServers();
let citus: ServerInfo | null = shared;
let own: LocalCluster | undefined;

beforeAll(async () => {
  const install = findPgInstall();
  if (!shared || !install?.hasCitus) return; // Citus in containers or at a URL: use the shared one
  own = await startLocalCluster({ citus: true, workers: 2, install });
  // Citus drops the shards it replaced later (every 15 s): held, so a test sees them.
  const c = new pg.Client({ host: '127.0.0.1', port: own.coordinator.port, user: 'postgres', database: 'postgres' });
  await c.connect();
  await c.query('ALTER SYSTEM SET citus.defer_shard_delete_interval = -1');
  await c.query('SELECT pg_reload_conf()');
  await c.end();
  citus = {
    user: 'postgres',
    citus: true,
    nodes: [own.coordinator, ...own.workers].map((n) => ({ host: '127.0.0.1', port: n.port })),
  };
}, 120_000);
afterAll(async () => {
  await own?.stop();
});

function project(manifest: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-online-'));
  writeFileSync(join(dir, 'citus-migrate.yaml'), manifest);
  return dir;
}

const MANIFEST = `version: 1
colocation:
  tenants: { shard_count: 4 }
tables:
  orders:
    online: true
    columns:
      w: { type: bigint, not_null: true }
      id: { type: bigint, not_null: true }
      v: text
    primary_key: [w, id]
    distributed_by: w
    colocation: tenants
    indexes: [{ name: orders_v, columns: [v] }]
  lines:
    online: true
    columns:
      w: { type: bigint, not_null: true }
      id: { type: bigint, not_null: true }
      n: integer
    primary_key: [w, id, n]
    distributed_by: w
    colocation: tenants
    foreign_keys: [{ name: lines_order, columns: [w, id], references: orders, ref_columns: [w, id] }]
`;

interface PlanJson {
  transaction: { steps: { kind: string; sql: string[] }[] };
  afterCommit: { kind: string; sql: string[]; size?: { rows: number } }[];
}

describe.skipIf(!shared)('online changes on Citus', () => {
  it('distributes tables holding rows concurrently while a client inserts: no acknowledged row is lost, and the next plan is empty', async () => {
    const db = await freshDatabase(citus!, 'online');
    await db.query(`CREATE TABLE orders (w bigint NOT NULL, id bigint NOT NULL, v text, PRIMARY KEY (w, id));
      INSERT INTO orders SELECT g % 50, g, 'x' FROM generate_series(1, 50000) g;
      CREATE TABLE lines (w bigint NOT NULL, id bigint NOT NULL, n integer NOT NULL, PRIMARY KEY (w, id, n));
      INSERT INTO lines SELECT g % 50, g, 1 FROM generate_series(1, 50000) g;
      ANALYZE orders, lines`);
    const dir = project(MANIFEST);
    const planned = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as PlanJson;
    expect(plan.transaction.steps.map((s) => s.kind)).toEqual([]);
    expect(plan.afterCommit.map((s) => s.kind)).toEqual([
      'create_index',
      'distribute_table_concurrently',
      'distribute_table_concurrently',
      'add_foreign_key',
      'validate_constraint',
    ]);
    expect(plan.afterCommit[0]!.sql).toEqual([
      'SET citus.max_adaptive_executor_pool_size TO 1',
      'CREATE INDEX CONCURRENTLY orders_v ON public.orders USING btree (v)',
      'RESET citus.max_adaptive_executor_pool_size',
    ]);
    expect(plan.afterCommit[1]!.size?.rows).toBe(50000);

    // A writer keeps inserting new orders through the coordinator while the apply runs.
    const writer = new pg.Client({ connectionString: db.url });
    await writer.connect();
    const acked: number[] = [];
    let stop = false;
    let slowest = 0;
    const writing = (async () => {
      for (let id = 100001; !stop; id++) {
        const t0 = performance.now();
        await writer.query('INSERT INTO orders VALUES ($1, $2, $3)', [id % 50, id, 'live']);
        slowest = Math.max(slowest, performance.now() - t0);
        acked.push(id);
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    const applied = await cli(
      ['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'copies_data,non_transactional'],
      { cwd: dir },
    );
    stop = true;
    await writing;
    await writer.end();
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(acked.length).toBeGreaterThan(0);
    const stored = new Set(
      (await db.query<{ id: string }>("SELECT id::text AS id FROM orders WHERE v = 'live'")).map((r) => Number(r.id)),
    );
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
    expect(await db.query('SELECT logicalrelid::text AS t, partmethod FROM pg_dist_partition ORDER BY 1')).toEqual([
      { t: 'lines', partmethod: 'h' },
      { t: 'orders', partmethod: 'h' },
    ]);
    expect(await db.query("SELECT convalidated FROM pg_constraint WHERE conname = 'lines_order'")).toEqual([
      { convalidated: true },
    ]);
    // Not asserted (shared machines): the slowest insert while the tables were distributed.
    process.stdout.write(`online: ${acked.length} inserts during apply, slowest ${slowest.toFixed(0)} ms\n`);
    // The coordinator keeps each table's replaced shard for Citus's deferred cleanup (held here on
    // the test's own cluster): neither planned nor named as unmanaged.
    if (own)
      expect((await db.query('SELECT object_name FROM pg_dist_cleanup WHERE object_type = 1')).length).toBeGreaterThan(
        0,
      );
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--format', 'json'], { cwd: dir });
    expect(again.code, again.stdout).toBe(0);
    expect((JSON.parse(again.stdout) as { unmanaged: string[] }).unmanaged).toEqual([]);
  });

  it('resumes: an index a failed CREATE INDEX CONCURRENTLY left invalid is rebuilt, and a foreign key left NOT VALID is validated', async () => {
    const db = await freshDatabase(citus!, 'online_resume');
    await db.query(`CREATE TABLE orders (w bigint NOT NULL, id bigint NOT NULL, v text, PRIMARY KEY (w, id));
      SELECT create_distributed_table('orders', 'w', shard_count => 4);
      CREATE TABLE lines (w bigint NOT NULL, id bigint NOT NULL, n integer NOT NULL, PRIMARY KEY (w, id, n));
      SELECT create_distributed_table('lines', 'w', colocate_with => 'orders');
      INSERT INTO orders SELECT g % 10, g, 'dup' FROM generate_series(1, 100) g;
      INSERT INTO lines SELECT g % 10, g, 1 FROM generate_series(1, 100) g`);
    // A unique build over duplicates fails and leaves the index invalid (on the coordinator too).
    expect(await firstError(db.url, ['CREATE UNIQUE INDEX CONCURRENTLY orders_v ON orders (w, v)'])).toMatch(
      /could not create unique index/,
    );
    await db.query(
      'ALTER TABLE lines ADD CONSTRAINT lines_order FOREIGN KEY (w, id) REFERENCES orders (w, id) NOT VALID',
    );
    await db.query('ALTER TABLE orders ADD CONSTRAINT orders_id_positive CHECK (id > 0) NOT VALID');
    await db.query("UPDATE orders SET v = 'v' || id::text");
    const dir = project(
      MANIFEST.replace(
        'indexes: [{ name: orders_v, columns: [v] }]',
        'indexes: [{ name: orders_v, columns: [w, v], unique: true }]',
      ) + 'sql: [checks.sql]\n',
    );
    // One CHECK left NOT VALID (validated, not dropped), one new (added NOT VALID, then validated).
    writeFileSync(
      join(dir, 'checks.sql'),
      `ALTER TABLE orders ADD CONSTRAINT orders_id_positive CHECK (id > 0);
ALTER TABLE lines ADD CONSTRAINT lines_n_positive CHECK (n > 0);
`,
    );
    const planned = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    const plan = JSON.parse(planned.stdout) as PlanJson;
    expect(plan.transaction.steps.map((s) => s.sql.join('; '))).toEqual([
      'SET LOCAL search_path TO public; ALTER TABLE lines ADD CONSTRAINT lines_n_positive CHECK (n > 0) NOT VALID; SET LOCAL search_path TO pg_catalog, public',
    ]);
    expect(plan.afterCommit.map((s) => s.sql.join('; '))).toEqual([
      'DROP INDEX CONCURRENTLY IF EXISTS public.orders_v',
      'SET citus.max_adaptive_executor_pool_size TO 1; CREATE UNIQUE INDEX CONCURRENTLY orders_v ON public.orders USING btree (w, v); RESET citus.max_adaptive_executor_pool_size',
      'ALTER TABLE public.lines VALIDATE CONSTRAINT lines_order',
      'ALTER TABLE public.orders VALIDATE CONSTRAINT orders_id_positive',
      'ALTER TABLE public.lines VALIDATE CONSTRAINT lines_n_positive',
    ]);
    const applied = await cli(
      ['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'non_transactional'],
      {
        cwd: dir,
      },
    );
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(await db.query("SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = 'orders_v'::regclass")).toEqual([
      { indisvalid: true },
    ]);
    // Validated on the shards too: a row breaking a CHECK is refused by the worker.
    expect(
      await db.query(
        "SELECT conname, convalidated FROM pg_constraint WHERE contype IN ('c', 'f') AND conrelid IN ('orders'::regclass, 'lines'::regclass) ORDER BY 1",
      ),
    ).toEqual([
      { conname: 'lines_n_positive', convalidated: true },
      { conname: 'lines_order', convalidated: true },
      { conname: 'orders_id_positive', convalidated: true },
    ]);
    expect(await firstError(db.url, ['INSERT INTO lines VALUES (1, 1, 0)'])).toMatch(/lines_n_positive/);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(again.code, again.stdout).toBe(0);
  });

  it('a table a failed create_distributed_table_concurrently left citus-local is planned back: undistributed in the transaction, distributed online after COMMIT', async () => {
    const db = await freshDatabase(citus!, 'online_failed');
    await db.query(`CREATE TABLE orders (w bigint NOT NULL, id bigint NOT NULL, v text, PRIMARY KEY (w, id));
      INSERT INTO orders SELECT g % 10, g, 'x' FROM generate_series(1, 1000) g`);
    // It fails once it made the table citus-local: its replication slot waits for a transaction
    // holding an xid, and a statement_timeout ends it there (as a lost connection or Ctrl-C would).
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('CREATE TABLE held (a int)');
      expect(
        await firstError(db.url, [
          "SET statement_timeout = '3s'",
          "SELECT create_distributed_table_concurrently('orders', 'w', shard_count => 4)",
        ]),
      ).toMatch(/statement timeout/);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect(await db.query("SELECT partmethod FROM pg_dist_partition WHERE logicalrelid = 'orders'::regclass")).toEqual([
      { partmethod: 'n' },
    ]);
    const dir = project(`version: 1
tables:
  orders: { online: true, distributed_by: w, shard_count: 4, columns: { w: bigint, id: bigint, v: text }, primary_key: [w, id] }
`);
    const planned = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    const plan = JSON.parse(planned.stdout) as PlanJson;
    expect(plan.transaction.steps.map((s) => s.kind)).toEqual(['undistribute_table']);
    expect(plan.afterCommit.map((s) => s.kind)).toEqual(['distribute_table_concurrently']);
    const applied = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], {
      cwd: dir,
    });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(
      await db.query(
        "SELECT partmethod, (SELECT count(*)::int FROM orders) AS n FROM pg_dist_partition WHERE logicalrelid = 'orders'::regclass",
      ),
    ).toEqual([{ partmethod: 'h', n: 1000 }]);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(again.code, again.stdout).toBe(0);
  });

  it('builds the indexes of sql: files concurrently after COMMIT: writes go on while it waits for a transaction on a worker; a build a worker shard failed is resumed', async () => {
    const db = await freshDatabase(citus!, 'online_sql_index');
    await db.query(`CREATE TABLE orders (w bigint NOT NULL, id bigint NOT NULL, v text, PRIMARY KEY (w, id));
      SELECT create_distributed_table('orders', 'w', shard_count => 4);
      INSERT INTO orders SELECT g % 10, g, 'v' || g FROM generate_series(1, 100) g;
      UPDATE orders SET v = 'dup' WHERE w = 3 AND id IN (3, 13)`); // two rows of one tenant, on one worker's shard
    const dir = project(`version: 1
tables:
  orders: { distributed_by: w, shard_count: 4, columns: { w: bigint, id: bigint, v: text }, primary_key: [w, id] }
sql: [indexes.sql]
`);
    writeFileSync(
      join(dir, 'indexes.sql'),
      `CREATE UNIQUE INDEX CONCURRENTLY orders_open ON orders (w, v) WHERE v IS NOT NULL;
CREATE INDEX CONCURRENTLY orders_lower ON orders (lower(v));
`,
    );
    const planned = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    const plan = JSON.parse(planned.stdout) as PlanJson;
    expect(plan.transaction.steps).toEqual([]);
    expect(plan.afterCommit.map((s) => s.sql.join('; '))).toEqual([
      'SET search_path TO public; SET citus.max_adaptive_executor_pool_size TO 1; CREATE UNIQUE INDEX CONCURRENTLY orders_open ON orders (w, v) WHERE v IS NOT NULL; RESET citus.max_adaptive_executor_pool_size; SET search_path TO pg_catalog, public',
      'SET search_path TO public; SET citus.max_adaptive_executor_pool_size TO 1; CREATE INDEX CONCURRENTLY orders_lower ON orders (lower(v)); RESET citus.max_adaptive_executor_pool_size; SET search_path TO pg_catalog, public',
    ]);
    const apply = ['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'non_transactional'];
    // The duplicates on one worker's shard fail the build there: the index is left invalid.
    const failed = await cli(apply, { cwd: dir });
    expect(failed.code, failed.stdout + failed.stderr).not.toBe(0);
    expect(failed.stderr).toMatch(/could not create unique index/);
    expect(await db.query("SELECT indisvalid FROM pg_index WHERE indexrelid = 'orders_open'::regclass")).toEqual([
      { indisvalid: false },
    ]);
    const resumed = JSON.parse(
      (await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir })).stdout,
    ) as PlanJson;
    expect(resumed.afterCommit.map((s) => s.sql.join('; '))).toEqual([
      'DROP INDEX CONCURRENTLY IF EXISTS public.orders_open',
      'SET search_path TO public; SET citus.max_adaptive_executor_pool_size TO 1; CREATE INDEX CONCURRENTLY orders_lower ON orders (lower(v)); RESET citus.max_adaptive_executor_pool_size; SET search_path TO pg_catalog, public',
      'SET search_path TO public; SET citus.max_adaptive_executor_pool_size TO 1; CREATE UNIQUE INDEX CONCURRENTLY orders_open ON orders (w, v) WHERE v IS NOT NULL; RESET citus.max_adaptive_executor_pool_size; SET search_path TO pg_catalog, public',
    ]);
    await db.query('UPDATE orders SET v = NULL WHERE w = 3 AND id = 13');
    // A transaction writing tenant 3 (its shard is on a worker) stays open: the builds wait for it,
    // and meanwhile other writes go through (a CREATE INDEX would hold them all behind it).
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query("INSERT INTO orders VALUES (3, 1000, 'held')");
    let settled = false;
    const applying = cli(apply, { cwd: dir }).finally(() => {
      settled = true;
    });
    try {
      await new Promise((r) => setTimeout(r, 3000));
      expect(settled).toBe(false);
      expect(
        await firstError(db.url, [
          "SET statement_timeout = '5s'",
          "INSERT INTO orders SELECT 7, 2000 + g, 'w' || g FROM generate_series(1, 10) g",
        ]),
      ).toBeUndefined();
      expect(settled).toBe(false);
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    const applied = await applying;
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(
      await db.query(
        "SELECT indexrelid::regclass::text AS ix, indisvalid FROM pg_index WHERE indrelid = 'orders'::regclass AND NOT indisprimary ORDER BY 1",
      ),
    ).toEqual([
      { ix: 'orders_lower', indisvalid: true },
      { ix: 'orders_open', indisvalid: true },
    ]);
    // Built on every shard: a duplicate is refused by the worker that holds it.
    expect(await firstError(db.url, ["INSERT INTO orders VALUES (3, 1001, 'dup')"])).toMatch(/orders_open/);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(again.code, again.stdout).toBe(0);
  });

  it('names the transactions an online distribution waits for (any database of the server), and goes on once they end', async () => {
    const db = await freshDatabase(citus!, 'online_wait');
    const other = await freshDatabase(citus!, 'online_other');
    await db.query(`CREATE TABLE orders (w bigint NOT NULL, id bigint NOT NULL, v text, PRIMARY KEY (w, id));
      INSERT INTO orders SELECT g % 10, g, 'x' FROM generate_series(1, 1000) g`);
    const holder = new pg.Client({ connectionString: other.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('CREATE TABLE held (a int)'); // an xid: logical decoding must wait for it
    await new Promise((r) => setTimeout(r, 6000));
    const dir = project(`version: 1
tables:
  orders: { online: true, distributed_by: w, shard_count: 4, columns: { w: bigint, id: bigint, v: text }, primary_key: [w, id] }
`);
    const applying = cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    await new Promise((r) => setTimeout(r, 3000));
    await holder.query('ROLLBACK');
    await holder.end();
    const applied = await applying;
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toMatch(
      /note: create_distributed_table_concurrently waits for these transactions to end .*\n {2}pid \d+ \(postgres on online_other_\w+\): in a transaction for \d+s/,
    );
  });
});
