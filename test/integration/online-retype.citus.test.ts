// A column's type changed online on a distributed table that holds rows (plan/retype.ts): a
// shadow column kept in step by a trigger on every shard, filled per shard after COMMIT, its
// index built concurrently, then swapped in one short transaction; writes through the
// coordinator go on the whole time and none fails. Interrupted, the next plan goes on from what
// the catalog shows; with a lock held on a worker's shard, the swap ends within --lock-timeout;
// a plan that no longer asks for the type drops what the interrupted one left.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { citusServers, FILLING, freshDatabase, holdFirstShard, pollCount, sql, type TestDb } from '../support/db.js';
import { hostileRole } from '../support/hostile.js';
import { HOSTILE_CITUS_SETTINGS, HOSTILE_SETTINGS, plantEverything } from '../support/plant.js';
import { recordQueries } from '../support/sql-audit.js';
import { startCli } from '../support/cli-process.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const manifest = (qty: string, code: string, index = true, id = 'bigint'): string => `version: 1
tables:
  orders:
    distributed_by: w
    shard_count: 4
    online: true
    columns:
      w: { type: bigint, not_null: true }
      id: { type: ${id}, not_null: true }
      qty: { type: ${qty}, not_null: true, default: "0" }
      orig: { type: integer }
      code: { type: ${code} }
    primary_key: [w, id]${index ? '\n    indexes:\n      - { columns: [qty] }' : ''}
`;
/** Two colocated tables, a foreign key of lines referencing orders (w, id). */
const referenced = (id: string): string => `version: 1
colocation:
  tenants: { shard_count: 4, anchor: orders }
tables:
  orders:
    distributed_by: w
    colocation: tenants
    online: true
    columns:
      w: { type: bigint, not_null: true }
      id: { type: ${id}, not_null: true }
    primary_key: [w, id]
  lines:
    distributed_by: w
    colocation: tenants
    online: true
    columns:
      w: { type: bigint, not_null: true }
      id: { type: bigint, not_null: true }
      order_id: { type: bigint }
    primary_key: [w, id]
    foreign_keys:
      - { columns: [w, order_id], references: orders, ref_columns: [w, id] }
