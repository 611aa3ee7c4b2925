#!/usr/bin/env node
// What `plan --shards` costs (issue #41): a coordinator and 2 workers, TABLES distributed tables
// (a colocation group of SHARDS shards each; a primary key, an index and a CHECK on every shard:
// what --shards compares on each placement), a manifest declaring them. Then, alternating in one
// run: `plan` (the catalog query on the coordinator alone) and `plan --shards` (every placement
// read on its node as well), each until its plan is empty. Prints the medians and the ratio.
// Target: `plan --shards` ≤ 2× a plain plan of the same cluster.
// Usage: npm run perf:shards   (TABLES=100 SHARDS=32 RUNS=5, CLUSTER_DIR=<a cluster up folder>)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { benchCluster } from './lib/bench-cluster.mjs';
import { createClusterDatabase } from '../dist/cluster/database.js';

const TABLES = Number(process.env.TABLES ?? 100);
const SHARDS = Number(process.env.SHARDS ?? 32);
const RUNS = Number(process.env.RUNS ?? 5);
const cli = process.env.CLI ?? new URL('../dist/cli.js', import.meta.url).pathname;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const log = (t) => process.stderr.write(`${t}\n`);

function manifest() {
  const lines = ['version: 1', 'colocation:', `  tenants: { shard_count: ${SHARDS}, anchor: t_0 }`, 'tables:'];
  for (let i = 0; i < TABLES; i++)
    lines.push(
      `  t_${i}:`,
      '    distributed_by: tenant',
      '    colocation: tenants',
      '    columns:',
      '      tenant: { type: bigint, not_null: true }',
      '      id: { type: bigint, not_null: true }',
      '      amount: { type: "numeric(12,2)", not_null: true, default: "0" }',
      '      name: text',
      '    primary_key: [tenant, id]',
      '    indexes:',
      '      - { columns: [tenant, name] }',
    );
  return `${lines.join('\n')}\n`;
}

function timed(args, cwd) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${(r.stderr || r.stdout).slice(-2000)}`);
  return ms;
}

const cluster = await benchCluster();
const dir = mkdtempSync(join(tmpdir(), 'perf-shards-'));
const name = `perf_shards_${process.pid}`;
try {
  const t0 = performance.now();
  const url = await createClusterDatabase(cluster, name);
  writeFileSync(join(dir, 'citus-migrate.yaml'), manifest());
  timed(['apply', '--database', url, '--auto-approve'], dir);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const shards = (await c.query('SELECT count(*)::int AS n FROM pg_dist_shard')).rows[0].n;
  await c.end();
  log(
    `${TABLES} tables × ${SHARDS} shards (${shards} shards) built in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  const plain = [];
  const withShards = [];
  for (let r = 0; r < RUNS; r++) {
    for (const which of r % 2 === 0 ? ['plain', 'shards'] : ['shards', 'plain']) {
      const args = ['plan', '--database', url, '--detailed-exitcode', ...(which === 'shards' ? ['--shards'] : [])];
      (which === 'plain' ? plain : withShards).push(timed(args, dir));
    }
    log(
      `  run ${r + 1}/${RUNS}: plan ${(plain.at(-1) / 1000).toFixed(2)} s, plan --shards ${(withShards.at(-1) / 1000).toFixed(2)} s`,
    );
  }
  const p = median(plain);
  const s = median(withShards);
  console.log(`perf:shards (medians of ${RUNS}; a coordinator and ${cluster.workers.length} workers on this machine)`);
  console.log(`cluster: ${TABLES} distributed tables × ${SHARDS} shards = ${shards} shards`);
  console.log(`plan:          ${(p / 1000).toFixed(2)} s`);
  console.log(`plan --shards: ${(s / 1000).toFixed(2)} s`);
  console.log(`ratio: ${(s / p).toFixed(2)}x (target <= 2x)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
  if (process.env.CLUSTER_DIR)
    for (const n of [cluster.coordinator, ...cluster.workers]) {
      const c = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${n.port}/postgres` });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    }
  await cluster.stop();
}
