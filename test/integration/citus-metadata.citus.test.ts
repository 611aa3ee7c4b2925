// Citus metadata adopted exactly or named (issue #24), on a real coordinator + 2 workers: a
// layout is built on a source database, introspected into a project (introspect --out), applied
// to an empty database, and the Citus metadata of both compared (pg_dist_partition, shard
// boundaries, placements per shard, colocation as a partition of tables, pg_dist_object). What
// the manifest cannot carry is named by introspect and by the plan, never adopted as something else.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { verifyConverged } from '../../src/apply/verify.js';
import { readLiveState } from '../../src/own/live-state.js';
import { loadManifest, loadManifestText } from '../../src/manifest/load.js';
import { planLive } from '../../src/plan/from-manifest.js';
import { citusServers, freshDatabase, type TestDb } from '../support/db.js';
import { cli, type CliResult } from '../support/run-cli.js';

const citus = citusServers();

async function live(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await readLiveState(client);
  } finally {
    await client.end();
  }
}

/** The Citus metadata of a database, with colocation ids replaced by the tables that share them. */
async function citusLayout(db: TestDb) {
  const tables = await db.query<{ t: string; method: string; repmodel: string; c: number; shards: unknown }>(
    `SELECT p.logicalrelid::text AS t, p.partmethod::text AS method, p.repmodel::text AS repmodel, p.colocationid AS c,
       (SELECT json_agg(json_build_array(s.shardminvalue, s.shardmaxvalue,
               (SELECT count(*) FROM pg_dist_placement pl WHERE pl.shardid = s.shardid))
             ORDER BY CASE WHEN p.partmethod = 'h' THEN s.shardminvalue::bigint END, s.shardid)
          FROM pg_dist_shard s WHERE s.logicalrelid = p.logicalrelid) AS shards
     FROM pg_dist_partition p ORDER BY 1`,
  );
  const groupOf = (c: number | null): string | null =>
    c === null || c === 0
      ? null
      : tables
          .filter((t) => t.c === c)
          .map((t) => t.t)
          .join(',') || 'reference group (no table)';
  const objects = await db.query<{ o: string; arg: number | null; c: number | null; force: boolean | null }>(
    `SELECT (pg_identify_object(classid, objid, objsubid)).type || ' ' || (pg_identify_object(classid, objid, objsubid)).identity AS o,
            distribution_argument_index AS arg, colocationid AS c, force_delegation AS force
       FROM pg_dist_object WHERE classid IN ('pg_proc'::regclass, 'pg_class'::regclass) ORDER BY 1`,
  );
  return {
    tables: tables.map(({ c, ...t }) => ({ ...t, group: groupOf(c) })),
    objects: objects.map(({ c, ...o }) => ({ ...o, group: groupOf(c) })),
  };
}

/** Builds `sql` on a fresh source database, introspects it into a project, applies that to a fresh database. */
async function roundTrip(sql: string): Promise<{
  src: TestDb;
  dst: TestDb;
  file: string;
  introspect: CliResult;
  apply: CliResult;
}> {
  const src = await freshDatabase(citus!, 'meta_src');
  const built = src.psql({ input: sql });
  expect(built.stderr.split('\n').filter((l) => l.includes('ERROR'))).toEqual([]);
  const file = join(mkdtempSync(join(tmpdir(), 'cm-meta-')), 'citus-migrate.yaml');
  const introspect = await cli(['introspect', '--database', src.url, '-o', file]);
  const dst = await freshDatabase(citus!, 'meta_dst');
  const apply = await cli(['apply', '-f', file, '--database', dst.url, '--auto-approve', '--allow-hazards', 'all']);
  return { src, dst, file, introspect, apply };
}

const planSteps = async (file: string, url: string) => {
  const plan = planLive(await loadManifest(file), await live(url));
  return { steps: [...plan.transaction.steps, ...plan.afterCommit].map((s) => s.summary), problems: plan.problems };
};

