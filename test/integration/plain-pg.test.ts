// Against a real plain PostgreSQL 15: the PostgreSQL parts of a plan (schemas, sequences with
// caches, tables, keys, routines, foreign keys) run as rendered, with hostile names intact.
import { beforeAll, describe, expect, it } from 'vitest';
import { planOffline } from '../../src/plan/from-manifest.js';
import { loadManifest } from '../../src/manifest/load.js';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { CITUS_KINDS, runPlanSteps } from '../support/plan-exec.js';

const plainOnly = (s: { kind: string }): boolean => !CITUS_KINDS.has(s.kind as never);

describe('plain PostgreSQL', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await freshDatabase(plainServers(), 'plain');
  });

  it('creates hostile names exactly as declared', async () => {
    const plan = planOffline(await loadManifest('examples/hostile-names/citus-migrate.yaml'));
    await runPlanSteps(db.url, plan, plainOnly);
    const rels = await db.query<{ nspname: string; relname: string }>(
      "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'S') AND n.nspname IN ('Tenant Data', 'public') ORDER BY 1, 2",
    );
    expect(rels).toEqual([
      { nspname: 'Tenant Data', relname: 'Order Lines' },
      { nspname: 'Tenant Data', relname: 'Order"Seq' },
      { nspname: 'Tenant Data', relname: 'user' },
      { nspname: 'public', relname: 'Ünïcode' },
    ]);
    const cols = await db.query<{ attname: string }>(
      `SELECT attname FROM pg_attribute WHERE attrelid = '"Tenant Data"."Order Lines"'::regclass AND attnum > 0 ORDER BY attnum`,
    );
    expect(cols.map((c) => c.attname)).toEqual(['W Id', 'select', "'); DROP TABLE x; --"]);
    const procs = await db.query<{ sig: string }>(
      `SELECT oid::regprocedure::text AS sig FROM pg_proc WHERE proname = 'Do Thing'`,
    );
    expect(procs).toEqual([{ sig: '"Tenant Data"."Do Thing"(bigint,text)' }]);
    const dflt = await db.query<{ v: string }>(
      `INSERT INTO "Tenant Data"."Order Lines" ("W Id") VALUES (1) RETURNING "select" AS v`,
    );
    expect(dflt).toEqual([{ v: "it's" }]);
  });

  it("sets a serial column's sequence cache right after creating its table", async () => {
    const plan = planOffline(await loadManifest('templates/saas/citus-migrate.yaml'));
    await runPlanSteps(db.url, plan, plainOnly);
    const seqs = await db.query<{ sequencename: string; cache_size: string }>(
      "SELECT sequencename, cache_size::text FROM pg_sequences WHERE schemaname = 'app' ORDER BY 1",
    );
    expect(seqs).toEqual([
      { sequencename: 'ads_id_seq', cache_size: '1000' },
      { sequencename: 'audit_log_id_seq', cache_size: '1' },
      { sequencename: 'campaigns_id_seq', cache_size: '1000' },
    ]);
    const fks = await db.query<{ conname: string }>(
      "SELECT conname FROM pg_constraint WHERE contype = 'f' AND connamespace = 'app'::regnamespace ORDER BY 1",
    );
    expect(fks.map((f) => f.conname)).toEqual([
      'ads_company_id_campaign_id_fkey',
      'campaigns_company_id_fkey',
      'companies_plan_id_fkey',
    ]);
  });
});
