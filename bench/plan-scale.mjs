#!/usr/bin/env node
// Plan at scale: a Citus cluster with 2,000 distributed tables in 20 colocation groups
// (shard_count 4), 8,000 local tables, 2,000 routines and 1,000 sequences, plus objects defined
// by SQL (1,000 views, 1,000 triggers, 200 enums, 500 policies, 2,000 grants). Times `plan` (catalog
// read + diff + render, in a child process) and `pg_dump --schema-only` of the same database in
// one run, and prints both, the ratio, plan's round trips and its peak memory.
// Usage: npm run build && node bench/plan-scale.mjs   (BENCH_URL=... to use an existing cluster;
// SCALE=0.1 for a smaller run; DISTS=a/dist,b/dist to time other builds side by side, alternating,
// e.g. a baseline). Target (issue #25): plan <= 0.4x pg_dump, <= 5 round trips, < 300 MB.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startLocalCluster } from '../dist/cluster/local.js';
import { initClusterDatabase } from '../dist/cluster/database.js';

const scale = Number(process.env.SCALE ?? 1);
const N = {
  dist: Math.round(2000 * scale),
  groups: 20,
  local: Math.round(8000 * scale),
  routines: Math.round(2000 * scale),
  sequences: Math.round(1000 * scale),
  views: Math.round(1000 * scale),
  triggers: Math.round(1000 * scale),
  enums: Math.round(200 * scale),
  policies: Math.round(500 * scale),
  grants: Math.round(2000 * scale),
};
const runs = Number(process.env.RUNS ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

let cluster;
let dir;
let url = process.env.BENCH_URL;
if (!url) {
  cluster = await startLocalCluster({ citus: true, workers: 2 });
  url = await initClusterDatabase(cluster, 'postgres');
}
try {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const t0 = Date.now();
  process.stderr.write(`building ${JSON.stringify(N)} ...\n`);
  for (let i = 0; i < N.local; i += 500) {
    const sql = [];
    for (let j = i; j < Math.min(N.local, i + 500); j++)
      sql.push(`CREATE TABLE local_${j} (id bigint PRIMARY KEY, name text, created timestamptz DEFAULT now());`);
    await client.query(sql.join('\n'));
  }
  for (let i = 0; i < N.sequences; i += 500) {
    const sql = [];
    for (let j = i; j < Math.min(N.sequences, i + 500); j++)
      sql.push(`CREATE SEQUENCE seq_${j} CACHE ${1 + (j % 10)};`);
    await client.query(sql.join('\n'));
  }
  const perGroup = Math.ceil(N.dist / N.groups);
  for (let g = 0; g < N.groups; g++) {
    const sql = ['BEGIN;', "SET LOCAL citus.multi_shard_modify_mode TO 'sequential';"];
    for (let k = 0; k < perGroup && g * perGroup + k < N.dist; k++) {
      const t = `dist_${g}_${k}`;
      sql.push(`CREATE TABLE ${t} (tenant bigint NOT NULL, id bigint NOT NULL, v text, PRIMARY KEY (tenant, id));`);
      sql.push(
        k === 0
          ? `SELECT create_distributed_table('${t}', 'tenant', colocate_with => 'none', shard_count => 4);`
          : `SELECT create_distributed_table('${t}', 'tenant', colocate_with => 'dist_${g}_0');`,
      );
    }
    sql.push('COMMIT;');
    await client.query(sql.join('\n'));
    process.stderr.write(`  group ${g + 1}/${N.groups} (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
  }
  for (let i = 0; i < N.routines; i += 200) {
    const sql = [];
    for (let j = i; j < Math.min(N.routines, i + 200); j++) {
      sql.push(
        `CREATE FUNCTION fn_${j}(p_tenant bigint, p_v text) RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN RETURN p_tenant + ${j}; END $$;`,
      );
      if (j % 2 === 0)
        sql.push(
          `SELECT create_distributed_function('fn_${j}(bigint, text)', '$1', colocate_with => 'dist_${j % N.groups}_0', force_delegation => false);`,
        );
    }
    await client.query(sql.join('\n'));
  }
  // Objects the model does not hold: named by the plan (not managed), read by the same query.
  const extra = [
    'CREATE FUNCTION trg_fn() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;',
    'DO $$BEGIN CREATE ROLE plan_scale_reader; EXCEPTION WHEN duplicate_object THEN NULL; END$$;',
  ];
  for (let j = 0; j < N.views; j++) extra.push(`CREATE VIEW view_${j} AS SELECT id, name FROM local_${j % N.local};`);
  for (let j = 0; j < N.triggers; j++)
    extra.push(`CREATE TRIGGER trg_${j} BEFORE INSERT ON local_${j % N.local} FOR EACH ROW EXECUTE FUNCTION trg_fn();`);
  for (let j = 0; j < N.enums; j++) extra.push(`CREATE TYPE enum_${j} AS ENUM ('a', 'b', 'c');`);
  for (let j = 0; j < N.policies; j++)
    extra.push(
      `ALTER TABLE local_${j % N.local} ENABLE ROW LEVEL SECURITY; CREATE POLICY pol_${j} ON local_${j % N.local} USING (id > 0);`,
    );
  for (let j = 0; j < N.grants; j++) extra.push(`GRANT SELECT ON local_${j % N.local} TO plan_scale_reader;`);
  for (let i = 0; i < extra.length; i += 500) await client.query(extra.slice(i, i + 500).join('\n'));
  // Fresh catalog statistics: otherwise autovacuum analyses pg_class & co. during the timed runs.
  await client.query('VACUUM ANALYZE');
  await client.end();
  process.stderr.write(`built in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);

  // The manifest: every distributed table (distribution only), every routine, every sequence.
  const lines = ['version: 1', 'colocation:'];
  for (let g = 0; g < N.groups; g++) lines.push(`  g${g}: { shard_count: 4, anchor: dist_${g}_0 }`);
  lines.push('tables:');
  for (let g = 0; g < N.groups; g++)
    for (let k = 0; k < perGroup && g * perGroup + k < N.dist; k++)
      lines.push(`  dist_${g}_${k}: { distributed_by: tenant, colocation: g${g} }`);
  lines.push('sequences:');
  for (let j = 0; j < N.sequences; j++) lines.push(`  seq_${j}: { cache: ${1 + (j % 10)} }`);
  lines.push('routines:');
  for (let j = 0; j < N.routines; j++) {
    lines.push(
      j % 2 === 0
        ? `  fn_${j}: { signature: "fn_${j}(bigint, text)", distributed_by: $1, colocation: g${j % N.groups} }`
        : `  fn_${j}: { signature: "fn_${j}(bigint, text)" }`,
    );
  }
  dir = mkdtempSync(join(tmpdir(), 'plan-scale-'));
  const manifest = join(dir, 'citus-migrate.yaml');
  writeFileSync(manifest, `${lines.join('\n')}\n`);

  const child = new URL('./plan-scale-child.mjs', import.meta.url).pathname;
  const dists = (process.env.DISTS ?? new URL('../dist', import.meta.url).pathname).split(',').filter(Boolean);
  const plans = dists.map(() => []);
  const dumps = [];
  for (let r = 0; r < runs; r++) {
    for (const [i, dist] of dists.entries()) {
      const res = spawnSync(process.execPath, [child, manifest, url, dist], { encoding: 'utf8' });
      if (res.status !== 0) throw new Error(res.stderr);
      plans[i].push(JSON.parse(res.stdout.trim().split('\n').at(-1)));
    }
    const d0 = performance.now();
    const dump = spawnSync('pg_dump', ['--schema-only', '-f', '/dev/null', url], { encoding: 'utf8' });
    if (dump.status !== 0) throw new Error(dump.stderr);
    dumps.push(performance.now() - d0);
  }
  const dumpMs = median(dumps);
  console.log(
    `objects: ${N.dist} distributed tables in ${N.groups} groups (4 shards), ${N.local} local tables, ${N.routines} routines, ${N.sequences} sequences, ${N.views} views, ${N.triggers} triggers, ${N.enums} enums, ${N.policies} policies, ${N.grants} grants`,
  );
  console.log(`pg_dump --schema-only, median of ${runs}:            ${(dumpMs / 1000).toFixed(2)} s`);
  for (const [i, dist] of dists.entries()) {
    const planMs = median(plans[i].map((p) => p.ms));
    const last = plans[i].at(-1);
    const who = dists.length > 1 ? `${dist}: ` : '';
    console.log(
      `${who}plan (manifest load + catalog read + diff + JSON), median of ${runs}: ${(planMs / 1000).toFixed(2)} s  [steps ${last.steps}, unmanaged ${last.unmanaged}, not managed ${last.notManaged}]`,
    );
    console.log(`${who}ratio plan / pg_dump: ${(planMs / dumpMs).toFixed(2)}x (target <= 0.4x)`);
    console.log(`${who}round trips: ${last.trips} (connect + catalog query; target <= 5)`);
    console.log(
      `${who}peak memory of the plan process: ${Math.max(...plans[i].map((p) => p.rssMB)).toFixed(0)} MB (target < 300 MB)`,
    );
  }
} finally {
  // The manifest's folder is the benchmark's own: removed (it was left in the temp folder before).
  if (dir) rmSync(dir, { recursive: true, force: true });
  await cluster?.stop();
}