describe.skipIf(!citus)('Citus metadata adopted exactly', () => {
  it('rebuilds routines colocated with reference and single-shard tables, a routine Citus does not know, and a columnar materialized view', async () => {
    const { src, dst, file, introspect, apply } = await roundTrip(`
      CREATE EXTENSION IF NOT EXISTS citus_columnar;
      CREATE TABLE ref (id int PRIMARY KEY);
      SELECT create_reference_table('ref');
      CREATE TABLE h (id bigint PRIMARY KEY);
      SELECT create_distributed_table('h', 'id', shard_count => 4);
      CREATE TABLE one (id bigint PRIMARY KEY);
      SELECT create_distributed_table('one', NULL, colocate_with => 'none');
      CREATE FUNCTION rf(x int) RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN RETURN (SELECT count(*) FROM ref WHERE id = x); END $$;
      SELECT create_distributed_function('rf(int)', colocate_with => 'ref');
      CREATE PROCEDURE rp(x int) LANGUAGE plpgsql AS $$ BEGIN PERFORM 1 FROM ref WHERE id = x; END $$;
      SELECT create_distributed_function('rp(int)', colocate_with => 'ref');
      CREATE FUNCTION sf() RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN RETURN (SELECT count(*) FROM one); END $$;
      SELECT create_distributed_function('sf()', colocate_with => 'one');
      SET citus.enable_metadata_sync TO off;
      CREATE FUNCTION nosync(x int) RETURNS int LANGUAGE sql AS 'SELECT x + 1';
      RESET citus.enable_metadata_sync;
      CREATE MATERIALIZED VIEW mv USING columnar AS SELECT 1 AS a;
    `);
    expect(introspect.stderr).toBe(`wrote ${file}\n`);
    expect(introspect.code).toBe(0);
    expect(apply.stderr).not.toContain('error');
    expect(apply.stdout).toContain('verified: planning again is empty');
    expect(apply.code).toBe(0);
    const before = await citusLayout(src);
    expect(before.objects.filter((o) => o.o.startsWith('function') || o.o.startsWith('procedure'))).toEqual([
      { o: 'function public.rf(integer)', arg: null, force: null, group: 'ref' },
      { o: 'function public.sf()', arg: null, force: null, group: 'one' },
      { o: 'procedure public.rp(integer)', arg: null, force: null, group: 'ref' },
    ]);
    expect(await citusLayout(dst)).toEqual(before);
    // The function made with metadata sync off stays on the coordinator alone, as on the source.
    for (const db of [src, dst]) {
      expect(await db.query("SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'nosync'", 1)).toEqual([{ n: 0 }]);
      expect(
        await db.query("SELECT am.amname FROM pg_class c JOIN pg_am am ON am.oid = c.relam WHERE c.relname = 'mv'"),
      ).toEqual([{ amname: 'columnar' }]);
    }
    for (const db of [src, dst]) expect(await planSteps(file, db.url)).toEqual({ steps: [], problems: [] });
  });

  it('apply does not call a cluster converged when the next plan reports a problem', async () => {
    const db = await freshDatabase(citus!, 'meta_verify');
    // Since Citus 11 a CREATE FUNCTION is propagated and recorded in pg_dist_object: not local.
    await db.query('CREATE FUNCTION f(x int) RETURNS int LANGUAGE sql AS $$ SELECT x $$');
    const m = await loadManifestText(
      'version: 1\nroutines:\n  f:\n    signature: f(integer)\n    local: true\n',
      'citus-migrate.yaml',
      mkdtempSync(join(tmpdir(), 'cm-meta-')),
    );
    const state = await live(db.url);
    const plan = planLive(m, state);
    expect(plan.problems.map((p) => p.code)).toEqual(['routine_distributed']);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await expect(
        verifyConverged(client, m, plan, 'citus-migrate.yaml', {
          lockTimeoutMs: 5000,
          retries: 0,
          onRetry: () => undefined,
        }),
      ).rejects.toThrow(
        /did not converge: planning again reports 1 problem\n {2}public\.f\(integer\): is declared local: true but Citus knows it/,
      );
    } finally {
      await client.end();
    }
  });
});