`;

const BEFORE = manifest('integer', 'text');
const AFTER = manifest('bigint', 'integer, using: "code::integer"');
const APPLY = ['apply', '--auto-approve', '--allow-hazards', 'non_transactional,drops_data'];

async function loaded(prefix: string, rows: number, m = BEFORE): Promise<TestDb> {
  const db = await freshDatabase(citus!, prefix);
  const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: projectDir(m) });
  expect(r.code, r.stderr).toBe(0);
  await db.query(
    `INSERT INTO orders (w, id, qty, orig, code) SELECT g % 100, g, g % 1000, g % 1000, (g % 1000)::text FROM generate_series(1, ${rows}) g`,
  );
  return db;
}

/** Writes through the coordinator until stopped: new rows, and existing rows updated. */
function writer(db: TestDb): { stop: () => Promise<{ done: number; failed: string[] }> } {
  const c = new pg.Client({ connectionString: db.url });
  let running = true;
  const failed: string[] = [];
  let done = 0;
  const loop = (async () => {
    await c.connect();
    for (let i = 0; running; i++) {
      const id = 10_000_000 + i;
      try {
        await c.query(
          `INSERT INTO orders (w, id, qty, orig, code) VALUES (${i % 100}, ${id}, ${i % 1000}, ${i % 1000}, '${i % 1000}')`,
        );
        await c.query(
          `UPDATE orders SET qty = qty + 1, orig = orig + 1 WHERE w = ${i % 100} AND id = ${(i % 5000) + 100}`,
        );
        done++;
      } catch (e) {
        failed.push((e as Error).message);
      }
    }
    await c.end();
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { done, failed };
    },
  };
}

/**
 * What an online type change leaves on any node: shadow columns, sync triggers and functions,
 * markers. (An index built on the shadow keeps its column's name in pg_attribute after the rename:
 * PostgreSQL renames no index column; its definition reads the table's.)
 */
const leftovers = async (db: TestDb): Promise<number> =>
  (
    await db.query<{ n: number }>(
      `SELECT coalesce(sum(result::int), 0)::int AS n FROM run_command_on_all_nodes($$SELECT (SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relkind = 'r' AND attname LIKE 'citus_migrate_new_%' AND NOT attisdropped)
         + (SELECT count(*) FROM pg_proc WHERE proname LIKE 'citus_migrate_sync_%') + (SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'citus_migrate_sync_%')
         + (SELECT count(*) FROM pg_constraint WHERE conname LIKE 'citus_migrate_retype_%')$$)`,
    )
  )[0]!.n;

const shardTypes = (db: TestDb) =>
  db.query<{ t: string }>(
    "SELECT DISTINCT result AS t FROM run_command_on_shards('orders', $$SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum) FROM pg_attribute WHERE attrelid = 'public.%s'::regclass AND attnum > 0 AND NOT attisdropped$$)",
  );

describe.skipIf(!citus)('a column type changed online on Citus', () => {
  it('int to bigint and text to integer (USING) while writes go on: none fails, every shard swapped, the index renamed, the next plan empty', async () => {
    const db = await loaded('retype', 200_000);
    const dir = projectDir(AFTER);
    const plan = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(plan.stdout).toContain(
      'change public.orders.qty from integer to bigint online: add citus_migrate_new_qty bigint, kept in step with it by a trigger on every write',
    );
    expect(plan.stdout).toContain(
      'fill citus_migrate_new_qty of public.orders from qty (by the trigger) in batches of 64 pages per shard',
    );
    expect(plan.stdout).toContain('create index concurrently on public.orders (citus_migrate_new_qty)');
    expect(plan.stdout).toContain('swap public.orders.qty for citus_migrate_new_qty (bigint) in one short transaction');
    expect(plan.stdout).not.toContain('rewrites');
    // What each step holds and for about how long: the shards' sizes read from the workers.
    expect(plan.stdout).toMatch(
      /ROW EXCLUSIVE on public\.orders \(4 shards, \d+ MB\): writes go on \((~\d+ s|under 1 s)\)/,
    );
    expect(plan.stdout).toMatch(/SHARE UPDATE EXCLUSIVE on public\.orders \(4 shards, \d+ MB\): writes go on/);
    const inTx = await cli(['plan', '--database', db.url], {
      cwd: projectDir(AFTER.replace('online: true', 'online: false')),
    });
    expect(inTx.stdout).toMatch(
      /ACCESS EXCLUSIVE on public\.orders \(4 shards, \d+ MB\): reads and writes wait (~\d+ s|under 1 s)/,
    );
    const w = writer(db);
    await new Promise((r) => setTimeout(r, 300));
    const r = await cli([...APPLY, '--database', db.url], { cwd: dir });
    const writes = await w.stop();
    expect(r.code, r.stderr).toBe(0);
    expect(writes.failed).toEqual([]);
    expect(writes.done).toBeGreaterThan(10);
    expect(await shardTypes(db)).toEqual([{ t: 'w bigint, id bigint, orig integer, qty bigint, code integer' }]);
    // qty is kept equal to orig by every write; code was written as id % 1000.
    expect(
      await db.query(
        'SELECT count(*)::int AS n, count(*) FILTER (WHERE qty <> orig)::int AS qty, count(*) FILTER (WHERE code IS DISTINCT FROM (id % 1000)::int)::int AS code FROM orders',
      ),
    ).toEqual([{ n: 200_000 + writes.done, qty: 0, code: 0 }]);
    expect(
      await db.query(
        "SELECT DISTINCT result AS ix FROM run_command_on_shards('orders', $$SELECT string_agg(regexp_replace(indexrelid::regclass::text, '_[0-9]+$', ''), ',' ORDER BY 1) FROM pg_index WHERE indrelid = 'public.%s'::regclass$$)",
      ),
    ).toEqual([{ ix: 'orders_pkey,orders_qty_idx' }]);
    expect(await leftovers(db)).toBe(0);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });

  it('interrupted while filling: the next plan goes on; the swap ends within --lock-timeout when a worker shard is held; the last apply finishes', async () => {
    const before = manifest('integer', 'text', false);
    const after = manifest('bigint', 'text', false);
    const db = await loaded('retype_int', 400_000, before);
    const dir = projectDir(after);
    const { child, done } = startCli([...APPLY, '--database', db.url], { cwd: dir });
    expect(await pollCount(db, FILLING, (n) => n > 0, 1000, 10)).toBe(true);
    child.kill('SIGINT');
    const res = await done;
    expect(res.code, res.stderr).toBe(130);
    // Half filled; a row the application updates meanwhile gets its shadow from the trigger.
    expect(
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE citus_migrate_new_qty IS NULL'))[0]!
        .n,
    ).toBeGreaterThan(0);
    await db.query('UPDATE orders SET qty = 77 WHERE w = 5 AND id = 5');
    expect(await db.query('SELECT citus_migrate_new_qty AS s FROM orders WHERE w = 5 AND id = 5')).toEqual([
      { s: '77' },
    ]);
    const plan = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).not.toContain('add citus_migrate_new_qty');
    expect(plan.stdout).toContain('fill citus_migrate_new_qty of public.orders');
    expect(plan.stdout).toContain('swap public.orders.qty');

    const holder = await holdFirstShard(citus!, db, 'orders', 'ACCESS SHARE');
    try {
      const t0 = Date.now();
      const held = await cli([...APPLY, '--database', db.url, '--lock-timeout', '1s', '--retries', '0'], { cwd: dir });
      expect(held.code, held.stderr).toBe(1);
      expect(held.stderr).toContain('canceling statement due to lock timeout');
      expect(held.stderr).toMatch(/swap public\.orders\.qty/);
      expect(Date.now() - t0).toBeLessThan(60_000);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    // Filled and validated: only the swap is left.
    const left = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(left.stdout).not.toContain('fill citus_migrate_new_qty');
    expect(left.stdout).toContain('swap public.orders.qty');
    const last = await cli([...APPLY, '--database', db.url], { cwd: dir });
    expect(last.code, last.stderr).toBe(0);
    expect(
      await db.query('SELECT count(*)::int AS n, count(*) FILTER (WHERE qty <> orig)::int AS d FROM orders'),
    ).toEqual([{ n: 400_000, d: 1 }]);
    expect(await leftovers(db)).toBe(0);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });

  it('a plan that no longer asks for the type drops what an interrupted change left; a column a foreign key references says why it is not changed online', async () => {
    const db = await loaded('retype_abort', 200_000, manifest('integer', 'text', false));
    const dir = projectDir(manifest('bigint', 'text', false));
    const { child, done } = startCli([...APPLY, '--database', db.url], { cwd: dir });
    const shadow =
      "SELECT count(*)::int AS n FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'citus_migrate_new_qty'";
    expect(await pollCount(db, shadow, (n) => n > 0, 2000, 5)).toBe(true);
    child.kill('SIGINT');
    expect((await done).code).toBe(130);
    // introspect leaves the shadow, its trigger and marker out, and says so.
    const out = join(mkdtempSync(join(tmpdir(), 'cm-retype-intro-')), 'm.yaml');
    const intro = await cli(['introspect', '--database', db.url, '--out', out]);
    expect(intro.code, intro.stderr).toBe(0);
    expect(intro.stderr).toContain(
      'introspect: left out the shadow column, trigger and marker of 1 column an interrupted apply was changing online',
    );
    expect(intro.stderr).toContain('public.orders.qty (to bigint)');
    const written = readdirSync(dirname(out), { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => readFileSync(join(f.parentPath, f.name), 'utf8'))
      .join('\n');
    expect(written).toMatch(/qty:\s+(\{ )?type: integer/);
    expect(written).not.toContain('citus_migrate');
    const back = projectDir(manifest('integer', 'text', false));
    const plan = await cli(['plan', '--database', db.url], { cwd: back });
    expect(plan.stdout).toContain(
      'drop the unfinished online change of public.orders.qty to bigint an interrupted apply left (citus_migrate_new_qty, its trigger and marker)',
    );
    const r = await cli([...APPLY, '--database', db.url], { cwd: back });
    expect(r.code, r.stderr).toBe(0);
    expect(await leftovers(db)).toBe(0);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: back })).code).toBe(0);
    // A column a foreign key references: rewritten in the transaction, and the plan says why.
    const key = await freshDatabase(citus!, 'retype_key');
    const made = await cli(['apply', '--database', key.url, '--auto-approve'], {
      cwd: projectDir(referenced('integer')),
    });
    expect(made.code, made.stderr).toBe(0);
    const keyPlan = await cli(['plan', '--database', key.url], { cwd: projectDir(referenced('bigint')) });
    expect(keyPlan.stdout).toContain(
      'change public.orders.id from integer to bigint (not online: a foreign key of public.lines references it; the table is rewritten in the transaction)',
    );
  });

  it('a primary key column, int to bigint, while writes go on: the key built again on the shadow and added USING INDEX on every shard', async () => {
    const before = manifest('integer', 'text', false, 'integer');
    const after = manifest('integer', 'text', false, 'bigint');
    const db = await loaded('retype_pk', 200_000, before);
    const dir = projectDir(after);
    const plan = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(plan.stdout).toContain('create unique index concurrently on public.orders (w, citus_migrate_new_id)');
    expect(plan.stdout).toContain('add orders_pkey using the index built on it');
    const w = writer(db);
    await new Promise((r) => setTimeout(r, 300));
    const r = await cli([...APPLY, '--database', db.url], { cwd: dir });
    const writes = await w.stop();
    expect(r.code, r.stderr).toBe(0);
    expect(writes.failed).toEqual([]);
    expect(
      await db.query(
        "SELECT DISTINCT result AS k FROM run_command_on_shards('orders', $$SELECT string_agg(regexp_replace(conname, '_[0-9]+$', '') || ' ' || contype::text || ' ' || pg_get_constraintdef(oid), ', ') FROM pg_constraint WHERE conrelid = 'public.%s'::regclass$$)",
      ),
    ).toEqual([{ k: 'orders_pkey p PRIMARY KEY (w, id)' }]);
    expect(await shardTypes(db)).toEqual([{ t: 'w bigint, qty integer, orig integer, code text, id bigint' }]);
    expect(await db.query('SELECT count(*)::int AS n, count(DISTINCT (w, id))::int AS d FROM orders')).toEqual([
      { n: 200_000 + writes.done, d: 200_000 + writes.done },
    ]);
    await expect(db.query('INSERT INTO orders (w, id, qty) VALUES (1, 1, 0)')).rejects.toThrow(/orders_pkey/);
    expect(await leftovers(db)).toBe(0);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });

  it('a lower role owning the database plants look-alikes of every name the change uses: its trap runs on no node', async () => {
    const clean = await loaded('retype_clean', 2000);
    const rec = recordQueries();
    try {
      expect((await cli([...APPLY, '--database', clean.url], { cwd: projectDir(AFTER) })).code).toBe(0);
    } finally {
      rec.stop();
    }
    const db = await loaded('retype_hostile', 2000);
    const h = await hostileRole(citus!, db, { owner: true });
    const settings = [...HOSTILE_SETTINGS, ...HOSTILE_CITUS_SETTINGS].map(([k, v]): [string, string] =>
      k === 'search_path' ? [k, `"$user", ${v}`] : [k, v],
    );
    expect(await plantEverything(citus!, db, h, rec.texts, settings)).toBeGreaterThan(10);
    expect(await h.breaches()).toEqual([]);
    const r = await cli([...APPLY, '--database', db.url], { cwd: projectDir(AFTER) });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await h.breaches()).toEqual([]);
    const pinned = (q: string) => sql(citus!, db.name, ['SET search_path TO pg_catalog, pg_temp', q]);
    expect(
      await pinned(
        "SELECT pg_catalog.sum(result::pg_catalog.int4)::pg_catalog.int4 AS n FROM pg_catalog.run_command_on_shards('public.orders', 'SELECT pg_catalog.count(*) FROM public.%s WHERE qty OPERATOR(pg_catalog.<>) orig')",
      ),
    ).toEqual([{ n: 0 }]);
    expect(await h.breaches()).toEqual([]);
  });
});
