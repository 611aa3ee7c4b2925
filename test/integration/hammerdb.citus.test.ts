// The HammerDB script (`citus-migrate hammerdb`) on a HammerDB-shaped schema that already holds
// rows: it runs through psql -v ON_ERROR_STOP=1 in one transaction, keeps every row, colocates
// every table with warehouse, and the five transactions are delegated.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, type TestDb } from '../support/db.js';
import { messagesOf } from '../support/plan-exec.js';
import { cli } from '../support/run-cli.js';
import pg from 'pg';
import { planLive } from '../../src/plan/from-manifest.js';
import { hammerdbManifest } from '../../src/hammerdb/layout.js';
import { readLiveState } from '../../src/own/live-state.js';
import { liveToManifest } from '../../src/introspect/to-manifest.js';
import { loadManifestText } from '../../src/manifest/load.js';

const citus = citusServers();
const TABLES = ['customer', 'district', 'history', 'item', 'new_order', 'order_line', 'orders', 'stock', 'warehouse'];

async function fingerprint(db: TestDb): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of TABLES) {
    const [r] = await db.query<{ n: string; md5: string }>(
      `SELECT count(*)::text AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS md5 FROM ${t} x`,
    );
    out[t] = `${r!.n}:${r!.md5}`;
  }
  return out;
}

describe.skipIf(!citus)('hammerdb script on Citus', () => {
  it.each([
    ['procedures', "CALL neword(1, 4, 1, 1, 5, 0, '', '', 0, 0, 0, localtimestamp)", 'pushing down the procedure'],
    ['functions', 'SELECT neword(2, 4, 1, 1, 5, 0)', 'pushing down the function call'],
  ])('%s variant', async (variant, call, pushed) => {
    const db = await freshDatabase(citus!, `hdb_${variant.slice(0, 4)}`);
    expect(db.psql({ file: 'test/fixtures/hammerdb/tables.sql' }).status).toBe(0);
    expect(db.psql({ file: `test/fixtures/hammerdb/routines-${variant}.sql` }).status).toBe(0);
    const before = await fingerprint(db);

    const r = await cli(['hammerdb', '--variant', variant, '--shard-count', '8']);
    expect(r.code).toBe(0);
    const file = join(mkdtempSync(join(tmpdir(), 'cm-hdb-')), 'hammerdb.sql');
    writeFileSync(file, r.stdout);
    const run = db.psql({ file });
    expect(run.stderr.split('\n').filter((l) => /ERROR/.test(l))).toEqual([]);
    expect(run.status).toBe(0);

    expect(await fingerprint(db)).toEqual(before);
    const parts = await db.query<{
      t: string;
      method: string;
      colocation: number;
      shards: number;
    }>(`SELECT logicalrelid::text AS t, partmethod AS method, colocationid AS colocation,
        (SELECT count(*)::int FROM pg_catalog.pg_dist_shard s WHERE s.logicalrelid = p.logicalrelid) AS shards FROM pg_catalog.pg_dist_partition p ORDER BY 1`);
    expect(parts.map((p) => p.t)).toEqual(TABLES);
    const hash = parts.filter((p) => p.method === 'h');
    expect(hash).toHaveLength(8);
    expect(new Set(hash.map((p) => p.colocation)).size).toBe(1);
    expect(hash.every((p) => p.shards === 8)).toBe(true);
    expect(parts.find((p) => p.t === 'item')!.method).toBe('n');
    // The old local copies were truncated: the rows live only in the shards now.
    const local = await db.query<{ bytes: string }>(
      `SELECT sum(pg_catalog.pg_relation_size(logicalrelid))::text AS bytes FROM pg_catalog.pg_dist_partition`,
    );
    expect(local).toEqual([{ bytes: '0' }]);

    const objs = await db.query<{
      proname: string;
      arg: number | null;
      same: boolean | null;
    }>(`SELECT p.proname, o.distribution_argument_index AS arg,
        o.colocationid = (SELECT colocationid FROM pg_catalog.pg_dist_partition WHERE logicalrelid = 'warehouse'::regclass) AS same
      FROM pg_catalog.pg_dist_object o JOIN pg_catalog.pg_proc p ON p.oid = o.objid ORDER BY 1`);
    expect(objs).toEqual([
      { proname: 'dbms_random', arg: null, same: null },
      ...['delivery', 'neword', 'ostat', 'payment', 'slev'].map((proname) => ({ proname, arg: 0, same: true })),
    ]);
    expect(await messagesOf(db.url, ['SET client_min_messages TO debug1'], call)).toContain(pushed);

    // The live plan of the same layout is now empty, and so is the plan of the introspected manifest.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const state = await readLiveState(client).finally(() => client.end());
    const layout = await loadManifestText(
      hammerdbManifest({ variant: variant as 'procedures', shardCount: 8 }),
      'hammerdb.yaml',
      process.cwd(),
    );
    expect(planLive(layout, state).transaction.steps.map((x) => x.summary)).toEqual([]);
    const adopted = await loadManifestText(liveToManifest(state), 'introspected.yaml', process.cwd());
    expect(planLive(adopted, state).transaction.steps.map((x) => x.summary)).toEqual([]);

    // The TPC-C mix, called as HammerDB calls it: every transaction is delegated, none fails.
    const dir = mkdtempSync(join(tmpdir(), 'cm-hdb-bench-'));
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      hammerdbManifest({ variant: variant as 'procedures', shardCount: 8 }),
    );
    const b = await cli(
      [
        'bench',
        '--database',
        db.url,
        '--transactions',
        '300',
        '--clients',
        '4',
        '--warmup',
        '0s',
        '--require-delegation',
        '--format',
        'json',
      ],
      { cwd: dir },
    );
    expect(b.stderr.split('\n').filter((l) => l && !l.startsWith('bench: '))).toEqual([]); // progress lines aside
    expect(b.code).toBe(0);
    const report = JSON.parse(b.stdout);
    expect(
      report.workloads.map((w: { name: string; delegation: { delegated: boolean } }) => [
        w.name,
        w.delegation.delegated,
      ]),
    ).toEqual(['new_order', 'payment', 'delivery', 'order_status', 'stock_level'].map((n) => [n, true]));
    expect(report.total.errors).toEqual({});
  });
});