describe.skipIf(!citus)('Citus metadata the manifest cannot carry is named', () => {
  it("names range and append distribution, shard replication, uneven shard boundaries, an isolated tenant and a sequence left distributed, never adopting them as local; adopts a partition's own default", async () => {
    const { src, file, introspect } = await roundTrip(`
      CREATE TABLE r (id int, v text);
      SELECT create_distributed_table('r', 'id', 'range');
      CREATE TABLE ap (id int, v text);
      SELECT create_distributed_table('ap', 'id', 'append');
      SET citus.shard_replication_factor = 2;
      CREATE TABLE rep (id int PRIMARY KEY, v text);
      SELECT create_distributed_table('rep', 'id', shard_count => 4);
      RESET citus.shard_replication_factor;
      CREATE TABLE iso (id int PRIMARY KEY, v text);
      SELECT create_distributed_table('iso', 'id', shard_count => 4);
      SELECT isolate_tenant_to_new_shard('iso', 5, shard_transfer_mode => 'block_writes');
      -- A split at a point of its own: boundaries no even split and no isolation explain.
      CREATE TABLE spl (id int PRIMARY KEY, v text);
      SELECT create_distributed_table('spl', 'id', shard_count => 2, colocate_with => 'none');
      SELECT citus_split_shard_by_split_points((SELECT min(shardid) FROM pg_dist_shard WHERE logicalrelid = 'spl'::regclass),
        ARRAY['-1500000000'], ARRAY[(SELECT min(nodeid) FROM pg_dist_node WHERE groupid > 0), (SELECT min(nodeid) FROM pg_dist_node WHERE groupid > 0)], 'block_writes');
      -- Even splits of counts that do not divide 2^32, and of one shard, are not named.
      CREATE TABLE even1 (id int); SELECT create_distributed_table('even1', 'id', shard_count => 1, colocate_with => 'none');
      CREATE TABLE even3 (id int); SELECT create_distributed_table('even3', 'id', shard_count => 3, colocate_with => 'none');
      CREATE TABLE even7 (id int); SELECT create_distributed_table('even7', 'id', shard_count => 7, colocate_with => 'none');
      CREATE TABLE even32 (id int); SELECT create_distributed_table('even32', 'id', shard_count => 32, colocate_with => 'none');
      CREATE SEQUENCE s_parent; CREATE SEQUENCE s_own;
      CREATE TABLE pt (k int, id bigint DEFAULT nextval('s_parent'), ts date) PARTITION BY RANGE (ts);
      CREATE TABLE pt_a PARTITION OF pt FOR VALUES FROM ('2024-01-01') TO ('2024-02-01');
      CREATE TABLE pt_b PARTITION OF pt FOR VALUES FROM ('2024-02-01') TO ('2024-03-01');
      ALTER TABLE pt_a ALTER COLUMN id SET DEFAULT nextval('s_own');
      SELECT create_distributed_table('pt', 'k', shard_count => 4, colocate_with => 'none');
      -- Distributed with its table's default, which is gone: nothing would distribute it again.
      CREATE SEQUENCE orphan;
      CREATE TABLE os (k int, id bigint DEFAULT nextval('orphan'));
      SELECT create_distributed_table('os', 'k', shard_count => 4, colocate_with => 'none');
      ALTER TABLE os ALTER COLUMN id DROP DEFAULT;
    `);
    expect(introspect.code).toBe(0);
    const named = [
      'range-distributed table (1): public.r',
      'append-distributed table (1): public.ap',
      'shard replication (1): public.rep (2 placements per shard)',
      'shard layout (1): public.spl (3 shards, not an even split of the hash range)',
      'shard isolation (1): public.iso (hash -1330264708)',
      'distributed sequence (1): public.orphan',
    ];
    expect(introspect.stderr).toContain(
      `introspect: left out 6 objects of kinds citus-migrate does not manage (listed at the top of the manifest; plans name them as not managed):\n${named.map((l) => `  ${l}`).join('\n')}\n`,
    );
    expect((await cli(['introspect', '--database', src.url, '--strict'])).code).toBe(1);
    const m = await loadManifest(file);
    // Not adopted as local tables (a plan would otherwise undistribute them for the manifest).
    expect(Object.keys(m.desired.tables)).not.toContain('public.r');
    expect(Object.keys(m.desired.tables)).not.toContain('public.ap');
    expect(m.desired.objects['column default public.pt_a.id']?.create).toEqual([
      "ALTER TABLE public.pt_a ALTER COLUMN id SET DEFAULT nextval('s_own'::regclass)",
    ]);
    const state = await live(src.url);
    const plan = planLive(m, state);
    expect([...plan.transaction.steps, ...plan.afterCommit]).toEqual([]);
    expect(plan.notManaged.map((x) => `${x.kind} ${x.name}`).sort()).toEqual([
      'append-distributed table public.ap',
      'distributed sequence public.orphan',
      'range-distributed table public.r',
      'shard isolation public.iso (hash -1330264708)',
      'shard layout public.spl (3 shards, not an even split of the hash range)',
      'shard replication public.rep (2 placements per shard)',
    ]);
    expect(
      (await cli(['plan', '-f', file, '--database', src.url, '--detailed-exitcode', '--include-unmanaged'])).code,
    ).toBe(2);

    // A manifest that declares a range-distributed table local gets a problem, never an undistribute step.
    const declared = await loadManifestText(
      'version: 1\ntables:\n  r:\n    local: true\n    columns:\n      id: integer\n      v: text\n',
      'citus-migrate.yaml',
      mkdtempSync(join(tmpdir(), 'cm-meta-')),
    );
    const refused = planLive(declared, state);
    expect(refused.problems.map((p) => `${p.code} ${p.object}`)).toEqual(['table_not_managed public.r']);
    expect(refused.transaction.steps.map((s) => s.kind)).not.toContain('undistribute_table');
  });
});
