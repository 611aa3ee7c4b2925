// On a real Citus coordinator + 2 workers: each shipped manifest's offline plan runs through
// psql -v ON_ERROR_STOP=1 as one transaction, the cluster ends up as declared, and calls of the
// distributed routines are delegated.
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planOffline } from '../../src/plan/from-manifest.js';
import { formatPlan } from '../../src/format/index.js';
import { loadManifest } from '../../src/manifest/load.js';
import { citusServers, freshDatabase, type TestDb } from '../support/db.js';
import { messagesOf } from '../support/plan-exec.js';

const citus = citusServers();

async function applyOffline(db: TestDb, manifest: string): Promise<void> {
  const sql = formatPlan(planOffline(await loadManifest(manifest)), 'sql');
  const file = join(mkdtempSync(join(tmpdir(), 'cm-plan-')), 'plan.sql');
  writeFileSync(file, sql);
  const r = db.psql({ file });
  expect(r.stderr.split('\n').filter((l) => /ERROR/.test(l))).toEqual([]);
  expect(r.status).toBe(0);
}

interface Dist {
  table: string;
  method: string;
  repmodel: string;
  colocation: number;
  shards: number;
}
async function distribution(db: TestDb): Promise<Dist[]> {
  return db.query<Dist>(`SELECT logicalrelid::text AS table, partmethod AS method, repmodel, colocationid AS colocation,
      (SELECT count(*)::int FROM pg_catalog.pg_dist_shard s WHERE s.logicalrelid = p.logicalrelid) AS shards
    FROM pg_catalog.pg_dist_partition p ORDER BY 1`);
}

describe.skipIf(!citus)('shipped manifests on Citus', () => {
  it('saas: tenant tables colocated, sequence caches on the workers, routines delegated', async () => {
    const db = await freshDatabase(citus!, 'saas');
    await applyOffline(db, 'templates/saas/citus-migrate.yaml');
    const d = await distribution(db);
    const hash = d.filter((x) => x.method === 'h');
    expect(hash.map((x) => x.table)).toEqual(['app.ads', 'app.campaigns', 'app.companies']);
    expect(new Set(hash.map((x) => x.colocation)).size).toBe(1);
    expect(hash.every((x) => x.shards === 32)).toBe(true);
    expect(d.find((x) => x.table === 'app.plans')).toMatchObject({ method: 'n', repmodel: 't' });
    for (const worker of [1, 2]) {
      const seqs = await db.query<{ sequencename: string; cache_size: string }>(
        "SELECT sequencename, cache_size::text FROM pg_sequences WHERE schemaname = 'app' AND sequencename IN ('ads_id_seq', 'campaigns_id_seq') ORDER BY 1",
        worker,
      );
      expect(seqs).toEqual([
        { sequencename: 'ads_id_seq', cache_size: '1000' },
        { sequencename: 'campaigns_id_seq', cache_size: '1000' },
      ]);
    }
    await db.query(
      "INSERT INTO app.plans VALUES ('free', 0); INSERT INTO app.companies VALUES (7, 'acme', 'free'); INSERT INTO app.campaigns (company_id, name) VALUES (7, 'c'); INSERT INTO app.ads (company_id, campaign_id) VALUES (7, 1)",
    );
    expect(await messagesOf(db.url, ['SET client_min_messages TO debug1'], 'CALL app.record_click(7, 1)')).toContain(
      'pushing down the procedure',
    );
    expect(await messagesOf(db.url, ['SET client_min_messages TO debug1'], 'SELECT app.ad_clicks(7, 1)')).toContain(
      'pushing down the function call',
    );
    expect(await db.query('SELECT clicks::int FROM app.ads')).toEqual([{ clicks: 1 }]);
  });

  it('pgbench: branch-colocated tables and a delegated tpcb-like function', async () => {
    const db = await freshDatabase(citus!, 'pgb');
    await applyOffline(db, 'templates/pgbench/citus-migrate.yaml');
    const hash = (await distribution(db)).filter((x) => x.method === 'h');
    expect(hash).toHaveLength(4);
    expect(new Set(hash.map((x) => x.colocation)).size).toBe(1);
    await db.query(
      "INSERT INTO pgbench_branches VALUES (3, 0, ''); INSERT INTO pgbench_tellers VALUES (25, 3, 0, ''); INSERT INTO pgbench_accounts VALUES (200007, 3, 0, '')",
    );
    const msgs = await messagesOf(db.url, ['SET client_min_messages TO debug1'], 'SELECT pgbench_tpcb(3, 7, 5, 100)');
    expect(msgs).toContain('pushing down the function call');
    expect(await db.query('SELECT abalance FROM pgbench_accounts')).toEqual([{ abalance: 100 }]);
  });

  it('hostile names: quoted identifiers survive distribution and delegation', async () => {
    const db = await freshDatabase(citus!, 'hostile');
    await applyOffline(db, 'examples/hostile-names/citus-migrate.yaml');
    const d = await distribution(db);
    expect(d.map((x) => x.table)).toEqual(['"Tenant Data"."Order Lines"', '"Tenant Data"."user"', '"Ünïcode"']);
    await db.query(`INSERT INTO "Tenant Data"."Order Lines" ("W Id", "select") VALUES (5, 'five')`);
    const msgs = await messagesOf(
      db.url,
      ['SET client_min_messages TO debug1'],
      `CALL "Tenant Data"."Do Thing"(5, '')`,
    );
    expect(msgs).toContain('pushing down the procedure');
  });
});
