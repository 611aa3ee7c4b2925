// A colocation group's shard count raised online by splitting its shards (plan/shard-split.ts),
// on a real coordinator + 2 workers: 4 → 8 shards of a table holding rows and its colocated
// member, after COMMIT, one shard at a time; the result is the layout create_distributed_table
// makes for 8 (the plan again is empty, nothing named as a shard layout), each new shard on its
// shard's node, every row where it was. The step carries fails_concurrent_writes: without it,
// apply refuses and nothing runs. A count whose even split does not refine the present one is
// rewritten, and the plan says why it is not online. A transaction writing to a shard across an
// earlier split of its group keeps its row (Citus 13.2 alone drops it: split-writers.ts).
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, pollCount, type TestDb } from '../support/db.js';
import { hostileRole } from '../support/hostile.js';
import { HOSTILE_CITUS_SETTINGS, HOSTILE_SETTINGS, plantEverything } from '../support/plant.js';
import { recordQueries } from '../support/sql-audit.js';
import { SPLIT_WAIT } from '../../src/plan/split-writers.js';
import pg from 'pg';
import { startCli } from '../support/cli-process.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const manifest = (shards: number): string => `version: 1
colocation:
  tenants: { shard_count: ${shards}, anchor: orders }
tables:
  orders: { distributed_by: tenant, colocation: tenants, columns: { tenant: { type: integer, not_null: true }, id: { type: integer, not_null: true } }, primary_key: [tenant, id] }
  lines: { distributed_by: tenant, colocation: tenants, columns: { tenant: { type: integer, not_null: true }, n: integer } }
