// A new column with a volatile default, added online to tables that hold rows (plan/backfill.ts):
// no rewrite under ACCESS EXCLUSIVE, the rows filled after COMMIT in batches (per shard on a
// distributed table), NOT NULL set without a scan, every row its own value; an apply interrupted
// while it fills leaves its marker, and the next plan finishes the work; with the obstacle on a
// worker (a session holding one shard), the finishing step ends within --lock-timeout and the
// next apply finishes.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, FILLING, freshDatabase, holdFirstShard, pollCount, sql, type TestDb } from '../support/db.js';
import { hostileRole } from '../support/hostile.js';
import { HOSTILE_CITUS_SETTINGS, HOSTILE_SETTINGS, plantEverything } from '../support/plant.js';
import { recordQueries } from '../support/sql-audit.js';
import { startCli } from '../support/cli-process.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const manifest = (added: boolean): string => `version: 1
tables:
  orders:
    distributed_by: w
    shard_count: 4
    online: true
    columns:
      w: { type: bigint, not_null: true }
      id: { type: bigint, not_null: true }${added ? '\n      ref: { type: uuid, not_null: true, default: gen_random_uuid() }' : ''}
    primary_key: [w, id]
  audit:
    online: true
    columns:
      w: { type: bigint, not_null: true }${added ? '\n      at: { type: timestamptz, default: clock_timestamp() }' : ''}
