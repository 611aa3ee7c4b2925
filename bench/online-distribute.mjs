#!/usr/bin/env node
// Online distribution: a table of ROWS rows (default 1,000,000) distributed by `citus-migrate
// apply` while CLIENTS clients keep inserting into it, once in the plan's transaction
// (create_distributed_table: writes wait for the copy) and once online (`online: true`:
// create_distributed_table_concurrently after COMMIT), each on a fresh database of one local
// Citus cluster. Prints, per mode: apply time, inserts acknowledged during it, acknowledged inserts
// missing afterwards (must be 0), and the longest and 99th-percentile insert latency — the bound
// a client was blocked for. Figures, not assertions: the machine is shared.
// Usage: npm run build && node bench/online-distribute.mjs   (ROWS=1000000 CLIENTS=4)
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startLocalCluster } from '../dist/cluster/local.js';
import { createClusterDatabase } from '../dist/cluster/database.js';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const CLIENTS = Number(process.env.CLIENTS ?? 4);
const cli = new URL('../dist/cli.js', import.meta.url).pathname;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;

const manifest = (online) => `version: 1
tables:
  events:
    ${online ? 'online: true' : 'online: false'}
    columns:
      w: { type: bigint, not_null: true }
      id: { type: bigint, not_null: true }
      v: text
    primary_key: [w, id]
    distributed_by: w
    shard_count: 32
`;

function runApply(url, dir) {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      [cli, 'apply', '--database', url, '--auto-approve', '--allow-hazards', 'all', '--format', 'json'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`apply exited ${code}: ${err}`)),
    );
  });
}

async function measure(cluster, mode) {
  const url = await createClusterDatabase(cluster, `online_${mode}`);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('CREATE TABLE events (w bigint NOT NULL, id bigint NOT NULL, v text, PRIMARY KEY (w, id))');
  await admin.query(`INSERT INTO events SELECT g % 1000, g, md5(g::text) FROM generate_series(1, ${ROWS}) g`);
  await admin.query('VACUUM ANALYZE events');
  const dir = mkdtempSync(join(tmpdir(), `online-${mode}-`));
  writeFileSync(join(dir, 'citus-migrate.yaml'), manifest(mode === 'online'));

  const acked = [];
  const latencies = [];
  let stop = false;
  const writers = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  const loops = writers.map(async (c, i) => {
    for (let n = 0; !stop; n++) {
      const id = 10_000_000 * (i + 1) + n;
      const t0 = performance.now();
      await c.query("INSERT INTO events VALUES ($1, $2, 'live')", [id % 1000, id]);
      latencies.push(performance.now() - t0);
      acked.push(id);
    }
  });
  await new Promise((r) => setTimeout(r, 500));
  const before = acked.length;
  const t0 = performance.now();
  const result = await runApply(url, dir);
  const applyMs = performance.now() - t0;
  const during = latencies.slice(before);
  stop = true;
  await Promise.all(loops);
  await Promise.all(writers.map((c) => c.end()));
  const stored = new Set(
    (await admin.query("SELECT id::text FROM events WHERE v = 'live'")).rows.map((r) => Number(r.id)),
  );
  const lost = acked.filter((id) => !stored.has(id)).length;
  const [{ partmethod }] = (
    await admin.query("SELECT partmethod FROM pg_dist_partition WHERE logicalrelid = 'events'::regclass")
  ).rows;
  await admin.end();
  return {
    mode,
    applyMs,
    inserts: during.length,
    lost,
    max: during.reduce((a, b) => Math.max(a, b), 0),
    p99: pct(during, 99),
    partmethod,
    steps: result.steps,
  };
}

const cluster = await startLocalCluster({ citus: true, workers: 2 });
try {
  const rows = [];
  for (const mode of ['transaction', 'online']) {
    const r = await measure(cluster, mode);
    rows.push(r);
    process.stderr.write(`${mode}: done\n`);
  }
  console.log(`table: ${ROWS.toLocaleString('en')} rows; ${CLIENTS} clients inserting throughout`);
  for (const r of rows)
    console.log(
      `${r.mode.padEnd(11)} apply ${(r.applyMs / 1000).toFixed(1)} s; ${r.inserts} inserts acknowledged during apply; ${r.lost} acknowledged inserts missing; insert latency during apply: max ${r.max.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms; distributed: ${r.partmethod === 'h'}`,
    );
  const [tx, on] = rows;
  console.log(
    `longest block online / in the transaction: ${(on.max / tx.max).toFixed(2)}x (${on.max.toFixed(0)} ms vs ${tx.max.toFixed(0)} ms); inserts during apply: ${on.inserts} vs ${tx.inserts}`,
  );
} finally {
  await cluster.stop();
}