`;

describe.skipIf(!citus)('an online shard-count rise', () => {
  it('splits every shard of the group in two, one at a time, to the even split of the new count', async () => {
    const db = await freshDatabase(citus!, 'split');
    const dir = projectDir(manifest(4));
    const run = (args: string[]) => cli([...args, '--database', db.url], { cwd: dir });
    expect((await run(['apply', '--auto-approve'])).code).toBe(0);
    await db.query(`INSERT INTO orders SELECT g, g FROM generate_series(1, 2000) g;
      INSERT INTO lines SELECT g % 500, g FROM generate_series(1, 3000) g`);
    const placements = async () =>
      db.query<{ lo: string; node: number }>(
        `SELECT s.shardminvalue AS lo, p.nodeport AS node FROM pg_dist_shard s JOIN pg_dist_shard_placement p USING (shardid)
         WHERE s.logicalrelid = 'orders'::regclass ORDER BY s.shardminvalue::int`,
      );
    const before = await placements();

    writeFileSync(`${dir}/citus-migrate.yaml`, manifest(8));
    const planned = await run(['plan', '--online']);
    expect(planned.stdout).toContain(
      "split each of public.orders's 4 shards into 2, with every table colocated with it (2), for 8 shards",
    );
    expect(planned.stdout).toContain('writes to one shard at a time wait');
    const refused = await run([
      'apply',
      '--online',
      '--auto-approve',
      '--allow-hazards',
      'copies_data,non_transactional',
    ]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('fails_concurrent_writes');
    const applied = await run([
      'apply',
      '--online',
      '--auto-approve',
      '--allow-hazards',
      'copies_data,non_transactional,fails_concurrent_writes',
    ]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('verified: planning again is empty');

    // The even split of 8, each half on the node of the shard it came from; every row kept.
    const after = await placements();
    expect(after.map((r) => r.lo)).toEqual([
      '-2147483648',
      '-1610612736',
      '-1073741824',
      '-536870912',
      '0',
      '536870912',
      '1073741824',
      '1610612736',
    ]);
    expect(after.map((r) => r.node)).toEqual(before.flatMap((r) => [r.node, r.node]));
    expect(
      await db.query(`SELECT (SELECT count(*) FROM orders)::int AS o, (SELECT count(*) FROM lines)::int AS l,
        (SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = 'lines'::regclass)::int AS ls`),
    ).toEqual([{ o: 2000, l: 3000, ls: 8 }]);
    const json = JSON.parse((await run(['plan', '--format', 'json'])).stdout) as {
      changes: boolean;
      notManaged: unknown[];
    };
    expect(json).toMatchObject({ changes: false, notManaged: [] });

    // 8 → 12 splits no shard evenly: rewritten, and the plan says why not online.
    writeFileSync(`${dir}/citus-migrate.yaml`, manifest(12));
    const rewrite = await run(['plan', '--online']);
    expect(rewrite.stdout).toContain('not online: 12 shards do not split each of 8 evenly');
  });

  it('a transaction writing across the splits keeps its row: each split after the first waits for the writers older than the last split', async () => {
    const db = await freshDatabase(citus!, 'splitw');
    const dir = projectDir(manifest(4));
    const run = (args: string[]) => cli([...args, '--database', db.url], { cwd: dir });
    expect((await run(['apply', '--auto-approve'])).code).toBe(0);
    await db.query('INSERT INTO orders SELECT g % 100, g FROM generate_series(1, 2000) g');
    // A tenant of the last shard: its split comes after the others.
    const [{ tenant }] = (await db.query<{ tenant: number }>(
      `SELECT g AS tenant FROM generate_series(1, 1000) g
        WHERE get_shard_id_for_distribution_column('orders', g) = (SELECT shardid FROM pg_dist_shard
          WHERE logicalrelid = 'orders'::regclass ORDER BY shardminvalue::int DESC LIMIT 1) LIMIT 1`,
    )) as [{ tenant: number }];
    const writer = new pg.Client({ connectionString: db.url });
    await writer.connect();
    await writer.query(`BEGIN; INSERT INTO orders VALUES (${tenant}, 900001)`);
    writeFileSync(`${dir}/citus-migrate.yaml`, manifest(8));
    const { done } = startCli(
      [
        'apply',
        '--online',
        '--auto-approve',
        '--allow-hazards',
        'copies_data,non_transactional,fails_concurrent_writes',
        '--database',
        db.url,
      ],
      { cwd: dir },
    );
    const shards = "SELECT count(*)::int AS n FROM pg_dist_shard WHERE logicalrelid = 'orders'::regclass";
    try {
      // The first split is done while the writer's transaction is open; then the apply waits for it.
      expect(await pollCount(db, shards, (n) => n >= 5, 600)).toBe(true);
      await new Promise((r) => setTimeout(r, 1500));
      expect((await db.query<{ n: number }>(shards))[0]!.n).toBeLessThan(8);
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
    const r = await done;
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((await db.query<{ n: number }>(shards))[0]!.n).toBe(8);
    // Citus 13.2 left it in the old shard and dropped it with that shard: committed, and gone.
    expect(await db.query(`SELECT tenant FROM orders WHERE id = 900001`)).toEqual([{ tenant }]);
    expect(await db.query('SELECT count(*)::int AS n FROM orders')).toEqual([{ n: 2001 }]);
  });

  it('a lower role owning the database plants look-alikes of every name the split and its wait for writers use: its trap runs on no node', async () => {
    const apply = [
      'apply',
      '--online',
      '--auto-approve',
      '--allow-hazards',
      'copies_data,non_transactional,fails_concurrent_writes',
    ];
    const prepared = async (name: string): Promise<{ db: TestDb; dir: string }> => {
      const db = await freshDatabase(citus!, name);
      const dir = projectDir(manifest(2));
      expect((await cli(['apply', '--auto-approve', '--database', db.url], { cwd: dir })).code).toBe(0);
      await db.query('INSERT INTO orders SELECT g % 50, g FROM generate_series(1, 500) g');
      writeFileSync(`${dir}/citus-migrate.yaml`, manifest(4));
      return { db, dir };
    };
    const clean = await prepared('splith_clean');
    const rec = recordQueries();
    try {
      expect((await cli([...apply, '--database', clean.db.url], { cwd: clean.dir })).code).toBe(0);
    } finally {
      rec.stop();
    }
    expect(rec.texts.some((t) => t.startsWith(SPLIT_WAIT))).toBe(true);
    const { db, dir } = await prepared('splith');
    const h = await hostileRole(citus!, db, { owner: true });
    expect(
      await plantEverything(citus!, db, h, rec.texts, [...HOSTILE_SETTINGS, ...HOSTILE_CITUS_SETTINGS]),
    ).toBeGreaterThan(10);
    expect(await h.breaches()).toEqual([]);
    const r = await cli([...apply, '--database', db.url], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await h.breaches()).toEqual([]);
  });
});