`;

async function loaded(prefix: string, rows: number): Promise<TestDb> {
  const db = await freshDatabase(citus!, prefix);
  const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: projectDir(manifest(false)) });
  expect(r.code, r.stderr).toBe(0);
  await db.query(`INSERT INTO orders SELECT g % 100, g FROM generate_series(1, ${rows}) g`);
  await db.query(`INSERT INTO audit SELECT g FROM generate_series(1, 12345) g`);
  return db;
}

/** Rows of a shard whose column is NULL, summed over the shards, read on the workers. */
const nullsOnShards = async (db: TestDb): Promise<number> =>
  (
    await db.query<{ n: number }>(
      "SELECT sum(result::int)::int AS n FROM run_command_on_shards('orders', 'SELECT count(*) FROM %s WHERE ref IS NULL')",
    )
  )[0]!.n;

const markers = (db: TestDb): Promise<{ conname: string }[]> =>
  db.query("SELECT conname FROM pg_constraint WHERE conname LIKE 'citus_migrate_backfill_%' ORDER BY conname");

describe.skipIf(!citus)('a volatile default added online on Citus', () => {
  it('fills the rows after COMMIT per shard, each its own value, NOT NULL set on every shard; the next plan is empty', async () => {
    const db = await loaded('backfill', 30_000);
    const dir = projectDir(manifest(true));
    const plan = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(plan.stdout).not.toContain('rewrites');
    expect(plan.stdout).toContain('add column ref uuid to public.orders\n');
    expect(plan.stdout).toContain(
      'fill public.orders.ref with its default in batches of 64 pages per shard, each committed',
    );
    expect(plan.stdout).toContain('fill public.audit.at with its default in batches of 64 pages, each committed');
    const rec = recordQueries();
    let r: Awaited<ReturnType<typeof cli>>;
    try {
      r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'non_transactional'], {
        cwd: dir,
      });
    } finally {
      rec.stop();
    }
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // The swap that ends it waits for a lock at most 200 ms, and (a superuser applies) has an
    // autovacuum in its way cancelled after 10 ms, on the workers too (SET LOCAL is propagated):
    // after a fill autovacuum goes from shard to shard, and under the default deadlock_timeout
    // (1 s) it was never cancelled: the swap failed after its retries (perf:disruption, 6 M rows).
    const swap = rec.texts.findIndex((t) => t.includes('DROP CONSTRAINT citus_migrate_backfill_ref'));
    expect(swap).toBeGreaterThan(0);
    const before = rec.texts.slice(rec.texts.lastIndexOf('BEGIN', swap), swap);
    expect(before).toContain('SET LOCAL lock_timeout = 200');
    expect(before).toContain('SET LOCAL deadlock_timeout = 10');
    expect(before.indexOf("SET LOCAL citus.propagate_set_commands TO 'local'")).toBeLessThan(
      before.indexOf('SET LOCAL deadlock_timeout = 10'),
    );
    expect(await db.query('SELECT count(*)::int AS n, count(DISTINCT ref)::int AS d FROM orders')).toEqual([
      { n: 30_000, d: 30_000 },
    ]);
    expect(await db.query('SELECT count(*)::int AS n, count(at)::int AS filled FROM audit')).toEqual([
      { n: 12_345, filled: 12_345 },
    ]);
    expect(await nullsOnShards(db)).toBe(0);
    // NOT NULL on the coordinator and on each shard; no marker left anywhere.
    expect(
      await db.query(
        "SELECT bool_and(result = 't') AS ok FROM run_command_on_shards('orders', $$SELECT attnotnull FROM pg_attribute WHERE attrelid = '%s'::regclass AND attname = 'ref'$$)",
      ),
    ).toEqual([{ ok: true }]);
    expect(
      await db.query("SELECT attnotnull FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'ref'"),
    ).toEqual([{ attnotnull: true }]);
    expect(await markers(db)).toEqual([]);
    expect(
      await db.query(
        "SELECT count(*)::int AS n FROM run_command_on_workers($$SELECT count(*) FROM pg_constraint WHERE conname LIKE 'citus_migrate_backfill_%'$$) WHERE result <> '0'",
      ),
    ).toEqual([{ n: 0 }]);
    // The sync trigger and its function are gone from every node and shard.
    expect(
      await db.query(
        "SELECT count(*)::int AS n FROM run_command_on_all_nodes($$SELECT count(*) FROM pg_proc WHERE proname LIKE 'citus_migrate_sync_%'$$) WHERE result <> '0'",
      ),
    ).toEqual([{ n: 0 }]);
    expect(
      await db.query(
        "SELECT count(*)::int AS n FROM run_command_on_shards('orders', $$SELECT count(*) FROM pg_trigger WHERE tgrelid = 'public.%s'::regclass AND tgname LIKE 'citus_migrate_sync_%%'$$) WHERE result <> '0'",
      ),
    ).toEqual([{ n: 0 }]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
    // New rows take the default.
    await db.query('INSERT INTO orders (w, id) VALUES (1, 999999)');
    expect(await db.query('SELECT ref IS NOT NULL AS set FROM orders WHERE id = 999999')).toEqual([{ set: true }]);
  });

  it('interrupted while filling, then held up by a lock on a worker: the marker stays, each next plan says so, and the last apply finishes', async () => {
    const db = await loaded('backfill_int', 400_000);
    const dir = projectDir(manifest(true));
    const { child, done } = startCli(
      ['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'non_transactional'],
      { cwd: dir },
    );
    expect(await pollCount(db, FILLING, (n) => n > 0, 1000, 10)).toBe(true);
    child.kill('SIGINT');
    const res = await done;
    expect(res.code, res.stderr).toBe(130);
    expect(await markers(db)).toEqual([
      { conname: 'citus_migrate_backfill_at' },
      { conname: 'citus_migrate_backfill_ref' },
    ]);
    expect(await nullsOnShards(db)).toBeGreaterThan(0);
    // A row not filled yet, updated by the application, gets its default from the sync trigger
    // (the marker refused the UPDATE before it): on a worker's shard, through the coordinator.
    const [unfilled] = await db.query<{ w: number; id: number }>(
      'SELECT w, id FROM orders WHERE ref IS NULL ORDER BY w, id LIMIT 1',
    );
    await db.query(`UPDATE orders SET id = id WHERE w = ${unfilled!.w} AND id = ${unfilled!.id}`);
    expect(
      await db.query(`SELECT ref IS NOT NULL AS set FROM orders WHERE w = ${unfilled!.w} AND id = ${unfilled!.id}`),
    ).toEqual([{ set: true }]);
    // Set to NULL over a value, a row is still refused.
    await expect(
      db.query(`UPDATE orders SET ref = NULL WHERE w = ${unfilled!.w} AND id = ${unfilled!.id}`),
    ).rejects.toThrow(/citus_migrate_backfill_ref/);

    // The plan resumes: no column to add, the filling and finishing steps again.
    const plan = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).not.toContain('add column ref');
    expect(plan.stdout).toContain('fill public.orders.ref with its default');
    expect(plan.stdout).toContain('set NOT NULL on public.orders.ref');

    // A session on a worker holds one shard: filling goes on (row locks), the finishing step's
    // ACCESS EXCLUSIVE waits for it on the worker, and --lock-timeout ends that wait there.
    const holder = await holdFirstShard(citus!, db, 'orders', 'ACCESS SHARE');
    try {
      const t0 = Date.now();
      const held = await cli(
        [
          'apply',
          '--database',
          db.url,
          '--auto-approve',
          '--allow-hazards',
          'non_transactional',
          '--lock-timeout',
          '1s',
          '--retries',
          '0',
        ],
        { cwd: dir },
      );
      expect(held.code, held.stderr).toBe(1);
      expect(held.stderr).toContain('canceling statement due to lock timeout');
      expect(held.stderr).toMatch(/set NOT NULL on public\.orders\.ref/);
      expect(Date.now() - t0).toBeLessThan(60_000);
      expect(await nullsOnShards(db)).toBe(0);
      expect(await markers(db)).toContainEqual({ conname: 'citus_migrate_backfill_ref' });
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const last = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'non_transactional'], {
      cwd: dir,
    });
    expect(last.code, last.stderr).toBe(0);
    expect(await markers(db)).toEqual([]);
    expect(await db.query('SELECT count(*)::int AS n, count(DISTINCT ref)::int AS d FROM orders')).toEqual([
      { n: 400_000, d: 400_000 },
    ]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });

  it('a row written with an explicit NULL while the marker stands is refused, not left empty', async () => {
    const db = await loaded('backfill_null', 100);
    await db.query(`ALTER TABLE audit ADD COLUMN at timestamptz;
      ALTER TABLE audit ALTER COLUMN at SET DEFAULT clock_timestamp();
      ALTER TABLE audit ADD CONSTRAINT citus_migrate_backfill_at CHECK (at IS NOT NULL) NOT VALID`);
    await expect(db.query('INSERT INTO audit (w, at) VALUES (1, NULL)')).rejects.toThrow(/citus_migrate_backfill_at/);
    const plan = await cli(['plan', '--database', db.url], { cwd: projectDir(manifest(true)) });
    expect(plan.stdout).toContain('fill public.audit.at with its default');
    expect(plan.stdout).toContain('drop citus_migrate_backfill_at of public.audit');
    // Without the column in the manifest, only the marker goes (the column is not the plan's to fill).
    const gone = await cli(['plan', '--database', db.url], {
      cwd: projectDir(manifest(true).replace('\n      at: { type: timestamptz, default: clock_timestamp() }', '')),
    });
    expect(gone.stdout).not.toContain('fill public.audit.at');
    expect(gone.stdout).toContain('drop citus_migrate_backfill_at of public.audit');
    // introspect leaves the marker out of the SQL files, and says so.
    const out = join(mkdtempSync(join(tmpdir(), 'cm-backfill-intro-')), 'm.yaml');
    const intro = await cli(['introspect', '--database', db.url, '--out', out]);
    expect(intro.code, intro.stderr).toBe(0);
    expect(intro.stderr).toContain(
      'introspect: left out the marker of 1 column an interrupted apply was still filling (the next apply of a manifest that declares the column finishes it; one that does not drops the marker): public.audit.at (citus_migrate_backfill_at)',
    );
    const written = readdirSync(dirname(out), { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => readFileSync(join(f.parentPath, f.name), 'utf8'))
      .join('\n');
    expect(written).toContain('default: clock_timestamp()');
    expect(written).not.toContain('citus_migrate_backfill');
  });

  it('a lower role owning the database plants look-alikes of every name the fill uses, and shard look-alikes in a schema named after the applying role on the workers: its trap runs on no node', async () => {
    const apply = ['apply', '--auto-approve', '--allow-hazards', 'non_transactional'];
    const clean = await loaded('backfill_clean', 2000);
    const rec = recordQueries();
    try {
      expect((await cli([...apply, '--database', clean.url], { cwd: projectDir(manifest(true)) })).code).toBe(0);
    } finally {
      rec.stop();
    }
    const db = await loaded('backfill_hostile', 2000);
    // shard_name() leaves public's shards unqualified, and "$user" comes first on the workers.
    const shards = await db.query<{ shard: string; port: number }>(
      "SELECT shard_name::text AS shard, nodeport AS port FROM citus_shards WHERE table_name = 'orders'::regclass",
    );
    const h = await hostileRole(citus!, db, { owner: true });
    // The database's search_path as PostgreSQL's default begins it, "$user" first, then look-alikes in public.
    const settings = [...HOSTILE_SETTINGS, ...HOSTILE_CITUS_SETTINGS].map(([k, v]): [string, string] =>
      k === 'search_path' ? [k, `"$user", ${v}`] : [k, v],
    );
    expect(await plantEverything(citus!, db, h, rec.texts, settings)).toBeGreaterThan(10);
    for (const [n, node] of citus!.nodes.entries()) {
      if (n === 0) continue;
      const here = shards.filter((x) => x.port === (node.registerAs ?? node).port).map((x) => x.shard);
      await h.run(
        [
          `CREATE SCHEMA IF NOT EXISTS ${citus!.user}`,
          'CREATE OR REPLACE FUNCTION public.cm_trap_trigger() RETURNS trigger LANGUAGE plpgsql AS $t$BEGIN PERFORM public.cm_trap(); RETURN NEW; END$t$',
          ...here.flatMap((shard) => [
            `CREATE TABLE ${citus!.user}.${shard} (w bigint, id bigint, ref uuid)`,
            `INSERT INTO ${citus!.user}.${shard} VALUES (1, 1, NULL)`,
            `CREATE TRIGGER trap BEFORE UPDATE ON ${citus!.user}.${shard} FOR EACH ROW EXECUTE FUNCTION public.cm_trap_trigger()`,
          ]),
        ],
        n,
      );
    }
    expect(await h.breaches()).toEqual([]);
    const r = await cli([...apply, '--database', db.url], { cwd: projectDir(manifest(true)) });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await h.breaches()).toEqual([]);
    // Read back under a pinned search_path (the database's own puts public first), on the shards
    // by hand: Citus deparses a distributed query's count(*) without its schema for the workers.
    const pinned = (q: string) => sql(citus!, db.name, ['SET search_path TO pg_catalog, pg_temp', q]);
    expect(
      await pinned(
        "SELECT pg_catalog.sum(result::pg_catalog.int4)::pg_catalog.int4 AS n FROM pg_catalog.run_command_on_shards('public.orders', 'SELECT pg_catalog.count(*) FROM public.%s WHERE ref IS NULL')",
      ),
    ).toEqual([{ n: 0 }]);
    expect(
      await pinned(
        "SELECT pg_catalog.count(*)::pg_catalog.int4 AS n FROM pg_catalog.pg_constraint WHERE conname OPERATOR(pg_catalog.~~) 'citus_migrate_backfill_%'",
      ),
    ).toEqual([{ n: 0 }]);
    expect(await h.breaches()).toEqual([]);
  });
});
